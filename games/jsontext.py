"""JSON text of the table socket's frames and updates, through orjson.

A move's JSON (each seat's state frame, the update every process reads) was a large share of
the event loop's time with the standard library's encoder; orjson does the same work in far
less (docs/performance.md). Its text is compact UTF-8 (no `\\u` escapes), which every JSON
reader takes.
"""

from __future__ import annotations

from typing import Any

import orjson

# Keys that are not strings (a seat number) become strings, as the standard library does.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Return `value` as JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """Return the value of JSON text."""
    return orjson.loads(text)
