"""Turn a report's HTML into PDF bytes with WeasyPrint: the work the print pool's processes do.

Nothing here imports Django, so a fresh worker process imports this module alone.
"""

from __future__ import annotations

from typing import Any


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or the system libraries it needs) is not installed on this server."""


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    # Everything the report needs is inline: refuse any other resource (no network, no files).
    raise ValueError(f"external resource refused: {url}")


def html_to_pdf(html: str) -> bytes:
    """Return the PDF of a self-contained HTML document; PdfUnavailable without WeasyPrint."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        raise PdfUnavailable(str(exc)) from None
    # Whole fonts: subsetting them was a large share of a class PDF's time; the file grows,
    # which a printer and the cache take (the figures: docs/performance.md).
    document: bytes = HTML(string=html, url_fetcher=_no_fetch).write_pdf(full_fonts=True)
    return document
