"""The load benchmark's client process: many WebSocket seats, one asyncio loop, loopback only.

Run by bench/load.py (never by the test suite): reads a JSON plan (one line) on stdin, opens
every socket, prints READY, waits for a GO line on stdin (so that several client processes,
each with its share of the tables, start their measured windows together), plays, prints
WINDOW-END, waits for a CLOSE line (so that bench/load.py tells the server's log lines of the
play from those of the closing), closes every socket and prints one JSON result line. Two modes:

- `game`: tables of four seats on unoclass's /ws/table/<id>/; the seat whose move is due picks
  a legal move from its own state frame (tests/e2e/scale/client.py's shadow engine) and sends it,
  either at once (full speed) or at the table's next slot (one move per table every `pace`
  seconds). Latency runs from the send to the moment the last seat of the table holds the
  new state.
- `bare`: rooms of four on the bench's bare broadcast consumer (bench/bare_asgi.py): the seats
  take turns sending a small message that the consumer relays to the room; the next seat sends
  when all four have it (a round).

Every count is bounded: the run stops at `seconds` (the socket readers still waiting are
cancelled then), and each socket's first read has a timeout.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import orjson
import uvloop
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONNECT_BATCH = 50
READ_TIMEOUT = 30.0


class Stats:
    """Counters of one run."""

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
        self.measuring = False


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


async def _until(stop_at: float, readers: list[Coroutine[Any, Any, None]]) -> None:
    """Run a unit's socket readers until they end or `stop_at`, then cancel those still reading.

    The run is bounded as a whole rather than read by read: a timer and a task around each
    read (asyncio.wait_for) cost the client about as much CPU as the frame's parsing, and the
    client shares the machine's cores with the servers it measures.
    """
    tasks = [asyncio.create_task(reader) for reader in readers]
    await asyncio.wait(tasks, timeout=max(0.0, stop_at - time.monotonic()))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


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
        # The moves sent and not yet held by every seat: state answered -> (sent at, holders).
        self.in_flight: dict[int, tuple[float, set[int]]] = {}
        self.next_slot = 0.0
        self.done = False
        # Per seat: the state numbers it skipped, and those whose `event` frames it received.
        self.skipped: list[set[int]] = []
        self.evented: list[set[int]] = []

    async def open(self) -> None:
        """Connect the four seats and read their first state (the server's connect work is
        done when it arrives, so the measured window starts from a steady state)."""
        self.first: list[dict[str, Any]] = []
        for seat in self.spec["seats"]:
            headers = {"Cookie": f"sessionid={seat['session']}", "Origin": seat["origin"]}
            url = f"{seat['ws']}/ws/table/{self.spec['table']}/"
            sock = await _connect(url, headers, self.stats)
            frame = orjson.loads(await asyncio.wait_for(sock.recv(), READ_TIMEOUT))
            self.socks.append(sock)
            self.last.append(frame["state_id"])
            self.first.append(frame)
            self.skipped.append(set())
            self.evented.append(set())

    async def run(self, stop_at: float) -> None:
        await _until(
            stop_at, [self._read(i, stop_at, self.first[i]) for i in range(len(self.socks))]
        )

    async def _read(self, index: int, stop_at: float, first: dict[str, Any]) -> None:
        from tests.e2e.scale.client import choose_action

        sock = self.socks[index]
        after_error = False
        pending: dict[str, Any] | None = first  # the first state, already read in open()
        while time.monotonic() < stop_at and not self.done:
            if pending is not None:
                frame, pending = pending, None
                self.last[index] = -1
            else:
                try:
                    raw = await sock.recv(decode=False)
                except websockets.ConnectionClosed:
                    if time.monotonic() < stop_at:
                        self.stats.errors["socket_closed"] += 1
                    return
                self.stats.frames += 1
                frame = orjson.loads(raw)
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
            if previous >= 0:
                if state_id == previous and not after_error:
                    self.stats.duplicates += 1
                elif state_id > previous + 1:
                    self.skipped[index].update(range(previous + 1, state_id))
                elif state_id < previous:
                    self.stats.older += 1
            after_error = False
            self.last[index] = max(previous, state_id)
            self._arrived(index, state_id)
            view = frame["view"]
            if view.get("winner") is not None:
                if not self.done:
                    self.stats.finished_tables += 1
                self.done = True
                return
            action = choose_action(view, self.rng)
            if action is None or (action["type"] == "next_round" and index != 0):
                # Every seat may start the next round: the first seat alone does, or the three
                # others would be refused as too late (stale_state).
                continue
            if self.plan["pace"] > 0:
                now = time.monotonic()
                if self.next_slot < now:
                    self.next_slot = now
                wait = self.next_slot - now
                self.next_slot += self.plan["pace"]
                if wait > 0:
                    await asyncio.sleep(min(wait, max(0.0, stop_at - now)))
                if time.monotonic() >= stop_at or self.last[index] != state_id:
                    continue
            self.in_flight[state_id] = (time.monotonic(), set())
            try:
                await sock.send(
                    json.dumps({"type": "action", "action": action, "state_id": state_id})
                )
            except websockets.ConnectionClosed:
                self.stats.errors["socket_closed"] += 1
                return

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
        self.next_round = asyncio.Event()

    async def open(self) -> None:
        for seat in self.spec["seats"]:
            url = f"{seat['ws']}/room/{self.spec['table']}/"
            self.socks.append(await _connect(url, {"Origin": seat["origin"]}, self.stats))

    async def run(self, stop_at: float) -> None:
        await self._send()
        await _until(stop_at, [self._read(i, stop_at) for i in range(len(self.socks))])

    async def _send(self) -> None:
        self.sent_at = time.monotonic()
        self.got = set()
        sender = self.socks[self.round % len(self.socks)]
        await sender.send(json.dumps({"round": self.round, "text": "x" * 40}))

    async def _read(self, index: int, stop_at: float) -> None:
        sock = self.socks[index]
        last = -1
        while time.monotonic() < stop_at:
            try:
                raw = await sock.recv(decode=False)
            except websockets.ConnectionClosed:
                if time.monotonic() < stop_at:
                    self.stats.errors["socket_closed"] += 1
                return
            self.stats.frames += 1
            number = orjson.loads(raw)["round"]
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
                if time.monotonic() < stop_at:
                    await self._send()


# --------------------------------------------------------------------------------- the run


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _wait_for(word: str) -> None:
    """Wait for a line from bench/load.py: GO (every client process is connected), CLOSE."""
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if line.strip() != word:
        raise SystemExit(f"expected {word} on stdin, got {line!r}")


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    """Open every socket, play for the warm-up then the measured window, report."""
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
    print("READY", flush=True)
    await _wait_for("GO")  # bench/load.py starts its profiler now, its CPU count after warm-up
    for index, unit in enumerate(units):
        if isinstance(unit, GameTable) and plan["pace"] > 0:
            # Spread the tables' slots over one pace interval.
            unit.next_slot = time.monotonic() + plan["pace"] * index / len(units)
    warmup, seconds = plan["warmup"], plan["seconds"]
    begin = time.monotonic()
    stop_at = begin + warmup + seconds
    tasks = [asyncio.create_task(u.run(stop_at)) for u in units]
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_start, wall_start = time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    cpu = time.process_time() - cpu_start
    wall = time.monotonic() - wall_start
    print("WINDOW-END", flush=True)  # bench/load.py stops its CPU count now
    await asyncio.gather(*tasks, return_exceptions=True)
    for unit in units:
        if isinstance(unit, GameTable):
            unit.count_skipped()
    await _wait_for("CLOSE")
    # Close every socket at once: one after the other took a close handshake each.
    await asyncio.gather(
        *(sock.close() for unit in units for sock in unit.socks), return_exceptions=True
    )
    with open("/proc/loadavg") as loadavg:
        load = loadavg.read().split()[0]
    return {
        "mode": plan["mode"],
        "loadavg": float(load),
        "clients": sum(len(u.socks) for u in units),
        "tables": len(units),
        "connect_seconds": round(connect_seconds, 1),
        "seconds": round(wall, 2),
        "moves": stats.moves,
        "rate": stats.moves / wall,
        "p50_ms": _percentile(stats.latencies, 0.50) * 1000,
        "p95_ms": _percentile(stats.latencies, 0.95) * 1000,
        "p99_ms": _percentile(stats.latencies, 0.99) * 1000,
        "errors": dict(stats.errors),
        "lost": stats.lost,
        "reordered": stats.reordered,
        "older": stats.older,
        "duplicates": stats.duplicates,
        "finished_tables": stats.finished_tables,
        "frames": stats.frames,
        "client_cpu": cpu / wall,
        "connect_retries": stats.connect_retries,
        # Raw latencies (ms) when asked: bench/load.py merges several client processes.
        **(
            {"latencies_ms": [round(x * 1000, 2) for x in stats.latencies]}
            if plan.get("raw")
            else {}
        ),
    }


def main() -> None:
    plan = json.loads(sys.stdin.readline())
    # uvloop's event loop: the client's own CPU is taken from the servers it measures.
    result = uvloop.run(run(plan))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
