"""The load benchmark's client process: many WebSocket seats, one asyncio loop, loopback only.

Run by bench/load.py (never by the test suite): reads a JSON plan (one line) on stdin, opens
every socket and prints READY. Then each `PLAY <warm-up> <seconds>` line plays one window: the
seats make moves for the warm-up, then for the measured window, print WINDOW-END, stop making
moves, wait until the moves in flight are held by every seat, and print the window's figures
(one JSON line). The sockets stay open between windows, so bench/load.py can run two scenarios'
windows in turn on the same tables (one machine's speed drifts from one minute to the next). A
CLOSE line closes every socket at once and prints the run's counts (errors, lost, duplicated).
Two modes:

- `game`: tables of four seats on unoclass's /ws/table/<id>/; the seat whose move is due picks
  a legal move from its own state frame (tests/e2e/scale/client.py's shadow engine) and sends it,
  either at once (full speed) or at the table's next slot (one move per table every `pace`
  seconds). Latency runs from the send to the moment the last seat of the table holds the
  new state.
- `bare`: rooms of four on the bench's bare broadcast consumer (bench/bare_asgi.py): the seats
  take turns sending a small message that the consumer relays to the room; the next seat sends
  when all four have it (a round).

Every wait is bounded: each socket's first read and the wait for the moves in flight after a
window have time limits, and bench/load.py bounds the whole process.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import uvloop
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONNECT_BATCH = 50
READ_TIMEOUT = 30.0
# After a window: how long the moves still in flight may take to reach every seat.
SETTLE_SECONDS = 15.0


class Stats:
    """Counters of one run; `moves` and `latencies` start again with each window."""

    def __init__(self) -> None:
        self.moves = 0
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.lost = 0
        # Of the skipped states: those whose events came later (reordered), and older states.
        self.reordered = 0
        self.older = 0
        self.duplicates = 0
        self.finished_tables = 0
        self.frames = 0
        self.connect_retries = 0
        # Seats make moves while `playing` (until `play_until`); moves count while `measuring`.
        self.playing = False
        self.play_until = 0.0
        self.measuring = False
        self.closing = False


async def _connect(url: str, headers: dict[str, str], stats: Stats) -> Any:
    for attempt in range(5):
        try:
            return await websockets.connect(
                url, additional_headers=headers, open_timeout=30, max_size=2**22,
                ping_interval=None, compression=None,
            )  # fmt: skip
        except (OSError, websockets.InvalidHandshake, TimeoutError) as exc:
            if attempt == 4:
                stats.errors[f"connect:{type(exc).__name__}"] += 1
                raise
            stats.connect_retries += 1
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


async def _frames(sock: Any, stats: Stats) -> AsyncIterator[Any]:
    """Yield a socket's frames, parsed, until it closes (a close before CLOSE is an error).

    No timer around each read: the driver bounds the process, and a timer and a task a frame
    (asyncio.wait_for) cost the client about as much CPU as parsing the frame, CPU taken from
    the servers it measures on the same cores.
    """
    while True:
        try:
            raw = await sock.recv(decode=False)
        except websockets.ConnectionClosed:
            if not stats.closing:
                stats.errors["socket_closed"] += 1
            return
        stats.frames += 1
        yield orjson.loads(raw)


# --------------------------------------------------------------------------------- game mode


class GameTable:
    """One table: its four sockets, the move in flight, the pace slot."""

    def __init__(self, spec: dict[str, Any], plan: dict[str, Any], stats: Stats, rng: Any) -> None:
        self.spec = spec
        self.plan = plan
        self.stats = stats
        self.rng = rng
        self.socks: list[Any] = []
        self.last: list[int] = []
        # Each seat's newest view, to move on when a window starts.
        self.views: list[dict[str, Any]] = []
        # The moves sent and not yet held by every seat: state answered -> (sent at, holders).
        self.in_flight: dict[int, tuple[float, set[int]]] = {}
        self.next_slot = 0.0
        self.done = False
        # Per seat: the state numbers it skipped, and those whose `event` frames it received.
        self.skipped: list[set[int]] = []
        self.evented: list[set[int]] = []
        self.kicks: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        """Connect the four seats and read their first state (the server's connect work is
        done when it arrives, so the measured window starts from a steady state)."""
        for seat in self.spec["seats"]:
            headers = {"Cookie": f"sessionid={seat['session']}", "Origin": seat["origin"]}
            url = f"{seat['ws']}/ws/table/{self.spec['table']}/"
            sock = await _connect(url, headers, self.stats)
            frame = orjson.loads(await asyncio.wait_for(sock.recv(), READ_TIMEOUT))
            self.socks.append(sock)
            self.last.append(frame["state_id"])
            self.views.append(frame["view"])
            self.skipped.append(set())
            self.evented.append(set())

    async def read(self) -> None:
        """Read every seat's frames until the sockets close."""
        await asyncio.gather(*(self._read(i) for i in range(len(self.socks))))

    def kick(self) -> None:
        """Start a window: the seat whose move is due makes it on its newest view."""
        for index, view in enumerate(self.views):
            task = asyncio.create_task(self._act(index, view, self.last[index]))
            self.kicks.add(task)
            task.add_done_callback(self.kicks.discard)

    def settled(self) -> bool:
        return not self.in_flight

    async def _read(self, index: int) -> None:
        after_error = False
        async for frame in _frames(self.socks[index], self.stats):
            kind = frame["type"]
            if kind == "error":
                self.stats.errors[frame.get("code", "?")] += 1
                after_error = True
                continue
            if kind == "event" and "state_id" in frame:
                self.evented[index].add(frame["state_id"])
            if kind != "state":
                continue
            state_id = frame["state_id"]
            previous = self.last[index]
            if state_id == previous and not after_error:
                self.stats.duplicates += 1
            elif state_id > previous + 1:
                self.skipped[index].update(range(previous + 1, state_id))
            elif state_id < previous:
                self.stats.older += 1
            after_error = False
            self.last[index] = max(previous, state_id)
            self.views[index] = frame["view"]
            self._arrived(index, state_id)
            if frame["view"].get("winner") is not None and not self.done:
                self.stats.finished_tables += 1
                self.done = True
            if self.stats.playing:
                await self._act(index, frame["view"], state_id)

    async def _act(self, index: int, view: dict[str, Any], state_id: int) -> None:
        """Send the seat's move on `view` if one is due (at the table's next slot when paced)."""
        from tests.e2e.scale.client import choose_action

        action = choose_action(view, self.rng)
        if action is None or (action["type"] == "next_round" and index != 0):
            # Every seat may start the next round: the first seat alone does, or the three
            # others would be refused as too late (stale_state).
            return
        if self.plan["pace"] > 0:
            now = time.monotonic()
            if self.next_slot < now:
                self.next_slot = now
            wait = self.next_slot - now
            self.next_slot += self.plan["pace"]
            if wait > 0:
                await asyncio.sleep(min(wait, max(0.0, self.stats.play_until - now)))
            if not self.stats.playing or self.last[index] != state_id:
                return
        self.in_flight[state_id] = (time.monotonic(), set())
        try:
            await self.socks[index].send(
                json.dumps({"type": "action", "action": action, "state_id": state_id})
            )
        except websockets.ConnectionClosed:
            self.stats.errors["socket_closed"] += 1

    def count_skipped(self) -> None:
        """Count each skipped state as reordered (its events came, before or after the newer
        state) or lost (neither its state nor its events reached the seat)."""
        for skipped, evented in zip(self.skipped, self.evented, strict=True):
            late = skipped & evented
            self.stats.reordered += len(late)
            self.stats.lost += len(skipped - late)

    def _arrived(self, index: int, state_id: int) -> None:
        """Count seat `index` as holding every move answered before `state_id`; a move is
        done when all seats hold its result (the actor may already have sent the next one)."""
        for base in [b for b in self.in_flight if b < state_id]:
            sent_at, holders = self.in_flight[base]
            holders.add(index)
            if len(holders) == len(self.socks):
                del self.in_flight[base]
                if self.stats.measuring:
                    self.stats.moves += 1
                    self.stats.latencies.append(time.monotonic() - sent_at)


# --------------------------------------------------------------------------------- bare mode


class BareRoom:
    """One room of the bare broadcast app: its seats take turns, a round per message."""

    def __init__(self, spec: dict[str, Any], stats: Stats) -> None:
        self.spec = spec
        self.stats = stats
        self.socks: list[Any] = []
        self.round = 0
        self.got: set[int] = set()
        self.sent_at = 0.0
        self.idle = True  # no round on its way: the next window sends one
        self.kicked: asyncio.Task[None] | None = None

    async def open(self) -> None:
        for seat in self.spec["seats"]:
            url = f"{seat['ws']}/room/{self.spec['table']}/"
            self.socks.append(await _connect(url, {"Origin": seat["origin"]}, self.stats))

    async def read(self) -> None:
        await asyncio.gather(*(self._read(i) for i in range(len(self.socks))))

    def kick(self) -> None:
        if self.idle:
            self.idle = False
            self.kicked = asyncio.create_task(self._send())

    def settled(self) -> bool:
        return self.idle

    async def _send(self) -> None:
        self.sent_at = time.monotonic()
        self.got = set()
        sender = self.socks[self.round % len(self.socks)]
        try:
            await sender.send(json.dumps({"round": self.round, "text": "x" * 40}))
        except websockets.ConnectionClosed:
            self.stats.errors["socket_closed"] += 1

    async def _read(self, index: int) -> None:
        last = -1
        async for frame in _frames(self.socks[index], self.stats):
            number = frame["round"]
            if number == last:
                self.stats.duplicates += 1
            elif number > last + 1 and last >= 0:
                self.stats.lost += number - last - 1
            last = number
            if number != self.round:
                continue
            self.got.add(index)
            if len(self.got) == len(self.socks):
                if self.stats.measuring:
                    self.stats.moves += 1
                    self.stats.latencies.append(time.monotonic() - self.sent_at)
                self.round += 1
                if self.stats.playing:
                    await self._send()
                else:
                    self.idle = True


# --------------------------------------------------------------------------------- the run


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _next_line() -> str:
    """Read bench/load.py's next command (PLAY, CLOSE) from stdin."""
    return (await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)).strip()


async def play(
    units: list[Any], stats: Stats, plan: dict[str, Any], warmup: float, seconds: float
) -> dict[str, Any]:
    """Play one window: the warm-up, the measured seconds, then let the moves in flight land."""
    stats.moves, stats.latencies = 0, []
    begin = time.monotonic()
    stats.playing, stats.play_until = True, begin + warmup + seconds
    for index, unit in enumerate(units):
        if isinstance(unit, GameTable) and plan["pace"] > 0:
            # Spread the tables' slots over one pace interval.
            unit.next_slot = begin + plan["pace"] * index / len(units)
        unit.kick()
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_start, wall_start = time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    cpu = time.process_time() - cpu_start
    wall = time.monotonic() - wall_start
    stats.playing = False
    print("WINDOW-END", flush=True)  # bench/load.py stops its CPU count now
    deadline = time.monotonic() + SETTLE_SECONDS
    while not all(unit.settled() for unit in units) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return {
        "seconds": round(wall, 2),
        "moves": stats.moves,
        "rate": stats.moves / wall,
        "p50_ms": _percentile(stats.latencies, 0.50) * 1000,
        "p95_ms": _percentile(stats.latencies, 0.95) * 1000,
        "p99_ms": _percentile(stats.latencies, 0.99) * 1000,
        "client_cpu": cpu / wall,
        "unsettled": sum(not unit.settled() for unit in units),
        # Raw latencies (ms) when asked: bench/load.py merges several client processes.
        **(
            {"latencies_ms": [round(x * 1000, 2) for x in stats.latencies]}
            if plan.get("raw")
            else {}
        ),
    }


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    """Open every socket, play the windows bench/load.py asks for, close, report the counts."""
    stats = Stats()
    rng = random.Random(plan.get("seed", 1))
    if plan["mode"] == "game":
        units: list[Any] = [GameTable(spec, plan, stats, rng) for spec in plan["tables"]]
    else:
        units = [BareRoom(spec, stats) for spec in plan["tables"]]
    started = time.monotonic()
    step = max(1, CONNECT_BATCH // 4)
    for first in range(0, len(units), step):
        await asyncio.gather(*(u.open() for u in units[first : first + step]))
    connect_seconds = time.monotonic() - started
    readers = [asyncio.create_task(unit.read()) for unit in units]
    print("READY", flush=True)
    while (line := await _next_line()).startswith("PLAY "):
        warmup, seconds = (float(x) for x in line.split()[1:3])
        print(json.dumps(await play(units, stats, plan, warmup, seconds)), flush=True)
    if line != "CLOSE":
        raise SystemExit(f"expected PLAY or CLOSE on stdin, got {line!r}")
    stats.closing = True
    for unit in units:
        if isinstance(unit, GameTable):
            unit.count_skipped()
    # Close every socket at once: one after the other took a close handshake each.
    await asyncio.gather(
        *(sock.close() for unit in units for sock in unit.socks), return_exceptions=True
    )
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    with open("/proc/loadavg") as loadavg:
        load = loadavg.read().split()[0]
    return {
        "mode": plan["mode"],
        "loadavg": float(load),
        "clients": sum(len(u.socks) for u in units),
        "tables": len(units),
        "connect_seconds": round(connect_seconds, 1),
        "errors": dict(stats.errors),
        "lost": stats.lost,
        "reordered": stats.reordered,
        "older": stats.older,
        "duplicates": stats.duplicates,
        "finished_tables": stats.finished_tables,
        "frames": stats.frames,
        "connect_retries": stats.connect_retries,
    }


def main() -> None:
    plan = json.loads(sys.stdin.readline())
    # uvloop's event loop: the client's own CPU is taken from the servers it measures.
    result = uvloop.run(run(plan))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
