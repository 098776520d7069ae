"""Per-message deflate on daphne's sockets (unoclass/ws_deflate.py), over a real daphne.

A client that offers `permessage-deflate` (every browser does) gets it, with the small window
the server asks for; a client that does not offer it, or a server with WEBSOCKET_DEFLATE=0,
talks plain frames. Frames come back whole either way.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from tests.support.live import Daphne, LiveApp

pytestmark = [pytest.mark.slow, pytest.mark.timeout(90)]


async def _hello(ws: str, compression: str | None) -> tuple[str | None, dict[str, Any]]:
    # The page's own origin: scheme, host and port (games/realtime/origins.py).
    origin = ws.replace("ws", "http", 1)
    async with websockets.connect(
        f"{ws}/ws/network-check/",
        origin=Origin(origin),
        compression=compression,
    ) as sock:
        assert sock.response is not None
        extensions = sock.response.headers.get("Sec-WebSocket-Extensions")
        await sock.send(json.dumps({"type": "echo", "n": 5}))
        frames = [json.loads(await asyncio.wait_for(sock.recv(), 10)) for _ in range(2)]
    return extensions, {frame["type"]: frame for frame in frames}


@pytest.fixture(scope="module")
def app() -> Iterator[LiveApp]:
    """Both servers' environment; the check's socket reads no database: none is made."""
    deployment = LiveApp()
    try:
        yield deployment
    finally:
        deployment.close()


def test_daphne_deflates_for_a_client_that_offers_it(app: LiveApp) -> None:
    daphne = app.start()
    extensions, frames = asyncio.run(_hello(daphne.ws, "deflate"))
    assert extensions == "permessage-deflate; client_max_window_bits=9"
    assert frames["echo"] == {"type": "echo", "n": 5} and "hello" in frames
    extensions, frames = asyncio.run(_hello(daphne.ws, None))
    assert extensions is None and frames["echo"]["n"] == 5
    assert "Traceback" not in daphne.log()


def test_websocket_deflate_off_leaves_frames_plain(app: LiveApp) -> None:
    daphne = Daphne({**app.env, "WEBSOCKET_DEFLATE": "0"}, app.dir / "plain.log")
    try:
        extensions, frames = asyncio.run(_hello(daphne.ws, "deflate"))
    finally:
        daphne.kill()
    assert extensions is None and frames["echo"]["n"] == 5
