"""Check a client's frame before any handler sees it: rate, kind, size, a JSON object."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import TableError


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

    Codes: `bad_frame` (binary), `too_large` (over `max_bytes` of UTF-8), `bad_json`,
    `unknown_type` (JSON that is not an object). The messages are lazy: they take the
    language of the socket when the error frame is sent.
    """
    if text_data is None:
        raise TableError("bad_frame", _("Send JSON text frames only."))
    # surrogatepass: a lone surrogate still has a size (and then fails as JSON, not here).
    if len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise TableError("too_large", _("This message is too long."))
    try:
        content = json.loads(text_data)
    except (ValueError, RecursionError):
        raise TableError("bad_json", _("This message is not valid JSON.")) from None
    if not isinstance(content, dict):
        raise TableError("unknown_type", _("Unknown message type."))
    return content
