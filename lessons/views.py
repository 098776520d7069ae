"""Thin views: parse the request, call a service or selector, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Show the landing page."""
    return render(request, "lessons/home.html")
