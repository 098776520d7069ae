"""The layer watch: how the channel layer fares, seen from one process, and the repairs.

The database holds every applied action in order with the state it led to, and a socket that
is behind catches up from it (games.catch_up). The watch notices what the layer lost:

- a failed publish (kept in games.realtime.delivery_ledger): when the layer is back, the
  group is sent a `table.repair` nudge (REPAIR): each of its sockets, in any process, checks
  its seat and catches up from the log;
- a loss the layer did not report: each process with table sockets watches the layer with a
  numbered probe through it to the process itself every PROBE_SECONDS. When a probe comes back
  after a failure, the process asks every process (`watch.catch_up`) to bring its sockets up
  to the stored state, events included, and does so for its own.

The mover never depends on the layer: the table socket sends the result of its own action
directly (games.consumers), then publishes it for the others. A socket that receives a later
state than the next one fills the gap from the log before sending it.

A busy process is not an outage. At full load (1,000 sockets) the probe waits in the same queues
as the updates: its send behind this process's publishes (channels_redis' pub/sub layer sends
one at a time), its answer behind what the layer delivers to the process (the core layer's
answers came back 10 s, then 25 s late, in order), and both behind a loop that runs each
callback late. A fixed deadline on the round trip took that for an outage, and the repair
(everything published again, every socket sent the stored state) added load at the worst moment
and made seats skip states (docs/performance.md). So the watch judges the layer by what it
does, not by how fast (games.realtime.layer_calls):

- down at once: a probe's send fails (like any publish), or a probe is lost: a later probe
  comes back while an earlier one did not (a process's probes are sent one at a time, and the
  layer delivers them to it in order). Every other probe goes through a group only the watch
  is in, the others straight to its channel: the core layer keeps groups in Redis, and a
  restarted Redis forgot them (and every table's) without any call failing (redis-py retries
  through a short restart). The group probe is then lost and the next direct one is not;
- down after a while: a layer call (a probe's send, a subscription) makes no progress for
  PROBE_TIMEOUT of the loop's own time while nothing else of this process goes through the
  layer either (Redis away: the calls hang in their retries), or SILENT_PROBES probes go into
  the layer and nothing comes back meanwhile (it no longer delivers to this process).

Receivers drop what they already have by `state_id` (games.consumers.TableConsumer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any, Protocol

from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.realtime import delivery_ledger
from games.realtime.layer_calls import background, on_time, within

logger = logging.getLogger(__name__)

PROBE_SECONDS = 0.5
# A layer call of the watch (a probe's send, a subscription, a publish while repairing) fails
# when neither it nor anything else of this process got through the layer for this long: seconds
# of the loop's own time, i.e. the wall clock less the loop's lag (`layer_calls.on_time`).
PROBE_TIMEOUT = 1.5
# Probes sent since the last answer arrived: this many, and the layer no longer delivers to
# this process (about 30 s at one probe every PROBE_SECONDS). Not less: at full load the core
# layer fell further and further behind (its answers came later and later, one every few
# probes: docs/performance.md), which is slow, not silent. A loss that ends sooner is found as
# soon as delivery resumes (a probe missing); meanwhile a page that hears nothing for 15 s while
# others play asks for the state itself (static/js/play/link.js).
SILENT_PROBES = 60
# After the layer is back, the sockets still behind the database are brought up to date.
CATCH_UP_DELAY = 1.0
RESEND_GROUP = "unoclass_resend"
REPAIR = {"type": "table.repair"}


class Watched(Protocol):
    """A socket the watch keeps up to date: its group, what it has, how it catches up."""

    channel_name: str

    def watched_group(self) -> tuple[str, int]:
        """Return the socket's group and the last state number it sent."""
        ...

    async def catch_up(self) -> None:
        """Send the stored events and state (from the log) if the socket is behind them."""
        ...


def _is_in_memory(layer: Any) -> bool:
    return layer is None or isinstance(layer, InMemoryChannelLayer)


class Watch:
    """The layer watch of one event loop (daphne's): probes, and repairs after an outage."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sockets: set[Watched] = set()
        self.task: asyncio.Task[None] | None = None
        self.channel: str | None = None
        # The group only this watch is in: half the probes go through it (the module's docstring).
        self.group = f"unoclass_watch_{uuid.uuid4().hex}"
        self.receiver: asyncio.Task[None] | None = None
        self.sending: asyncio.Task[Any] | None = None
        self.sent = 0  # the number of the last probe sent
        self.unanswered: dict[int, float] = {}  # probes in the layer: when each was sent
        self.answered = 0  # the number of the last probe that came back
        self.answered_sent_at = float("-inf")  # when that probe was sent
        self.silent = 0  # probes sent since the last answer arrived
        self.failed_at: float | None = None  # the watch's last failure not yet repaired
        # Probes sent before the last repair subscribed again: one of them lost belongs to the
        # outage that repair ends (a group probe sent while the groups were forgotten).
        self.repaired_before = float("-inf")
        self.catching_up: asyncio.Task[None] | None = None

    def ensure_running(self) -> None:
        """Start the watch loop if it is not running (call on the watch's loop)."""
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    async def _run(self) -> None:
        layer = get_channel_layer()
        try:
            while self.sockets or delivery_ledger.ledger.has_kept():
                failure = await self._probe(layer)
                if failure is not None:
                    self._failed(failure)
                elif self._repairable():
                    await self._recover(layer)
                await asyncio.sleep(PROBE_SECONDS)
        finally:
            await self._close(layer)

    async def _close(self, layer: Any) -> None:
        if self.receiver is not None:
            self.receiver.cancel()
            with contextlib.suppress(BaseException):
                await self.receiver
            self.receiver = None
        if self.channel is not None:
            with delivery_ledger.quiet_layer_errors():
                await within(layer.group_discard(RESEND_GROUP, self.channel), 1)
                await within(layer.group_discard(self.group, self.channel), 1)
            self.channel = None

    def _failed(self, reason: BaseException | str, since: float | None = None) -> None:
        """Mark the outage; a repair waits for a probe sent after it to come back."""
        at = delivery_ledger.ledger.clock() if since is None else since
        self.failed_at = at if self.failed_at is None else max(self.failed_at, at)
        delivery_ledger.ledger.mark_down(reason, since)

    def _repairable(self) -> bool:
        """Tell whether an outage (or kept publishes) waits for a repair the layer now allows.

        The layer works again once a probe sent after the last failure came back.
        """
        known = [
            t for t in (self.failed_at, delivery_ledger.ledger.outage_start()) if t is not None
        ]
        if not known and not delivery_ledger.ledger.has_kept():
            return False
        return self.answered_sent_at > max(known, default=float("-inf"))

    async def _probe(self, layer: Any) -> BaseException | str | None:
        """Send the next probe (one at a time); return why the layer seems down, or None.

        The probe's answer is not awaited here: it comes back when the layer's queue before it
        has moved (`_receive`), however long that takes at full load.
        """
        try:
            if self.channel is None:
                # The default prefix, as the sockets' channels: the core layer lets one
                # receive at a time read one list per prefix, and a socket's receive waiting on
                # its own list held back the probes in another until a table update came
                # (after a Redis restart, never: the tables' groups were forgotten).
                channel: str = await within(layer.new_channel(), PROBE_TIMEOUT)
                self.channel = channel
                await within(layer.group_add(RESEND_GROUP, channel), PROBE_TIMEOUT)
                await within(layer.group_add(self.group, channel), PROBE_TIMEOUT)
                self.receiver = self.loop.create_task(self._receive(layer, channel))
            if self.sending is None or self.sending.done():
                self.sent += 1
                self.unanswered[self.sent] = delivery_ledger.ledger.clock()
                probe = {"type": "watch.probe", "n": self.sent}
                if self.sent % 2:
                    self.sending = background(layer.group_send(self.group, probe))
                else:
                    self.sending = background(layer.send(self.channel, probe))
            if not await on_time(self.sending, PROBE_TIMEOUT):
                return "no answer to the layer probe"  # its send hangs in the layer's retries
        except Exception as exc:  # a layer call's fault or timeout: the layer is down
            return exc
        failed = self.sending.exception()
        if failed is not None:  # never entered the layer: not a lost probe later
            self.unanswered.pop(self.sent, None)
            return failed
        delivery_ledger.ledger.moved()
        self.silent += 1
        if self.silent >= SILENT_PROBES:
            return f"no answer to the last {SILENT_PROBES} layer probes"
        return None

    async def _receive(self, layer: Any, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the core layer's receive fails while Redis is down
                await asyncio.sleep(PROBE_SECONDS)
                continue
            if message.get("type") == "watch.probe":
                self._answer(int(message.get("n", 0)))
            elif message.get("type") == "watch.catch_up" and message.get("from") != channel:
                self._catch_up_soon()

    def _answer(self, n: int) -> None:
        """Note a probe that came back; an earlier one still missing was lost in the layer."""
        if n <= self.answered:
            return  # sent before one that already came back: nothing new
        delivery_ledger.ledger.moved()
        self.silent = 0
        earlier = sorted(
            k for k, sent in self.unanswered.items() if k < n and sent > self.repaired_before
        )
        if earlier:
            # The layer delivers a process's probes in the order they were sent (one at a
            # time): the missing ones are lost, and so may be updates published meanwhile.
            self._failed("a layer probe was lost", since=self.unanswered[earlier[0]])
        self.answered = n
        self.answered_sent_at = self.unanswered.get(n, delivery_ledger.ledger.clock())
        for k in [k for k in self.unanswered if k <= n]:
            del self.unanswered[k]

    async def _recover(self, layer: Any) -> None:
        """Tell the tables whose publish failed, then every process, to catch up from the log."""
        self.failed_at = None
        try:
            # The core layer keeps groups in Redis: a restarted Redis forgot them.
            for sock in list(self.sockets):
                group, _state_id = sock.watched_group()
                await within(layer.group_add(group, sock.channel_name), PROBE_TIMEOUT)
            if self.channel is not None:
                await within(layer.group_add(RESEND_GROUP, self.channel), PROBE_TIMEOUT)
                await within(layer.group_add(self.group, self.channel), PROBE_TIMEOUT)
        except Exception as exc:  # down again: a probe sent after this tells when it is back
            self._failed(exc)
            return
        self.repaired_before = delivery_ledger.ledger.clock()
        kept = delivery_ledger.ledger.take_kept()
        for index, group in enumerate(kept):
            if not await _send_again(layer, group, REPAIR):
                delivery_ledger.ledger.keep_again(kept[index:])
                self.failed_at = delivery_ledger.ledger.clock()
                return
        # What another process published meanwhile may not have reached this process's
        # sockets, nor this process's publishes theirs: each catches up its own from the log.
        request = {"type": "watch.catch_up", "from": self.channel}
        with delivery_ledger.quiet_layer_errors():
            await within(layer.group_send(RESEND_GROUP, request), PROBE_TIMEOUT)
        delivery_ledger.ledger.mark_up(len(kept))
        self._catch_up_soon()

    def _catch_up_soon(self) -> None:
        """Plan one catch-up of this process's sockets (requests meanwhile join it)."""
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = self.loop.create_task(self._catch_up_later())

    async def _catch_up_later(self) -> None:
        await asyncio.sleep(CATCH_UP_DELAY)
        for sock in list(self.sockets):
            try:
                await sock.catch_up()
            except Exception:  # the database may be away too: the page's own `since` repairs
                logger.warning("a table socket could not catch up after the layer came back")


async def _send_again(layer: Any, group: str, message: dict[str, Any]) -> bool:
    """Send a repair message to a group; False (the outage goes on) if it fails."""
    try:
        await within(layer.group_send(group, message), PROBE_TIMEOUT)
    except Exception as exc:  # any layer fault
        delivery_ledger.ledger.mark_down(exc)
        return False
    return True


_watches: dict[asyncio.AbstractEventLoop, Watch] = {}


def attach(sock: Watched) -> None:
    """Watch the layer for this socket (call from its event loop, once it joined its group)."""
    if _is_in_memory(get_channel_layer()):
        return  # in one process nothing is lost between processes
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        for closed in [other for other in _watches if other.is_closed()]:
            del _watches[closed]
        watch = _watches[loop] = Watch(loop)
    watch.sockets.add(sock)
    watch.ensure_running()


def detach(sock: Watched) -> None:
    """Stop watching for this socket (the watch stops with the last one)."""
    for watch in _watches.values():
        watch.sockets.discard(sock)


def watched_loop() -> asyncio.AbstractEventLoop | None:
    """Return the running loop of a watch that is not this thread's, if any."""
    try:
        current: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        current = None
    for loop in list(_watches):
        if loop is not current and loop.is_running():
            return loop
    return None


def wake() -> None:
    """Make sure a watch will publish the kept updates again (from any thread)."""
    for loop, watch in list(_watches.items()):
        if not loop.is_closed():
            loop.call_soon_threadsafe(watch.ensure_running)
            return
