"""The layer watch tells a busy event loop from a layer outage (issue 14, docs/performance.md).

Each daphne's watch sends a probe through the channel layer and waits for it. At full load the
loop runs every callback seconds late, and the probe's answer, already read from Redis, waits
behind the sockets' work: a wall-clock timeout took that for an outage, then "recovered" by
publishing everything again and sending every socket the stored state.

The watch runs here on an event loop with virtual time, against a fake layer: a busy loop is a
callback that makes every turn of the loop last `lag` seconds, and the probe's answer takes a
few turns to come back (the layer's reader, its queue, the watch's receiver). Nothing depends
on the wall clock: time only moves when the loop turns or would otherwise sleep.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

from games.realtime import delivery

GROUP = "table_7"


class JumpingSelector(selectors.DefaultSelector):
    """A selector that jumps the loop's virtual time instead of sleeping."""

    def __init__(self, loop_now: Callable[[float], None]) -> None:
        super().__init__()
        self.advance = loop_now

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        """Return what is ready now; when nothing is, move time to the next timer."""
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise RuntimeError("the loop would wait for ever: nothing scheduled")
        self.advance(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only when it would sleep, or when told to."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(JumpingSelector(self.advance))

    def time(self) -> float:
        """Return the virtual time (timers are scheduled on it)."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on, as a turn that took `seconds` would."""
        self.now += seconds


class Busy:
    """Make every turn of the loop last `lag` seconds, as 1,000 sockets' work does."""

    def __init__(self, loop: VirtualTimeLoop, lag: float) -> None:
        self.loop = loop
        self.lag = lag
        self.on = True
        loop.call_soon(self._turn)

    def _turn(self) -> None:
        if self.on:
            self.loop.advance(self.lag)
            self.loop.call_soon(self._turn)


class FakeLayer:
    """A channel layer whose probe answers take `hops` turns of the loop to come back."""

    def __init__(self, loop: VirtualTimeLoop, hops: int) -> None:
        self.loop = loop
        self.hops = hops
        self.answering = True
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.groups_added: list[tuple[str, str]] = []
        self.group_sends: list[tuple[str, dict[str, Any]]] = []
        self.answers: list[float] = []  # how long each answered probe took to come back

    async def new_channel(self, prefix: str) -> str:
        """Name the watch's channel."""
        return f"{prefix}1"

    async def group_add(self, group: str, channel: str) -> None:
        """Note a subscription (the recovery adds every socket's group again)."""
        self.groups_added.append((group, channel))

    async def group_discard(self, group: str, channel: str) -> None:
        """Forget a subscription (nothing to do here)."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Note a publish (the recovery publishes again and asks for resends)."""
        self.group_sends.append((group, message))

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """Send the probe round: it comes back `hops` turns later, unless the layer is away."""
        if self.answering:
            self.loop.create_task(self._come_back(message))

    async def _come_back(self, message: dict[str, Any]) -> None:
        sent = self.loop.time()
        for _ in range(self.hops):
            await asyncio.sleep(0)  # one turn of the loop per step of the answer's way
        self.answers.append(self.loop.time() - sent)
        await self.inbox.put(message)

    async def receive(self, channel: str) -> dict[str, Any]:
        """Return the next message for the watch's channel."""
        return await self.inbox.get()


class Socket:
    """A table socket as the watch sees it: its group, its state, its catch-ups."""

    channel_name = "specific.socket"

    def __init__(self) -> None:
        self.catch_ups = 0

    def watched_group(self) -> tuple[str, int]:
        """Return the table's group and the last state sent."""
        return GROUP, 5

    async def catch_up(self) -> None:
        """Count the catch-ups (the last step of a recovery)."""
        self.catch_ups += 1


class RecordingLedger(delivery.Ledger):
    """The ledger, noting on the virtual clock when the layer was taken for down and up."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self.loop = loop
        self.downs: list[tuple[float, str]] = []
        self.ups: list[float] = []

    def mark_down(self, error: BaseException | str) -> None:
        """Note when and why, then mark the outage."""
        self.downs.append((self.loop.time(), str(error)))
        super().mark_down(error)

    def mark_up(self, republished: int) -> None:
        """Note when, then end the outage."""
        self.ups.append(self.loop.time())
        super().mark_up(republished)


@pytest.fixture
def loop() -> Iterator[VirtualTimeLoop]:
    """Yield a virtual-time loop; close it with whatever still runs on it cancelled."""
    loop = VirtualTimeLoop()
    yield loop
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.wait(pending))
    loop.close()


@pytest.fixture
def ledger(loop: VirtualTimeLoop, monkeypatch: pytest.MonkeyPatch) -> RecordingLedger:
    """Give the delivery module a fresh ledger that notes its changes."""
    fresh = RecordingLedger(loop)
    monkeypatch.setattr(delivery, "ledger", fresh)
    return fresh


def _watch(loop: VirtualTimeLoop, layer: FakeLayer, monkeypatch: pytest.MonkeyPatch) -> Socket:
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: layer)
    watch = delivery.Watch(loop)
    sock = Socket()
    watch.sockets.add(sock)
    watch.ensure_running()
    return sock


async def _until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Let the loop run until `check()` holds; fail after `seconds` of virtual time."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, f"gave up after {seconds:g} virtual s waiting for {what}"
        await asyncio.sleep(0.05)


def _run(loop: VirtualTimeLoop, scenario: Coroutine[Any, Any, None]) -> None:
    loop.run_until_complete(scenario)


def test_a_probe_answered_late_by_a_lagging_loop_is_no_outage(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each turn lasts 1 s and the answer needs 5 turns: 5 s, past the 1.5 s allowance of an
    # idle loop, while Redis answered at once.
    layer = FakeLayer(loop, hops=5)
    Busy(loop, lag=1.0)
    sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 5, 600, "five probes answered")

    _run(loop, scenario())
    assert min(layer.answers) > delivery.PROBE_TIMEOUT  # late by the wall clock, each one
    assert ledger.downs == []
    assert ledger.outage_start() is None
    # No recovery: nothing subscribed or published again, no socket sent the stored state.
    assert layer.group_sends == []
    assert (GROUP, Socket.channel_name) not in layer.groups_added
    assert sock.catch_ups == 0


def test_a_probe_unanswered_on_an_idle_loop_is_an_outage_and_the_next_answer_recovers(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = FakeLayer(loop, hops=5)
    sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        assert ledger.downs == []
        layer.answering = False  # the subscription was lost: the probe never comes back
        lost_at = loop.time()
        await _until(lambda: bool(ledger.downs), 60, "the outage noticed")
        noticed_at, reason = ledger.downs[0]
        assert reason == "no answer to the layer probe"
        # As soon as on an idle loop: one probe's allowance after the next probe went out.
        assert noticed_at - lost_at <= delivery.PROBE_SECONDS + delivery.PROBE_TIMEOUT + 0.01
        layer.answering = True
        await _until(lambda: bool(ledger.ups), 60, "the layer back")
        await _until(lambda: sock.catch_ups == 1, 60, "the socket caught up")

    _run(loop, scenario())
    assert ledger.outage_start() is None
    # The repair path ran: the socket's group subscribed again, the others asked to resend.
    assert (GROUP, Socket.channel_name) in layer.groups_added
    assert [message["type"] for _group, message in layer.group_sends] == ["watch.resend"]
    assert len(ledger.downs) == 1


def test_a_lagging_loop_still_notices_a_real_outage(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Later than on an idle loop (the allowance counts the loop's turns), but it does.
    layer = FakeLayer(loop, hops=5)
    layer.answering = False
    Busy(loop, lag=1.0)
    _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: bool(ledger.downs), 600, "the outage noticed")

    _run(loop, scenario())
    assert ledger.downs[0][1] == "no answer to the layer probe"


def test_a_failed_publish_marks_the_layer_down_at_once(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    class BrokenLayer(FakeLayer):
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("Redis is away")

    layer = BrokenLayer(loop, hops=0)
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(delivery, "_watches", {})
    message = {"type": "table.update", "state_id": 6}

    went_through = loop.run_until_complete(delivery.publish(GROUP, message))

    assert not went_through
    assert ledger.downs == [(0.0, "Redis is away")]
    assert [sent.message for sent in ledger.take_kept()] == [message]
