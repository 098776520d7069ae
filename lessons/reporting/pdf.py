"""Build the HTML of printable reports (CSS inlined, no external resource) for the print pool.

lessons/printing/printing.py renders it to PDF away from the request's thread.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.template.loader import render_to_string

# The page styles, then the PDF-only layout (static/css/report-pdf.css says why).
STYLESHEETS = ("css/app.css", "css/dashboards.css", "css/report-pdf.css")


def inline_css() -> str:
    """Return the stylesheets the report uses, to embed in the PDF's HTML."""
    parts = []
    for name in STYLESHEETS:
        path = finders.find(name)
        if path:
            with open(path, encoding="utf-8") as handle:
                parts.append(handle.read())
    return "\n".join(parts)


def report_body(request: HttpRequest, context: dict[str, Any]) -> str:
    """Return one student's report as an HTML fragment."""
    return render_to_string("lessons/reports/_report_body.html", context, request=request)


def document_html(
    request: HttpRequest, bodies: list[str], *, lang: str, title: str, print_page: bool = False
) -> str:
    """Return a self-contained HTML document of reports, each starting on a new page.

    `print_page`: for the browser to print, on a server that makes no PDF (its note says why).
    """
    context = {
        "bodies": bodies,
        "report_lang": lang,
        "title": title,
        "inline_css": inline_css(),
        "print_page": print_page,
    }
    return render_to_string("lessons/reports/report_pdf.html", context, request=request)
