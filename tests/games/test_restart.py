"""A game survives its server: kill daphne mid-game, start it again, play on."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from tests.support.live import LiveApp, seed_table

pytestmark = pytest.mark.slow

SETUP = {
    "dealer": 0,
    "hands": [["2/6r", "5/6v", "1/2b", "joker", "4/6j"], ["4/12j", "2/3r", "10/12v", "1/6b"]],
    "start": "1/3v",
}


async def _open(server: Any, table: int, session: str) -> Any:
    return await websockets.connect(
        f"{server.ws}/ws/table/{table}/",
        additional_headers={"Cookie": f"sessionid={session}", "Origin": server.http},
    )


async def _next(sock: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(sock.recv(), timeout=10))
        if frame["type"] == kind:
            return frame


async def _play(sock: Any, action: dict[str, Any], state_id: int) -> dict[str, Any]:
    await sock.send(json.dumps({"type": "action", "action": action, "state_id": state_id}))
    return await _next(sock, "state")


def test_game_resumes_after_a_crash() -> None:
    app = LiveApp()
    try:
        app.migrate()
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP)
        server = app.start()

        async def scenario() -> None:
            table, sessions = ids["table"], ids["sessions"]
            hugo = await _open(server, table, sessions[1])
            state = await _next(hugo, "state")
            state = await _play(hugo, {"type": "play", "card": "4/12j"}, state["state_id"])
            lea = await _open(server, table, sessions[0])
            before = await _next(lea, "state")
            assert before["state_id"] == 1 and before["view"]["top"] == "4/12j"
            server.restart()  # SIGKILL, then a new process on the same port
            for sock in (lea, hugo):
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(sock.recv(), timeout=10)
            lea = await _open(server, table, sessions[0])
            after = await _next(lea, "state")
            assert after["state_id"] == before["state_id"]
            assert after["view"] == before["view"]
            state = await _play(lea, {"type": "play", "card": "2/6r"}, after["state_id"])
            assert state["state_id"] == 2 and state["view"]["top"] == "2/6r"
            await lea.close()

        asyncio.run(scenario())
        replayed = app.script(
            "import json\nfrom games.models import Table\nfrom games.services import table_replay\n"
            f"t = Table.objects.get(pk={ids['table']})\n"
            "print(json.dumps(table_replay(t).to_dict() == t.state))"
        )
        assert replayed is True
    finally:
        app.close()
