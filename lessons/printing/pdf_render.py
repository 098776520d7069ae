"""Turn a report's HTML into PDF bytes with WeasyPrint: the work the print pool's processes do.

Nothing here imports Django, so a fresh worker process imports this module alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import importlib.util
from collections.abc import Iterator
from typing import Any

# A line of each face the reports use (regular, bold, italic): laying it out loads the fonts.
WARM_UP_HTML = '<html lang="fr"><p>Bilan · <strong>½</strong> <em>é</em></p></html>'


# The names WeasyPrint itself opens Pango by (weasyprint/text/ffi.py): Linux, Windows, macOS.
PANGO_NAMES = ("libpango-1.0.so.0", "libpango-1.0-0.dll", "libpango-1.0-0", "libpango-1.0.dylib")


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or the system libraries it needs) is not installed on this server."""


@functools.cache
def weasyprint_installed() -> bool:
    """Tell whether WeasyPrint and its Pango library are there (Windows without GTK: not).

    Looked up, not imported: the server's process never loads WeasyPrint (its print workers
    do). A print that fails all the same raises PdfUnavailable.
    """
    try:
        if importlib.util.find_spec("weasyprint") is None:
            return False
    except (ImportError, ValueError):  # ValueError: a module blanked in sys.modules
        return False
    for name in PANGO_NAMES:
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return True
    return False


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    # Everything the report needs is inline: refuse any other resource (no network, no files).
    raise ValueError(f"external resource refused: {url}")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then let it run as before.

    WeasyPrint (and pypdf) make millions of objects that live until the document is done: the
    collector's passes over them found little and took a third of a render (the figures:
    docs/performance.md). What is garbage at the end is collected after, in one pass.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def html_to_pdf(html: str) -> bytes:
    """Return the PDF of a self-contained HTML document; PdfUnavailable without WeasyPrint."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        raise PdfUnavailable(str(exc)) from None
    with collector_paused():
        # Whole fonts: subsetting them was a large share of a class PDF's time; the file
        # grows, which a printer and the cache take (the figures: docs/performance.md).
        document: bytes = HTML(string=html, url_fetcher=_no_fetch).write_pdf(full_fonts=True)
    return document


def warm_up() -> None:
    """Import WeasyPrint and the PDF merger and load the fonts, as a new print worker starts.

    A worker started by a request then prints as soon as the request's HTML is ready.
    """
    with collector_paused():
        from lessons.printing import pdf_merge  # noqa: F401  (pypdf's import, for a merge)

        try:
            from weasyprint import HTML
        except (ImportError, OSError):
            return  # the print itself answers it (PdfUnavailable)
        # Laid out, not written: the layout loads the fonts; writing a PDF would only cost time.
        HTML(string=WARM_UP_HTML).render()
    # What the imports made lives as long as the worker: out of the collector's sight.
    gc.freeze()


def nothing() -> None:
    """Do nothing: a job that makes a process pool start one more worker."""
