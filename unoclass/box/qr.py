"""The pupils' address as a QR code (segno, pure Python): an image a tablet's camera reads."""

from __future__ import annotations

import io
from functools import lru_cache

import segno


@lru_cache(maxsize=8)
def qr_data_uri(text: str) -> str:
    """Return `text` as a QR code: an SVG data URI, black on white, with its quiet zone.

    Error correction M still reads on a whiteboard's glare; the white background keeps it
    readable in a dark theme.
    """
    return str(segno.make(text, error="m").svg_data_uri(scale=8, dark="#000", light="#fff"))


def qr_terminal(text: str) -> str:
    """Return `text` as a QR code drawn with block characters, for the terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()
