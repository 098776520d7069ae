"""The layer watch tells a busy process from a layer outage (issue 14, docs/performance.md).

Each daphne's watch sends numbered probes through the channel layer to itself. At full load
they wait in the same queues as the updates (the loop's ready queue, the process's publishes,
what the layer delivers to it): a fixed deadline on the round trip took that for an outage,
then "recovered" by publishing everything again and sending every socket the stored state.
A real outage must still be noticed as fast as before: Redis away, a probe lost in the layer,
a layer that no longer delivers.

The watch runs here on an event loop with virtual time, against a fake layer: a busy loop is a
callback that makes every turn of the loop last `lag` seconds; the fake layer's calls and
answers take turns or seconds as the real ones do under load. Nothing depends on the wall clock:
time only moves when the loop turns or would otherwise sleep.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.realtime import delivery_ledger, layer_watch, publishing

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
    """A channel layer sending each probe back to the watch, with the delays and faults set."""

    def __init__(self, loop: VirtualTimeLoop, turns: int = 1) -> None:
        self.loop = loop
        self.turns = turns  # turns of the loop a call and an answer take (their round trips)
        self.send_delay = 0.0  # seconds a probe's send waits (behind the process's publishes)
        self.answer_delay = 0.0  # seconds an answer waits (behind what the layer delivers)
        self.answer_growth = 0.0  # how much longer each next answer waits (a layer falling behind)
        self.reachable = asyncio.Event()  # cleared: Redis is away, calls hang in their retries
        self.reachable.set()
        self.fail_sends = False  # a probe's send and a publish raise (the retries gave up)
        self.lost: set[int] = set()  # probes the layer loses
        self.deaf = False  # the layer delivers nothing to the process (its subscription gone)
        self.members: set[tuple[str, str]] = set()  # the groups' members (Redis keeps them)
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.groups_added: list[tuple[str, str]] = []
        self.group_sends: list[tuple[str, dict[str, Any]]] = []
        self.sends: list[float] = []  # how long each probe's send took
        self.answers: list[float] = []  # how long each answered probe took to come back

    async def _call(self) -> None:
        await self.reachable.wait()
        for _ in range(self.turns):
            await asyncio.sleep(0)  # one turn of the loop per step of the call

    async def new_channel(self, prefix: str = "watch.") -> str:
        """Name the watch's channel."""
        await self._call()
        return f"{prefix}1"

    async def group_add(self, group: str, channel: str) -> None:
        """Note a subscription (the repair adds every socket's group again)."""
        await self._call()
        self.groups_added.append((group, channel))
        self.members.add((group, channel))

    def restart(self) -> None:
        """Forget every group, as a restarted Redis does under the core layer."""
        self.members.clear()

    async def group_discard(self, group: str, channel: str) -> None:
        """Forget a subscription (nothing to do here)."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Note a publish (an update, a repair, a request to catch up); send a probe round
        to the group's members."""
        if message["type"] == "watch.probe":
            members = [channel for g, channel in self.members if g == group]
            await self._probe_round(message, delivered=bool(members))
            return
        await self._call()
        if self.fail_sends:
            raise ConnectionError("Redis is away")
        self.group_sends.append((group, message))

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """Send a probe round to the watch's channel."""
        await self._probe_round(message, delivered=True)

    async def _probe_round(self, message: dict[str, Any], delivered: bool) -> None:
        """Take a probe: it comes back later, unless lost, undelivered or the layer is deaf."""
        started = self.loop.time()
        await asyncio.sleep(self.send_delay)
        await self._call()
        if self.fail_sends:
            raise ConnectionError("Redis is away")
        self.sends.append(self.loop.time() - started)
        if delivered and message["n"] not in self.lost and not self.deaf:
            self.loop.create_task(self._come_back(message, started, self.answer_delay))
        self.answer_delay += self.answer_growth

    async def _come_back(self, message: dict[str, Any], sent: float, delay: float) -> None:
        await asyncio.sleep(delay)
        for _ in range(self.turns):
            await asyncio.sleep(0)  # the layer's reader, its queue, the watch's receiver
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
        """Count the catch-ups (the last step of a repair)."""
        self.catch_ups += 1


class RecordingLedger(delivery_ledger.Ledger):
    """The ledger on the virtual clock, noting when the layer was taken for down and up."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__(clock=loop.time)
        self.downs: list[tuple[float, str, float | None]] = []
        self.ups: list[float] = []

    def mark_down(self, error: BaseException | str, since: float | None = None) -> None:
        """Note when, why and since when, then mark the outage."""
        self.downs.append((self.clock(), str(error), since))
        super().mark_down(error, since)

    def mark_up(self, repaired: int) -> None:
        """Note when, then end the outage."""
        self.ups.append(self.clock())
        super().mark_up(repaired)


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
    """Give the delivery modules a fresh ledger that notes its changes."""
    fresh = RecordingLedger(loop)
    monkeypatch.setattr(delivery_ledger, "ledger", fresh)
    monkeypatch.setattr(layer_watch, "_watches", {})
    return fresh


def _watch(
    loop: VirtualTimeLoop, layer: FakeLayer, monkeypatch: pytest.MonkeyPatch
) -> tuple[layer_watch.Watch, Socket]:
    monkeypatch.setattr(layer_watch, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(publishing, "get_channel_layer", lambda: layer)
    watch = layer_watch.Watch(loop)
    sock = Socket()
    watch.sockets.add(sock)
    watch.ensure_running()
    return watch, sock


async def _until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Let the loop run until `check()` holds; fail after `seconds` of virtual time."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, f"gave up after {seconds:g} virtual s waiting for {what}"
        await asyncio.sleep(0.05)


async def _for(seconds: float) -> None:
    """Let the loop run for `seconds` of virtual time."""
    await asyncio.sleep(seconds)


def _update(state_id: int) -> dict[str, Any]:
    return {"type": "table.update", "state_id": state_id}


async def _publish_every(seconds: float) -> None:
    """Publish an update every `seconds`: the process's own traffic through the layer."""
    state_id = 100
    while True:
        state_id += 1
        await publishing.publish(GROUP, _update(state_id))
        await asyncio.sleep(seconds)


def _run_until_answered(
    loop: VirtualTimeLoop, layer: FakeLayer, count: int, publish_every: float | None = None
) -> None:
    """Run the loop until `count` probes are answered (publishing meanwhile, if asked)."""

    async def scenario() -> None:
        publisher = asyncio.ensure_future(_publish_every(publish_every)) if publish_every else None
        await _until(lambda: len(layer.answers) >= count, 600, f"{count} probes answered")
        if publisher is not None:
            publisher.cancel()

    loop.run_until_complete(scenario())


def _no_repair(ledger: RecordingLedger, layer: FakeLayer, sock: Socket) -> None:
    assert ledger.downs == []
    assert ledger.outage_start() is None
    # Nothing subscribed again, no request to catch up, no catch-up.
    assert (GROUP, Socket.channel_name) not in layer.groups_added
    assert all(message["type"] != "watch.catch_up" for _group, message in layer.group_sends)
    assert sock.catch_ups == 0


def _repaired(ledger: RecordingLedger, layer: FakeLayer, sock: Socket) -> None:
    assert ledger.outage_start() is None
    assert len(ledger.ups) == 1
    assert (GROUP, Socket.channel_name) in layer.groups_added  # subscribed again
    # Every process is asked to catch its sockets up from the log; this one catches up its own.
    requests = [(g, m) for g, m in layer.group_sends if m["type"] == "watch.catch_up"]
    assert requests == [(layer_watch.RESEND_GROUP, {"type": "watch.catch_up", "from": "watch.1"})]
    assert sock.catch_ups == 1


def test_a_lagging_loop_is_no_outage(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each turn lasts 1 s; a probe's send and its answer take 2 turns each: both late by the
    # wall clock (past the 1.5 s allowance of an idle loop), while Redis answered at once.
    layer = FakeLayer(loop, turns=2)
    Busy(loop, lag=1.0)
    _, sock = _watch(loop, layer, monkeypatch)
    _run_until_answered(loop, layer, 10)
    assert min(layer.sends) > layer_watch.PROBE_TIMEOUT
    assert min(layer.answers) > layer_watch.PROBE_TIMEOUT
    _no_repair(ledger, layer, sock)


def _slow_but_answering(
    loop: VirtualTimeLoop,
    ledger: RecordingLedger,
    monkeypatch: pytest.MonkeyPatch,
    answered: int,
    publish_every: float | None = None,
    **delays: float,
) -> list[float]:
    """Watch a layer slowed by `delays` (FakeLayer's send_delay, answer_delay, answer_growth)
    until `answered` probes are answered; check that nothing was repaired; return the answers."""
    layer = FakeLayer(loop)
    for name, seconds in delays.items():
        assert hasattr(layer, name), name  # a misspelt delay would slow nothing
        setattr(layer, name, seconds)
    _, sock = _watch(loop, layer, monkeypatch)
    _run_until_answered(loop, layer, answered, publish_every)
    _no_repair(ledger, layer, sock)
    return layer.answers


def test_a_busy_layer_is_no_outage(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As at full load (measured: up to 2.3 s and 8 s): a probe's send waits 4 s behind the
    # process's publishes (which go through meanwhile), and its answer 8 s behind the updates.
    answers = _slow_but_answering(
        loop, ledger, monkeypatch, 10, publish_every=0.2, send_delay=4.0, answer_delay=8.0
    )
    assert min(answers) >= 4 + 8 - 0.01  # each one, late by 12 s


def test_a_layer_falling_behind_is_no_outage(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the core layer at full load: the first answer comes 10 s after it was sent, and each
    # next one 0.5 s later still, so one answer arrives for every two probes sent.
    answers = _slow_but_answering(
        loop, ledger, monkeypatch, 100, answer_delay=10.0, answer_growth=0.5
    )
    assert max(answers) > 50  # and growing: slow, not silent


def test_redis_away_is_an_outage_noticed_in_time_then_repaired(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = FakeLayer(loop)
    _, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        layer.reachable.clear()  # Redis stops: the next probe's send hangs
        stopped = loop.time()
        await _until(lambda: bool(ledger.downs), 60, "the outage noticed")
        noticed, reason, _since = ledger.downs[0]
        assert reason == "no answer to the layer probe"
        # As fast as before the change: the next probe's allowance after it went out.
        assert noticed - stopped <= layer_watch.PROBE_SECONDS + layer_watch.PROBE_TIMEOUT + 0.01
        await _for(1.0)  # a quick restart: Redis is back 1.5 s or so after it stopped
        layer.reachable.set()
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")

    loop.run_until_complete(scenario())
    assert len(ledger.downs) == 1
    _repaired(ledger, layer, sock)


def test_a_probe_lost_in_the_layer_is_an_outage_repaired_when_the_next_comes_back(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # E.g. Redis came back before the process's subscription: what is published then is lost.
    layer = FakeLayer(loop)
    layer.answer_delay = 3.0  # late answers (a busy layer) do not hide the loss
    watch, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        lost = watch.sent + 1
        layer.lost.add(lost)
        await _until(lambda: lost in watch.unanswered, 60, "the probe to be lost sent")
        sent_at = watch.unanswered[lost]
        await publishing.publish(GROUP, _update(6))  # lost too, but not known to be
        await _until(lambda: bool(ledger.downs), 60, "the loss noticed")
        noticed, reason, since = ledger.downs[0]
        assert reason == "a layer probe was lost"
        assert since == sent_at  # the outage began when the lost probe went out
        assert noticed - sent_at <= layer_watch.PROBE_SECONDS + 3.0 + 0.01  # the next's answer
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")

    loop.run_until_complete(scenario())
    _repaired(ledger, layer, sock)
    # The update published after the lost probe went out is not published again: the sockets
    # that missed it catch up from the log (each process asked to).
    assert [m for _group, m in layer.group_sends].count(_update(6)) == 1


def test_a_redis_restart_that_forgot_the_groups_is_an_outage_repaired_at_once(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The core layer keeps groups in Redis; redis-py's retries hide a short restart, so no
    # call fails, but every table's group is gone: only a probe through a group notices.
    layer = FakeLayer(loop)
    watch, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 4, 60, "four probes answered")
        layer.restart()
        restarted = loop.time()
        await _until(lambda: bool(ledger.downs), 60, "the restart noticed")
        noticed, reason, _since = ledger.downs[0]
        assert reason == "a layer probe was lost"
        # The next probe through the group is lost, the one after it (direct) comes back.
        assert noticed - restarted <= 3 * layer_watch.PROBE_SECONDS + 0.1
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")
        assert (watch.group, "watch.1") in layer.members  # its own group joined again
        answered = len(layer.answers)
        await _for(5 * layer_watch.PROBE_SECONDS)
        assert len(layer.answers) >= answered + 4  # group probes come back again

    loop.run_until_complete(scenario())
    _repaired(ledger, layer, sock)
    assert len(ledger.downs) == 1


def test_a_layer_that_delivers_nothing_is_an_outage_after_silent_probes(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Redis takes the publishes, but nothing comes back to this process.
    layer = FakeLayer(loop)
    _, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        layer.deaf = True
        deaf = loop.time()
        await _until(lambda: bool(ledger.downs), 120, "the outage noticed")
        noticed, reason, _since = ledger.downs[0]
        assert reason == f"no answer to the last {layer_watch.SILENT_PROBES} layer probes"
        silence = layer_watch.SILENT_PROBES * layer_watch.PROBE_SECONDS
        assert silence - 1 <= noticed - deaf <= silence + 1
        layer.deaf = False
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")

    loop.run_until_complete(scenario())
    _repaired(ledger, layer, sock)


def test_a_lagging_loop_still_notices_redis_away(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Later than an idle loop (the allowance counts the loop's turns), but it does.
    layer = FakeLayer(loop, turns=2)
    Busy(loop, lag=1.0)
    _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 600, "two probes answered")
        layer.reachable.clear()
        await _until(lambda: bool(ledger.downs), 600, "the outage noticed")

    loop.run_until_complete(scenario())
    assert ledger.downs[0][1] == "no answer to the layer probe"


def test_a_failed_probe_send_marks_the_layer_down_at_once(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = FakeLayer(loop)
    _, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        layer.fail_sends = True
        failed = loop.time()
        await _until(lambda: bool(ledger.downs), 60, "the outage noticed")
        assert ledger.downs[0][0] - failed <= layer_watch.PROBE_SECONDS + 0.01
        layer.fail_sends = False
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")

    loop.run_until_complete(scenario())
    assert ledger.downs[0][1] == "Redis is away"
    _repaired(ledger, layer, sock)


def test_a_failed_publish_marks_the_layer_down_at_once(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    class BrokenLayer(FakeLayer):
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("Redis is away")

    layer = BrokenLayer(loop)
    monkeypatch.setattr(publishing, "get_channel_layer", lambda: layer)

    went_through = loop.run_until_complete(publishing.publish(GROUP, _update(6)))
    loop.run_until_complete(publishing.publish(GROUP, _update(7)))

    assert not went_through
    assert ledger.downs[0] == (0.0, "Redis is away", None)
    # Only the table's group is kept (its updates are in the log), once.
    assert ledger.take_kept() == [GROUP]


def test_a_failed_publish_s_table_is_told_to_catch_up_when_the_layer_is_back(
    loop: VirtualTimeLoop, ledger: RecordingLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = FakeLayer(loop)
    _, sock = _watch(loop, layer, monkeypatch)

    async def scenario() -> None:
        await _until(lambda: len(layer.answers) >= 2, 60, "two probes answered")
        layer.fail_sends = True  # Redis is away: probes and publishes fail
        assert not await publishing.publish("table_9", _update(6))
        await _for(2.0)
        assert sock.catch_ups == 0
        layer.fail_sends = False
        await _until(lambda: sock.catch_ups == 1, 60, "the repair")

    loop.run_until_complete(scenario())
    # Every socket of that table, in any process, checks its seat and catches up from the log.
    assert ("table_9", layer_watch.REPAIR) in layer.group_sends
    assert _update(6) not in [m for _group, m in layer.group_sends]  # the log has it
    assert not ledger.has_kept()
    _repaired(ledger, layer, sock)
