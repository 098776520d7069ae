"""A player who vanishes inside a +4 challenge window or an UNO window never freezes the table:
the turn timer answers for them, and the teacher can always hand the seat to a bot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.scale.client import SeatClient, Table
from tests.e2e.scale.deployment import check_audit
from tests.support.live import LiveApp, seed_table

pytestmark = pytest.mark.slow

# Hugo (seat 1) starts: +4 opens Léa's challenge window; 4/12 then leaves him one card and an
# UNO window open while it is Léa's turn.
SETUP = {
    "dealer": 0,
    "hands": [["2/6r", "5/6v", "1/2b", "joker"], ["+04", "4/12j", "2/3r"]],
    "start": "1/3v",
}
EVENTS = """
import json
from games.models import Table
t = Table.objects.get(pk=TABLE)
print(json.dumps([[e.seat, e.actor, e.action["type"]] for e in t.events.order_by("seq")]))
"""
AUDIT = """
import json
from games.models import Table
from games.services import table_replay
t = Table.objects.get(pk=TABLE)
print(json.dumps({"moves": t.moves, "status": t.status, "replay_matches":
    table_replay(t).to_dict() == t.state, "seqs": [e.seq for e in t.events.order_by("seq")]}))
"""
TAKEOVER = """
import json
from games.services import seat_set_takeover
seat_set_takeover(table_id=TABLE, seat_index=0, by_bot=True)
print(json.dumps(True))
"""


def _events(app: LiveApp, table: int) -> list[list[Any]]:
    return app.script(EVENTS.replace("TABLE", str(table)))  # type: ignore[no-any-return]


async def _state_where(client: SeatClient, test: Any, seconds: float = 20) -> dict[str, Any]:
    """Read state frames until one satisfies `test`."""
    while True:
        frame = await client.next_state(timeout=seconds)
        if test(frame["view"]):
            return frame


def test_turn_timer_answers_for_a_player_gone_in_a_challenge_then_an_uno_window() -> None:
    app = LiveApp()
    try:
        app.migrate()
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP, table_settings={"turn_timer": 1})
        server = app.start()
        table = ids["table"]

        async def scenario() -> None:
            lea, hugo = (SeatClient(server.ws, table, s, server.http) for s in ids["sessions"])
            for client in (lea, hugo):
                await client.connect()
                await client.next_state()
            await hugo.act({"type": "play", "card": "+04"})
            await _state_where(lea, lambda v: (v["awaiting"] or {}).get("kind") == "challenge")
            await lea.close()  # Léa's tablet goes to sleep inside her challenge window
            after = await _state_where(hugo, lambda v: v["turn"] == 1)
            assert after["view"]["hand_sizes"] == [6, 2]  # the timer accepted: Léa drew 2
            await hugo.act({"type": "play", "card": "4/12j"})
            await _state_where(hugo, lambda v: v["uno_window"] == 1 and v["turn"] == 0)
            # Léa is still away on her turn, inside Hugo's UNO window: the timer plays for her.
            await _state_where(hugo, lambda v: v["turn"] == 1)
            await hugo.close()

        asyncio.run(scenario())
        # (Hugo's own timer may have run on once he left too.)
        assert _events(app, table)[:5] == [
            [1, "player", "play"],
            [0, "timer", "accept"],
            [1, "player", "play"],
            [0, "timer", "draw"],
            [0, "timer", "pass"],
        ]
    finally:
        app.close()


def test_teacher_hands_an_absent_seat_to_a_bot_and_the_game_finishes() -> None:
    app = LiveApp()
    try:
        app.migrate()
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP)  # no turn timer
        server = app.start()
        table = ids["table"]

        async def scenario() -> Table:
            lea, hugo = (SeatClient(server.ws, table, s, server.http) for s in ids["sessions"])
            for client in (lea, hugo):
                await client.connect()
                await client.next_state()
            await hugo.act({"type": "play", "card": "+04"})
            await _state_where(lea, lambda v: (v["awaiting"] or {}).get("kind") == "challenge")
            await lea.close()
            await asyncio.to_thread(app.script, TAKEOVER.replace("TABLE", str(table)))
            # The teacher's page reloads after the takeover and watches the table.
            teacher = SeatClient(server.ws, table, ids["teacher_session"], server.http)
            await teacher.connect()
            watched = await teacher.next_state()
            assert watched["view"]["seat"] is None and watched["view"]["hand"] == []
            game = Table([hugo])
            await game.play(max_moves=300, seconds=120)
            assert game.over
            await teacher.close()
            await hugo.close()
            return game

        asyncio.run(scenario())
        events = _events(app, table)
        assert events[1] == [0, "bot", "accept"] or events[1] == [0, "bot", "challenge"]
        assert {actor for seat, actor, _kind in events if seat == 0} == {"bot"}
        found = app.script(AUDIT.replace("TABLE", str(table)))
        assert found["status"] == "finished"
        check_audit(found)
    finally:
        app.close()
