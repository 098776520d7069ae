"""The channel layer of one process (no REDIS_URL): Channels' in-memory layer, made to scale.

Channels' InMemoryChannelLayer looks at every channel and every group member for expired
messages on each receive and each group send, and sends to a group through one task per
member. With the load bench's thousand table sockets that sweep was the largest single cost
of a move (its share: docs/performance.md, "Figures behind the code's comments").
Here the sweep runs at most once every SWEEP_SECONDS (a message lives `expiry` = 60 s: one
second late changes nothing), and a group send puts the message on each member's queue in
turn, leaving out the sender's own channel when asked (`skip`: the table socket sends its
player the update itself; Redis layers deliver it and the socket drops it by number). Messages
are still copied for each receiver, as a layer that serialises would.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class ProcessChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer with its expiry sweep at most once a second."""

    SWEEP_SECONDS = 1.0
    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.swept_at = float("-inf")

    def _clean_expired(self) -> None:
        """Sweep expired messages and memberships, unless swept less than a second ago."""
        # Channels' private hook: tests/unoclass/test_private_apis.py
        # ::test_channels_in_memory_layer_sweeps_through_clean_expired.
        now = self.clock()
        if now - self.swept_at < self.SWEEP_SECONDS:
            return
        self.swept_at = now
        super()._clean_expired()  # type: ignore[misc]  # Channels has it; its stubs do not

    async def group_send(
        self, group: str, message: dict[str, Any], *, skip: str | None = None
    ) -> None:
        """Send `message` to every member of `group` but `skip` (a channel that has it
        already: the mover's own socket); a full member's queue misses it."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            if channel == skip:
                continue
            # As Channels' layers do: a full member misses it, the others still get it.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
