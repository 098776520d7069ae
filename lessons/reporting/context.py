"""What every page's PDF buttons need to know: whether this server prints PDFs."""

from __future__ import annotations

from django.http import HttpRequest

from lessons.printing.printing import pdf_available


def pdf_printing(request: HttpRequest) -> dict[str, bool]:
    """Give the templates `pdf_available` (False: the buttons open pages to print, and say why)."""
    return {"pdf_available": pdf_available()}
