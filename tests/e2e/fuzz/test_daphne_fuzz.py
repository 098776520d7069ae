"""Hostile frames against a real daphne process, and a flood against its rate limit."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from games.protocol import RATE_BURST, RATE_PER_SECOND
from tests.e2e.fuzz.batches import FUZZ_SEED
from tests.e2e.fuzz.checks import RESYNC_CODES, check_server_frame
from tests.e2e.fuzz.strategies import render, text_frames
from tests.support.live import LiveApp, seed_table
from tests.support.waiting import Deadline

pytestmark = pytest.mark.slow

SETUP = {
    "dealer": 0,
    "hands": [["2/6r", "5/6v", "1/2b", "joker"], ["4/12j", "2/3r", "10/12v", "1/6b"]],
    "start": "1/3v",
}


@pytest.fixture(scope="module")
def live() -> Any:
    app = LiveApp()
    try:
        app.migrate()
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP)
        yield app, app.start(), ids
    finally:
        app.close()


async def _open(server: Any, ids: dict[str, Any], who: int = 1) -> Any:
    return await websockets.connect(
        f"{server.ws}/ws/table/{ids['table']}/",
        additional_headers={"Cookie": f"sessionid={ids['sessions'][who]}", "Origin": server.http},
        max_size=2**22,
    )


async def _recv(sock: Any, timeout: float = 3) -> dict[str, Any] | None:
    try:
        raw = await asyncio.wait_for(sock.recv(), timeout)
    except TimeoutError:
        return None
    return check_server_frame(raw)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def _first_state(sock: Any, timeout: float = 20) -> dict[str, Any] | None:
    """Skip the replayed log a socket gets on connect; return the state that follows it."""
    deadline = Deadline(timeout, "the state after the replayed log")
    frame = await _recv(sock)
    while frame is not None and frame.get("replay"):
        deadline.check(f"last frame: {frame}")
        frame = await _recv(sock)
    return frame


def test_hostile_frames_on_real_daphne(live: Any, fuzz_report: list[str]) -> None:
    app, server, ids = live
    sent = {"frames": 0, "answers": 0}

    async def batch(frames: list[tuple[str, Any]]) -> None:
        sock = await _open(server, ids)
        first = await _first_state(sock)
        assert first is not None and first["type"] == "state"
        for item in frames:
            text, data = render(item, first["state_id"])
            if text is not None and not _encodable(text):
                # A lone surrogate cannot travel in a text frame (the client library refuses
                # to encode it): send its bytes, which the server must refuse as a bad frame.
                data = text.encode("utf-8", "surrogatepass")
                text = None
            await sock.send(text if text is not None else data)
            sent["frames"] += 1
        # Every frame gets one answer: an error, or a state (after its events, or after the
        # error that comes with a fresh state).
        answered = 0
        deadline = Deadline(60, f"an answer to each of {len(frames)} frames")
        while answered < len(frames):
            deadline.check(f"{answered} answered")
            frame = await _recv(sock, timeout=5)
            assert frame is not None, f"{len(frames) - answered} frames got no answer"
            answered += frame["type"] == "state" or (
                frame["type"] == "error" and frame["code"] not in RESYNC_CODES
            )
        sent["answers"] += answered
        await sock.close()

    @seed(FUZZ_SEED)
    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(st.lists(text_frames, min_size=5, max_size=RATE_BURST - 2))
    def run(frames: list[tuple[str, Any]]) -> None:
        asyncio.run(batch(frames))

    async def oversized() -> None:
        sock = await _open(server, ids)
        await _first_state(sock)
        await sock.send("x" * 200_000)
        await sock.send(b"\x00" * 100_000)
        codes = [(await _recv(sock))["code"], (await _recv(sock))["code"]]  # type: ignore[index]
        assert codes == ["too_large", "bad_frame"]
        # Daphne itself drops a socket that sends a frame over its own limit (1 MB).
        # The reset can reach the client while it is still sending: either way it is dropped.
        with pytest.raises((websockets.ConnectionClosed, ConnectionResetError)):
            await sock.send("x" * 2_000_000)
            await _recv(sock, timeout=10)

    run()
    asyncio.run(oversized())
    frames = sent["frames"] + 3
    line = f"daphne fuzz: {frames} frames, seed {FUZZ_SEED} (replay: FUZZ_SEED={FUZZ_SEED})"
    fuzz_report.append(line)
    print(line)
    assert sent["answers"] >= sent["frames"]
    # The server still serves the table, and never printed a stack trace.
    assert server.process.poll() is None
    still = asyncio.run(_still_serves(server, ids))
    assert still["type"] == "state"
    server.kill()
    stderr = server.log()
    assert "Traceback" not in stderr, stderr[-3000:]
    server.start()


async def _still_serves(server: Any, ids: dict[str, Any]) -> dict[str, Any]:
    sock = await _open(server, ids, who=0)
    frame = await _first_state(sock)
    await sock.close()
    assert frame is not None
    return frame


def test_a_flood_is_rate_limited_with_a_clear_error(live: Any) -> None:
    app, server, ids = live

    async def flood() -> tuple[int, int, float]:
        sock = await _open(server, ids)
        await _first_state(sock)
        started = time.monotonic()
        for _ in range(300):
            await sock.send(json.dumps({"type": "sync"}))
        served = limited = 0
        deadline = Deadline(120, "the answers to a flood of 300 frames to stop")
        while (frame := await _recv(sock, timeout=2)) is not None:
            deadline.check(f"{served} served, {limited} limited")
            if frame["type"] == "state":
                served += 1
            else:
                assert frame["code"] == "rate_limited", frame
                assert frame["message"]
                limited += 1
        elapsed = time.monotonic() - started
        await sock.close()
        return served, limited, elapsed

    served, limited, elapsed = asyncio.run(flood())
    assert served + limited == 300
    assert limited > 0
    # At most the burst plus what the steady rate refills while the flood is read.
    assert served <= RATE_BURST + RATE_PER_SECOND * elapsed + 1
