"""How many event streams one sign-in, and one user at one link, may hold open in a process.

Every open stream holds a file descriptor (and a consumer) until its client goes; a daphne
under systemd's default `LimitNOFILE` stops at about a thousand (docs/deploy.md). One pupil
held 300 streams of one table: a new stream past a cap ends the oldest one it counts against
(close code 4409, "replaced by a newer stream": the page waits before it reopens it).

The caps are per process: they bound what one process holds, which is what runs out. A
sign-in whose streams reach several daphne processes may hold the caps in each (nginx's
upstream sends them where it likes); no channel-layer round trip on every stream's opening.
"""

from __future__ import annotations

from typing import Protocol

# Close code of a stream ended because a newer one of the same sign-in or place opened.
CLOSE_REPLACED = 4409
# Streams of one sign-in (session): a pupil's table page is one; a teacher may follow the
# overview and watch a few tables in tabs at once. Past it, the oldest tab yields.
PER_SIGNIN = 6
# Streams of one user at one link (a seat at a table, a teacher's overview of a session):
# a reload opens the new stream before the old one's disconnect arrives, so two, not one.
PER_PLACE = 2


class Endable(Protocol):
    """What the registry needs of a stream: a way to end it with a close code."""

    async def end(self, code: int) -> None:
        """End the stream with `code`."""


class StreamCaps:
    """Count this process's open streams by key; past a key's cap, name the oldest to end."""

    def __init__(self) -> None:
        self.open: dict[tuple[str, ...], list[Endable]] = {}
        self.keys_of: dict[Endable, list[tuple[str, ...]]] = {}

    def add(self, stream: Endable, keys: dict[tuple[str, ...], int]) -> list[Endable]:
        """Count `stream` under each key (with its cap); return the older streams it replaces.

        The returned streams are no longer counted: the caller ends them.
        """
        replaced: list[Endable] = []
        self.keys_of[stream] = list(keys)
        for key, cap in keys.items():
            held = self.open.setdefault(key, [])
            held.append(stream)
            while len(held) > cap:
                oldest = held.pop(0)
                if oldest not in replaced:
                    replaced.append(oldest)
        for oldest in replaced:
            self.discard(oldest)
        return replaced

    def discard(self, stream: Endable) -> None:
        """Stop counting `stream` under every key (it ended, or was replaced)."""
        for key in self.keys_of.pop(stream, []):
            held = self.open.get(key, [])
            if stream in held:
                held.remove(stream)
            if not held:
                self.open.pop(key, None)

    def count(self, key: tuple[str, ...]) -> int:
        """Return how many open streams count under `key`."""
        return len(self.open.get(key, []))


STREAM_CAPS = StreamCaps()
