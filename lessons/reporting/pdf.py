"""Render the progress report as a PDF with WeasyPrint (CSS inlined, no network access)."""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

STYLESHEETS = ("css/app.css", "css/dashboards.css")


def inline_css() -> str:
    """Return the stylesheets the report uses, to embed in the PDF's HTML."""
    parts = []
    for name in STYLESHEETS:
        path = finders.find(name)
        if path:
            with open(path, encoding="utf-8") as handle:
                parts.append(handle.read())
    return "\n".join(parts)


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    # Everything the report needs is inline: refuse any other resource (no network, no files).
    raise ValueError(f"external resource refused: {url}")


def pdf_response(request: HttpRequest, context: dict[str, Any], *, filename: str) -> HttpResponse:
    """Render the report template to PDF; 503 with a plain message when WeasyPrint is missing."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError):
        return HttpResponse(
            _("PDF export is not available on this server. Use your browser's Print instead."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    html = render_to_string(
        "lessons/reports/report_pdf.html", {**context, "inline_css": inline_css()}, request=request
    )
    document = HTML(string=html, url_fetcher=_no_fetch).write_pdf()
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
