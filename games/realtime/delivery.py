"""Publish table updates through the channel layer, and repair what the layer loses.

An update can be lost between processes in three ways: the publish fails (Redis is down), the
publish succeeds while another process's subscription is still reconnecting (Redis just came
back), or a process dies before publishing. The repairs, in order:

- the mover never depends on the layer: the table socket sends the result of its own action
  directly (games.consumers), then publishes it for the others;
- a failed publish is kept, logged once per outage (one line), and published again when the
  layer is back;
- each process with table sockets watches the layer: a probe goes round through it every
  PROBE_SECONDS. When the probe comes back after failing, the process publishes again what it
  kept and what it published during the outage, asks every process to publish again the
  updates its own sockets have not seen (`watch.resend`), and finally brings each of its
  sockets up to the stored state (the last resort: the state without the events).

The watch's timeouts count the loop's own time, not the wall clock's (`_on_time`): at full load
a loop that runs every callback seconds late is busy, not cut off from Redis.

Receivers drop what they already have by `state_id` (games.consumers.TableConsumer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)
T = TypeVar("T")

PROBE_SECONDS = 0.5
# A probe (or a publish made while repairing) that takes longer than this counts as failed:
# seconds of the loop's own time, i.e. the wall clock less the loop's lag (`_on_time`).
PROBE_TIMEOUT = 1.5
# The step in which those timeouts are counted: each step is one timer of the loop.
TICK = 0.1
# After the layer is back, the sockets still behind the database are brought up to date.
CATCH_UP_DELAY = 1.0
# What a process remembers of its own publishes, to publish them again after an outage.
RECENT_PER_GROUP = 32
RECENT_SECONDS = 120.0
# Updates published this long before the outage was noticed are published again too.
OUTAGE_MARGIN = 2.0
MAX_KEPT = 2000
RESEND_GROUP = "unoclass_resend"


class Watched(Protocol):
    """A socket the watch keeps up to date: its group, what it has, how it catches up."""

    channel_name: str

    def watched_group(self) -> tuple[str, int]:
        """Return the socket's group and the last state number it sent."""
        ...

    async def catch_up(self) -> None:
        """Send the stored state if the socket is behind it."""
        ...


@dataclass(frozen=True)
class Sent:
    """One update for a group, and when it was published (monotonic seconds)."""

    at: float
    group: str
    message: dict[str, Any]


class Ledger:
    """What this process kept (failed publishes) and recently published; outage state.

    Publishes may run on several event loops (async_to_sync from a bare thread): a lock.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: list[Sent] = []
        self.recent: dict[str, deque[Sent]] = {}
        self.down_since: float | None = None

    def published(self, group: str, message: dict[str, Any]) -> None:
        """Remember a publish that went through."""
        now = time.monotonic()
        with self.lock:
            queue = self.recent.setdefault(group, deque(maxlen=RECENT_PER_GROUP))
            queue.append(Sent(now, group, message))
            for name in [g for g, q in self.recent.items() if q[-1].at < now - RECENT_SECONDS]:
                del self.recent[name]

    def failed(self, group: str, message: dict[str, Any], error: BaseException) -> None:
        """Keep a publish that failed; log the outage once."""
        with self.lock:
            self.kept.append(Sent(time.monotonic(), group, message))
            del self.kept[:-MAX_KEPT]
        self.mark_down(error)

    def mark_down(self, error: BaseException | str) -> None:
        """Note that the layer does not answer; the first time of an outage logs one line."""
        with self.lock:
            if self.down_since is not None:
                return
            self.down_since = time.monotonic()
        reason = error if isinstance(error, str) else type(error).__name__
        logger.warning(
            "channel layer unreachable (%s): table updates are kept and published again "
            "when it is back",
            reason,
        )

    def take_kept(self) -> list[Sent]:
        """Return and forget the kept publishes, oldest first."""
        with self.lock:
            kept, self.kept = self.kept, []
        return kept

    def keep_again(self, items: list[Sent]) -> None:
        """Put back publishes that failed again (before any newer kept ones)."""
        with self.lock:
            self.kept[:0] = items

    def published_since(self, since: float) -> list[Sent]:
        """Return the publishes made since `since`, oldest first."""
        with self.lock:
            found = [s for q in self.recent.values() for s in q if s.at >= since]
        return sorted(found, key=lambda s: s.at)

    def newer_than(self, group: str, state_id: int) -> list[Sent]:
        """Return the remembered publishes of `group` after `state_id`, in order."""
        with self.lock:
            found = [s for s in self.recent.get(group, ()) if s.message["state_id"] > state_id]
        return sorted(found, key=lambda s: s.message["state_id"])

    def outage_start(self) -> float | None:
        """Return when the current outage was noticed, or None while the layer answers."""
        with self.lock:
            return self.down_since

    def has_kept(self) -> bool:
        """Tell whether failed publishes wait to be published again."""
        with self.lock:
            return bool(self.kept)

    def mark_up(self, republished: int) -> None:
        """Note that the layer answers again; log one line if an outage ends."""
        with self.lock:
            since, self.down_since = self.down_since, None
        if since is not None:
            logger.warning(
                "channel layer reachable again after %.1f s: %d table updates published again",
                time.monotonic() - since,
                republished,
            )


ledger = Ledger()


def _is_in_memory(layer: Any) -> bool:
    return layer is None or isinstance(layer, InMemoryChannelLayer)


async def publish(group: str, message: dict[str, Any]) -> bool:
    """Send `message` (with a `state_id`) to `group`; keep it for later if the layer fails.

    Never raises for a layer error: the caller's transaction has committed, and the update
    is repaired later. Returns whether it went through now.
    """
    layer = get_channel_layer()
    if layer is None:
        return True
    try:
        await layer.group_send(group, message)
    except Exception as exc:  # redis' ConnectionError, TimeoutError, OSError…: any layer fault
        ledger.failed(group, message, exc)
        _wake_watch()
        return False
    if not _is_in_memory(layer):
        ledger.published(group, message)
    return True


_publishing: set[asyncio.Task[bool]] = set()


def publish_soon(group: str, message: dict[str, Any]) -> None:
    """Publish in the background of the running loop: the caller never waits on the layer.

    While Redis is away, redis-py retries a publish for many seconds: a socket that awaited
    it could not read its player's next frame meanwhile. Publishes start in call order and
    the layer's connection lock serves them in that order.
    """
    task = _background(publish(group, message))
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)


def publish_from_thread(group: str, message: dict[str, Any]) -> None:
    """Publish from sync code (a service's on-commit hook); never raises for a layer error.

    In daphne (a watched loop runs) the publish is handed to that loop and not awaited;
    elsewhere (tests, commands, the in-memory layer) it is sent before this returns.
    """
    loop = _watched_loop()
    if loop is not None:
        loop.call_soon_threadsafe(publish_soon, group, message)
        return
    async_to_sync(publish)(group, message)


def send_or_log(group: str, message: dict[str, Any]) -> None:
    """Send a message nobody repairs (a sign-out: the sockets check their session anyway)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:  # any layer fault: the page must not fail for it
        ledger.mark_down(exc)
        _wake_watch()


@contextlib.contextmanager
def quiet_layer_errors() -> Iterator[None]:
    """Swallow a layer error of a best-effort call (marking the outage)."""
    try:
        yield
    except Exception as exc:  # any layer fault
        ledger.mark_down(exc)


class Watch:
    """The layer watch of one event loop (daphne's): probes, and repairs after an outage."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sockets: set[Watched] = set()
        self.task: asyncio.Task[None] | None = None
        self.channel: str | None = None
        self.receiver: asyncio.Task[None] | None = None
        self.expected = 0
        self.heard = asyncio.Event()
        self.sending: asyncio.Task[Any] | None = None
        self.failed_once = False

    def ensure_running(self) -> None:
        """Start the watch loop if it is not running (call on the watch's loop)."""
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    async def _run(self) -> None:
        layer = get_channel_layer()
        try:
            while self.sockets or ledger.has_kept():
                if await self._probe(layer):
                    if self.failed_once or ledger.outage_start() is not None or ledger.has_kept():
                        await self._recover(layer)
                else:
                    self.failed_once = True
                    ledger.mark_down("no answer to the layer probe")
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
            with quiet_layer_errors():
                await _within(layer.group_discard(RESEND_GROUP, self.channel), 1)
            self.channel = None

    async def _probe(self, layer: Any) -> bool:
        try:
            if self.channel is None:
                channel: str = await _within(layer.new_channel("watch."), PROBE_TIMEOUT)
                self.channel = channel
                await _within(layer.group_add(RESEND_GROUP, channel), PROBE_TIMEOUT)
                self.receiver = self.loop.create_task(self._receive(layer, channel))
            if self.sending is not None and not await _on_time(self.sending, PROBE_TIMEOUT):
                return False  # the last probe is still stuck in the layer's retries
            self.expected += 1
            self.heard.clear()
            probe = {"type": "watch.probe", "n": self.expected}
            self.sending = _background(layer.send(self.channel, probe))
        except Exception:  # the layer's fault or a call's timeout: the layer is down
            return False
        heard = asyncio.ensure_future(self.heard.wait())
        try:
            return await _on_time(heard, PROBE_TIMEOUT)
        finally:
            heard.cancel()

    async def _receive(self, layer: Any, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the core layer's receive fails while Redis is down
                await asyncio.sleep(PROBE_SECONDS)
                continue
            if message.get("type") == "watch.probe" and message.get("n") == self.expected:
                self.heard.set()
            elif message.get("type") == "watch.resend":
                self.loop.create_task(self._answer_resend(layer, message))

    async def _recover(self, layer: Any) -> None:
        """Publish again what the outage may have lost, then catch every socket up."""
        since = ledger.outage_start()
        self.failed_once = False
        try:
            # The core layer keeps groups in Redis: a restarted Redis forgot them.
            for sock in list(self.sockets):
                group, _state_id = sock.watched_group()
                await _within(layer.group_add(group, sock.channel_name), PROBE_TIMEOUT)
            if self.channel is not None:
                await _within(layer.group_add(RESEND_GROUP, self.channel), PROBE_TIMEOUT)
        except Exception as exc:  # down again: the next probe tells
            ledger.mark_down(exc)
            return
        kept = ledger.take_kept()
        for index, sent in enumerate(kept):
            if not await _send_again(layer, sent):
                ledger.keep_again(kept[index:])
                return
        again = ledger.published_since(since - OUTAGE_MARGIN) if since is not None else []
        for sent in again:
            await _send_again(layer, sent)
        behind: dict[str, int] = {}
        for sock in list(self.sockets):
            group, state_id = sock.watched_group()
            behind[group] = min(state_id, behind.get(group, state_id))
        if behind:
            request = {"type": "watch.resend", "groups": sorted(behind.items())}
            with quiet_layer_errors():
                await _within(layer.group_send(RESEND_GROUP, request), PROBE_TIMEOUT)
        ledger.mark_up(len(kept) + len(again))
        self.loop.create_task(self._catch_up_later())

    async def _answer_resend(self, layer: Any, message: dict[str, Any]) -> None:
        for group, state_id in message.get("groups", []):
            for sent in ledger.newer_than(str(group), int(state_id)):
                await _send_again(layer, sent)

    async def _catch_up_later(self) -> None:
        await asyncio.sleep(CATCH_UP_DELAY)
        for sock in list(self.sockets):
            try:
                await sock.catch_up()
            except Exception:  # the database may be away too: the page's own sync repairs
                logger.warning("a table socket could not catch up after the layer came back")


def _background(call: Awaitable[T]) -> asyncio.Task[T]:
    """Run a layer call as its own task, its failure noted (never "never retrieved")."""
    task = asyncio.ensure_future(call)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


async def _on_time(task: asyncio.Future[Any], seconds: float) -> bool:
    """Wait for `task` during `seconds` of the loop's own time; tell whether it finished.

    At full load (1,000 sockets on one process) each turn of the loop takes seconds: an answer
    already read from Redis waits its turn behind the sockets' work, a few turns in all (the
    layer's reader, its queue, the watch's receiver). A wall-clock timeout then expired first,
    and a busy loop was taken for a layer outage, whose repair (everything published again,
    every socket sent the stored state) added load at the worst moment and made seats skip
    states (docs/performance.md).

    So the wait is counted in steps of TICK, each one a timer of this loop, and a step counts
    TICK however late its timer fires: the loop's lag is added to the allowance. On an idle
    loop this is `seconds` of the wall clock, as fast as before to notice a real outage; on a
    loop one second late per turn it is stretched to seconds / TICK turns, ample for an answer
    that needs a few. A real outage on a busy loop is still noticed, later; and a failed
    publish (the layer raises) marks the outage at once, whatever the loop's load.
    """
    steps = max(1, round(seconds / TICK))
    for _ in range(steps):
        done, _pending = await asyncio.wait({task}, timeout=seconds / steps)
        if done:
            return True
    return task.done()


async def _within(call: Awaitable[T], seconds: float) -> T:
    """Await a layer call for `seconds` of the loop's own time at most, else raise TimeoutError.

    Unlike asyncio.wait_for, this does not cancel the call: a redis-py call cancelled inside
    its reconnection retries was seen to hang the canceller for good. The late call goes on in
    the background and ends with the layer's own retries.
    """
    task = _background(call)
    if not await _on_time(task, seconds):
        raise TimeoutError
    return task.result()


async def _send_again(layer: Any, sent: Sent) -> bool:
    """Publish a kept or remembered update again; False (the outage goes on) if it fails."""
    try:
        await _within(layer.group_send(sent.group, sent.message), PROBE_TIMEOUT)
    except Exception as exc:  # any layer fault
        ledger.mark_down(exc)
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


def _watched_loop() -> asyncio.AbstractEventLoop | None:
    """Return the running loop of a watch that is not this thread's, if any."""
    try:
        current: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        current = None
    for loop in list(_watches):
        if loop is not current and loop.is_running():
            return loop
    return None


def _wake_watch() -> None:
    """Make sure a watch will publish the kept updates again (from any thread)."""
    for loop, watch in list(_watches.items()):
        if not loop.is_closed():
            loop.call_soon_threadsafe(watch.ensure_running)
            return


class LayerErrorsOneLine(logging.Filter):
    """Print a channel layer's connection errors as one line, at most every SECONDS.

    channels_redis logs every failed read of its receive loop with a traceback, once a second
    while Redis is away; the outage itself is logged once by the ledger above.
    """

    SECONDS = 30.0

    def __init__(self) -> None:
        super().__init__()
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop the traceback of a layer's connection error; drop repeats within SECONDS."""
        if not record.name.startswith("channels_redis") or not record.exc_info:
            return True
        error = record.exc_info[1]
        if not _is_connection_error(error):
            return True
        now = time.monotonic()
        if now - self.last < self.SECONDS:
            return False
        self.last = now
        record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        return True


def _is_connection_error(error: BaseException | None) -> bool:
    if isinstance(error, (OSError, asyncio.TimeoutError)):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # no Redis client: not a Redis error
        return False
    return isinstance(error, (RedisConnectionError, RedisTimeoutError))
