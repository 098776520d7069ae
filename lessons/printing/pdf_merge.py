"""Join the PDFs of a document printed in parts (a class's reports, by several print workers).

Nothing here imports Django: the print pool's workers run it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from pypdf import PdfWriter

from lessons.printing.pdf_render import collector_paused


def merge_pdfs(parts: Sequence[bytes]) -> bytes:
    """Return one PDF of the parts' pages in order, with every part's outline.

    The first part gives the document its catalog (language, outline) and its information
    (title): the parts are printed from the same head, so they share them.
    """
    if not parts:
        raise ValueError("nothing to merge")
    if len(parts) == 1:
        return parts[0]
    merged = io.BytesIO()
    # Right after a render the worker holds a large heap: the collector's passes over it
    # doubled the merge's time.
    with collector_paused():
        writer = PdfWriter(clone_from=io.BytesIO(parts[0]))
        for part in parts[1:]:
            writer.append(io.BytesIO(part), import_outline=True)
        # Each part embeds the same whole fonts: keep one copy of each (half the file's size).
        writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
        writer.write(merged)
    return merged.getvalue()
