"""The delivery ledger: what this process keeps in memory of what the channel layer lost.

The database holds every applied action in order with the state it led to, and a socket
that is behind catches up from it (games.catch_up: "since state N", the one repair path).
The ledger keeps only what the log cannot know:

- that a publish failed: the log cannot tell another process's sockets that their table
  moved. A failed publish keeps its group's name (not the update), is logged once per outage
  (one line), and when the layer is back the layer watch (games.realtime.layer_watch) sends
  the group a `table.repair` nudge: each of its sockets, in any process, checks its seat and
  catches up from the log;
- the outage itself (since when, and whether the layer moves at all), to tell an outage apart
  from a busy process.

Callers read the ledger as `delivery_ledger.ledger` (not imported by name), so that one
replacement (a test's) reaches every module.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator

logger = logging.getLogger(__name__)

# Groups whose publish failed, kept until the layer is back (the oldest forgotten beyond).
MAX_KEPT = 2000


class Ledger:
    """The groups whose publish failed, and the outage state of this process's layer.

    Publishes may run on several event loops (async_to_sync from a bare thread): a lock.
    Times are the `clock`'s (monotonic seconds; the watch's too).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        self.kept: dict[str, None] = {}  # group names, in the order they first failed
        self.down_since: float | None = None
        # Layer calls of this process that went through: while it grows the layer is busy,
        # not away (`_on_time`).
        self.progress = 0

    def moved(self) -> None:
        """Note that a layer call of this process went through."""
        with self.lock:
            self.progress += 1

    def failed(self, group: str, error: BaseException) -> None:
        """Keep the group of a publish that failed; log the outage once."""
        with self.lock:
            self.kept[group] = None
            for oldest in list(self.kept)[:-MAX_KEPT]:
                del self.kept[oldest]
        self.mark_down(error)

    def mark_down(self, error: BaseException | str, since: float | None = None) -> None:
        """Note that the layer does not answer; the first time of an outage logs one line.

        `since`: when the outage began, if it was noticed later (a lost probe).
        """
        began = self.clock() if since is None else since
        with self.lock:
            if self.down_since is not None:
                self.down_since = min(self.down_since, began)
                return
            self.down_since = began
        reason = error if isinstance(error, str) else type(error).__name__
        logger.warning(
            "channel layer unreachable (%s): the tables it misses catch up from the log "
            "when it is back",
            reason,
        )

    def take_kept(self) -> list[str]:
        """Return and forget the groups whose publish failed, oldest first."""
        with self.lock:
            kept, self.kept = list(self.kept), {}
        return kept

    def keep_again(self, groups: list[str]) -> None:
        """Put back groups whose repair failed (before any newer kept ones)."""
        with self.lock:
            self.kept = {**dict.fromkeys(groups), **self.kept}

    def outage_start(self) -> float | None:
        """Return when the current outage began (as far as known), or None if there is none."""
        with self.lock:
            return self.down_since

    def has_kept(self) -> bool:
        """Tell whether tables whose publish failed wait to be told to catch up."""
        with self.lock:
            return bool(self.kept)

    def mark_up(self, repaired: int) -> None:
        """Note that the layer answers again; log one line if an outage ends."""
        with self.lock:
            since, self.down_since = self.down_since, None
        if since is not None:
            logger.warning(
                "channel layer reachable again after %.1f s: %d tables told to catch up from "
                "the log, every process asked to",
                self.clock() - since,
                repaired,
            )


ledger = Ledger()


@contextlib.contextmanager
def quiet_layer_errors() -> Iterator[None]:
    """Swallow a layer error of a best-effort call (marking the outage)."""
    try:
        yield
    except Exception as exc:  # any layer fault
        ledger.mark_down(exc)
