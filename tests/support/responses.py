"""Small helpers for the foundation tests: error texts in a page, counts, table snapshots."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase, HttpResponseRedirectBase

from lessons.models import Classroom, Student, User

if TYPE_CHECKING:
    # What the test client returns (a stub-only class): import it under TYPE_CHECKING too.
    from django.test.client import _MonkeyPatchedWSGIResponse as ClientResponse

__all__ = [
    "ClientResponse",
    "body_of",
    "form_errors",
    "page_text",
    "redirect_url",
    "snapshot",
    "without_tokens",
]


def _html(response: HttpResponseBase) -> str:
    # The test client's responses are typed as the base class; a page is an HttpResponse.
    assert isinstance(response, HttpResponse), response
    return response.content.decode()


def body_of(response: HttpResponseBase) -> bytes:
    """Return a response's body, whole or streamed (the test client's streams are sync)."""
    if isinstance(response, StreamingHttpResponse):
        content = response.streaming_content
        assert isinstance(content, Iterator), content
        return b"".join(content)
    assert isinstance(response, HttpResponse), response
    return response.content


def redirect_url(response: HttpResponseBase) -> str:
    """Return where a redirect leads (fails on any other response)."""
    assert isinstance(response, HttpResponseRedirectBase), response
    return response.url


def page_text(response: HttpResponseBase) -> str:
    """Return a response's HTML with entities decoded, for text assertions."""
    return html.unescape(_html(response))


def without_tokens(page: str) -> str:
    """Return a page's HTML without its CSRF token values (the forms' and the live pages'
    `data-csrf`): a random token may hold any short text ("M1" once in about 60 pages), so a
    test that a code never shows must not read them."""
    return re.sub(r'((?:name="csrfmiddlewaretoken" value|data-csrf)=")[^"]*"', r'\1"', page)


def form_errors(response: HttpResponseBase) -> list[str]:
    """Return every form error message shown on a page, as plain text."""
    text = _html(response)
    blocks = re.findall(r'class="(?:errorlist|form-errors)"[^>]*>(.*?)</(?:ul|div)>', text, re.S)
    messages = []
    for block in blocks:
        for item in re.findall(r"<(?:li|p)>(.*?)</(?:li|p)>", block, re.S):
            messages.append(html.unescape(re.sub(r"<[^>]+>", "", item)).strip())
    return messages


def snapshot() -> dict[str, Any]:
    """Return the state of every lessons table, to check that a refused request changed nothing."""
    return {
        "users": sorted(User.objects.values_list("id", "username", "password", "role")),
        "classrooms": sorted(Classroom.objects.values_list()),
        "students": sorted(Student.objects.values_list()),
    }
