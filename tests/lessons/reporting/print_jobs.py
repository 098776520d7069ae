"""Jobs for tests of the print pool's processes: importable by a fresh worker (no Django)."""

from __future__ import annotations

import os
from pathlib import Path


def mark_started(folder: str) -> None:
    """Leave a file named after this worker's process in `folder` (a warm-up that is seen)."""
    (Path(folder) / str(os.getpid())).touch()


def die_on_request(html: str) -> bytes:
    """Print `html` as bytes, or end this worker's process at once when it asks for it."""
    if "die" in html:
        os._exit(1)
    return html.encode()
