"""Check a client's frame before any handler sees it: rate, kind, size, a JSON object.

The JSON is read by orjson, the reader the answers are written with: what it reads it can
write back, so no value of a frame can make an answer fail. It refuses what the standard
library would let through and then fail on: a lone surrogate (`"\\ud800"`, which no answer
could encode), NaN, Infinity and numbers out of range (`1e999`). Nesting is bounded too: no
frame of the protocol nests deeper than MAX_DEPTH.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import jsontext
from games.errors import TableError

# The deepest a frame of the protocol nests is 2 (a frame, its action): room to spare.
MAX_DEPTH = 8


class TokenBucket:
    """Allow `burst` frames at once, refilled at `per_second`: one bucket per socket."""

    def __init__(
        self, burst: int, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self.tokens = float(burst)
        self.refilled = clock()

    def take(self) -> bool:
        """Spend one token; False when the bucket is empty (the frame is then refused)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def read_frame(
    text_data: str | None, bytes_data: bytes | None, *, max_bytes: int
) -> dict[str, Any]:
    """Return the frame's JSON object, or raise TableError with the reason's code.

    Codes: `bad_frame` (binary), `too_large` (over `max_bytes` of UTF-8), `bad_json` (also a
    lone surrogate, NaN, Infinity or a number out of range), `too_deep` (nested deeper than
    MAX_DEPTH), `unknown_type` (JSON that is not an object). The messages are lazy: they take
    the language of the socket when the error frame is sent.
    """
    if text_data is None:
        raise TableError("bad_frame", _("Send JSON text frames only."))
    # surrogatepass: a lone surrogate still has a size (and then fails as JSON, not here).
    if len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise TableError("too_large", _("This message is too long."))
    try:
        content = jsontext.loads(text_data)
    except ValueError:  # orjson.JSONDecodeError: also surrogates, NaN, 1e999, depth over 1024
        raise TableError("bad_json", _("This message is not valid JSON.")) from None
    if _depth_over(content, MAX_DEPTH):
        raise TableError("too_deep", _("This message is nested too deeply."))
    if not isinstance(content, dict):
        raise TableError("unknown_type", _("Unknown message type."))
    return content


def _depth_over(value: Any, limit: int) -> bool:
    """Tell whether `value` nests lists or objects more than `limit` deep (no recursion)."""
    level: list[Any] = [value]
    for _depth in range(limit + 1):
        level = [
            inner
            for item in level
            if isinstance(item, dict | list)
            for inner in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return any(isinstance(item, dict | list) for item in level)
