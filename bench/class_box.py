"""A class of 32 (8 tables of 4) and the teacher's overview on `unoclass serve` of the wheel.

    .venv/bin/python bench/class_box.py                      # builds the wheel: about 5 minutes
    .venv/bin/python bench/class_box.py --wheel dist/unoclass-0.1.0-py3-none-any.whl
    .venv/bin/python bench/class_box.py --seconds 60 --pace 2

The teacher's laptop of issue 34: the wheel (`make dist`'s build, or `--wheel`) installed into a
fresh virtual environment outside the checkout, `unoclass serve --lan` on 127.0.0.2 with its
own data folder (SQLite in WAL mode, the in-memory channel layer: tests/support/box.py). A class
of 32 joins a class session and is dealt at tables of four through the product's services
(bench/bandwidth.py's seed); the pupils' sockets are bench/load_client.py's game mode, in a
process of their own (the seat whose move is due plays a legal move, one move per table every
`--pace` seconds; latency runs from the send to the moment all four seats hold the new state);
the teacher's overview socket is open all along and asks for a sync every 20 s as overview.js
does. The server's CPU is read from /proc over the measured window (bench/load.py's watch).

Prints the figures and PASS/FAIL: move latency p95 under 100 ms, the server under half a core,
nothing lost (no state missed by a seat, no move left unanswered, no error frame, no socket
closed, the overview updated). Not part of the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.bandwidth import OVERVIEW_SYNC_SECONDS, SEED  # noqa: E402
from bench.load import MemoryWatch, goal, machine  # noqa: E402
from tests.support.box import BoxServe, build_wheel, installed, unoclass  # noqa: E402
from tests.support.live import child_env  # noqa: E402

PUPILS = 32
ADDRESS = "127.0.0.2"
P95_GOAL_MS = 100.0
CPU_GOAL = 0.5


def seed(data: Path) -> dict[str, Any]:
    """Make the class, its session and its tables in the box's database (the checkout's code,
    the box's settings and data folder); return the world bench/bandwidth.py's seed prints."""
    env = child_env(DJANGO_SETTINGS_MODULE="unoclass.settings_box", UNOCLASS_DATA=str(data))
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SEED.replace("PUPILS", str(PUPILS))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def plan(world: dict[str, Any], base: str, pace: float) -> dict[str, Any]:
    """Return bench/load_client.py's plan: each table's four seats on the box."""
    tables: dict[int, list[dict[str, str]]] = {}
    for pupil in world["pupils"]:
        tables.setdefault(pupil["table"], []).append(
            {"ws": "ws" + base.removeprefix("http"), "origin": base, "session": pupil["session"]}
        )
    specs = [{"table": table, "seats": seats} for table, seats in sorted(tables.items())]
    return {"mode": "game", "tables": specs, "pace": pace, "seed": 34, "raw": False}


class Overview(threading.Thread):
    """The teacher's overview socket, in a thread of its own: counts its frames and errors."""

    def __init__(self, base: str, world: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.url = f"ws{base.removeprefix('http')}/ws/session/{world['session']}/"
        self.headers = {"Cookie": f"sessionid={world['teacher']}", "Origin": base}
        self.frames = 0
        self.overviews = 0
        self.errors = 0
        self.closed = False
        self.stopping = threading.Event()

    def run(self) -> None:
        asyncio.run(self._watch())

    async def _watch(self) -> None:
        async with websockets.connect(
            self.url, additional_headers=self.headers, ping_interval=None, max_size=2**22
        ) as sock:
            sync = asyncio.create_task(self._sync(sock))
            try:
                while not self.stopping.is_set():
                    try:
                        raw = await asyncio.wait_for(sock.recv(), 1.0)
                    except TimeoutError:
                        continue
                    frame = json.loads(raw)
                    self.frames += 1
                    self.overviews += frame.get("type") == "overview"
                    self.errors += frame.get("type") == "error"
            except websockets.ConnectionClosed:
                self.closed = True
            finally:
                sync.cancel()

    async def _sync(self, sock: Any) -> None:
        while True:
            await asyncio.sleep(OVERVIEW_SYNC_SECONDS)
            await sock.send('{"type":"sync"}')


def _line(client: subprocess.Popen[str]) -> str:
    assert client.stdout is not None
    line = client.stdout.readline().strip()
    if not line:
        raise RuntimeError("bench/load_client.py ended early")
    return line


def _say(client: subprocess.Popen[str], line: str) -> None:
    assert client.stdin is not None
    client.stdin.write(line + "\n")
    client.stdin.flush()


def play(served: BoxServe, world: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Play the class and watch the overview; return the window's and the run's figures."""
    base = served.teacher_url.rstrip("/")
    overview = Overview(base, world)
    overview.start()
    client = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "load_client.py")],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        _say(client, json.dumps(plan(world, base, args.pace)))
        if _line(client) != "READY":
            raise RuntimeError("bench/load_client.py did not connect its seats")
        watch = MemoryWatch([served.process.pid])
        watch.start()
        _say(client, f"PLAY {args.warmup} {args.seconds}")
        time.sleep(args.warmup)
        watch.restart_cpu()
        overviews_before = overview.overviews
        if _line(client) != "WINDOW-END":
            raise RuntimeError("bench/load_client.py did not end its window")
        watch.stop()
        overview_updates = overview.overviews - overviews_before
        window = json.loads(_line(client))
        _say(client, "CLOSE")
        counts = json.loads(_line(client))
        client.wait(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
        overview.stopping.set()
        overview.join(timeout=10)
    return {
        **window,
        **counts,
        "server_cpu": watch.cpu_share(),
        "server_peak_mb": watch.peak_mb(),
        "machine_idle": watch.machine_idle,
        "overview_updates": overview_updates,
        "overview_errors": overview.errors,
        "overview_closed": overview.closed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="the wheel to install (default: build one)")
    parser.add_argument("--seconds", type=float, default=120.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=10.0, help="play before measuring")
    parser.add_argument(
        "--pace", type=float, default=3.0, help="seconds between two moves of a table"
    )
    args = parser.parse_args()
    print(machine(), flush=True)
    with tempfile.TemporaryDirectory(prefix="unoclass-class-box-") as folder:
        root = Path(folder)
        started = time.monotonic()
        wheel = args.wheel.resolve() if args.wheel else build_wheel(root / "dist")
        bin_dir = installed(wheel, root / "venv")
        print(f"{wheel.name} installed in {time.monotonic() - started:.0f} s", flush=True)
        data = root / "data"
        migrated = unoclass(bin_dir, data, "migrate")
        if migrated.returncode != 0:
            raise RuntimeError(migrated.stderr[-3000:])
        world = seed(data)
        with BoxServe(bin_dir, data, "--lan", "--bind", ADDRESS, "--port", "0") as served:
            result = play(served, world, args)
    tables = len({p["table"] for p in world["pupils"]})
    print(
        f"class of {PUPILS} at {tables} tables and the teacher's overview, one move per table "
        f"every {args.pace:g} s, {result['seconds']:.0f} s measured (load {result['loadavg']})"
    )
    print(
        f"moves {result['moves']} ({result['rate']:.2f}/s)  latency p50 {result['p50_ms']:.1f} ms "
        f"p95 {result['p95_ms']:.1f} ms p99 {result['p99_ms']:.1f} ms"
    )
    print(
        f"server CPU {result['server_cpu']:.2f} core, peak {result['server_peak_mb']} MB; "
        f"idle cores {result['machine_idle']}; overview updates {result['overview_updates']}"
    )
    lost = {
        "lost states": result["lost"],
        "unanswered moves": result["unsettled"],
        "error frames": sum(result["errors"].values()) + result["overview_errors"],
        "overview closed": int(result["overview_closed"]),
        "overview silent": int(result["overview_updates"] == 0),
    }
    print("counts: " + ", ".join(f"{name} {count}" for name, count in lost.items()))
    checks = [
        goal(result["p95_ms"] < P95_GOAL_MS, f"move latency p95 < {P95_GOAL_MS:.0f} ms"),
        goal(result["server_cpu"] < CPU_GOAL, f"server under {CPU_GOAL:g} core"),
        goal(not any(lost.values()) and result["moves"] > 0, "nothing lost"),
    ]
    for line in checks:
        print(line)
    return 0 if all(line.startswith("PASS") for line in checks) else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
