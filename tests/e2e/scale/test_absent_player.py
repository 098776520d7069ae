"""A player who vanishes inside a +4 challenge window or an UNO window never freezes the table:
the turn timer answers for them, and the teacher can always hand the seat to a bot.

No test races a short real timer against its clients (a busy machine loses that race): the
scenario drives the timer's clock itself, and the real timer runs only where nobody plays."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.scale.client import SeatClient, Table
from tests.e2e.scale.deployment import check_audit, migrate
from tests.support.live import LiveApp, seed_table
from tests.support.servers import RedisServer

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
# The test's clock: run the server's step for the state as if its turn deadline had passed
# (games.services.table_step takes the time), instead of racing a real timer against the
# clients. The step broadcasts through Redis to the daphne process, as a timer there would.
TIME_RUNS_OUT = """
import json
from datetime import timedelta
from games.models import Table
from games.services import table_step
t = Table.objects.get(pk=TABLE)
if t.state_id != STATE or t.deadline is None:
    print(json.dumps(f"table at state {t.state_id}, deadline {t.deadline}"))
else:
    done = table_step(table_id=t.pk, state_id=t.state_id, now=t.deadline + timedelta(seconds=1))
    print(json.dumps(done is not None))
"""
# Longer than any test: the server's own timer never fires while the test drives the clock.
NEVER = 600


def _events(app: LiveApp, table: int) -> list[list[Any]]:
    return app.script(EVENTS.replace("TABLE", str(table)))  # type: ignore[no-any-return]


async def _time_runs_out(app: LiveApp, table: int, state_id: int) -> None:
    """Let the turn timer of `state_id` expire now (the test's clock)."""
    code = TIME_RUNS_OUT.replace("TABLE", str(table)).replace("STATE", str(state_id))
    applied = await asyncio.to_thread(app.script, code)
    assert applied is True, f"the timer did not act on state {state_id}: {applied}"


def _challenge_open(view: dict[str, Any]) -> bool:
    return bool((view["awaiting"] or {}).get("kind") == "challenge")


def test_turn_timer_answers_for_a_player_gone_in_a_challenge_then_an_uno_window(
    redis_server: RedisServer,
) -> None:
    app = LiveApp({"REDIS_URL": redis_server.url})
    try:
        migrate(app)
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP, table_settings={"turn_timer": NEVER})
        server = app.start()
        table = ids["table"]

        async def scenario() -> None:
            lea, hugo = (SeatClient(server.ws, table, s, server.http) for s in ids["sessions"])
            for client in (lea, hugo):
                await client.connect()
                await client.next_state()
            await hugo.act({"type": "play", "card": "+04"})
            window = await lea.next_state_where(_challenge_open, 20, "Léa's challenge window")
            await lea.close()  # Léa's tablet goes to sleep inside her challenge window
            await _time_runs_out(app, table, window["state_id"])
            after = await hugo.next_state_where(
                lambda v: v["turn"] == 1, 20, "Hugo's turn once the timer answered for Léa"
            )
            assert after["view"]["hand_sizes"] == [6, 2]  # the timer accepted: Léa drew 2
            await hugo.act({"type": "play", "card": "4/12j"})
            uno = await hugo.next_state_where(
                lambda v: v["uno_window"] == 1 and v["turn"] == 0, 20, "Hugo's UNO window"
            )
            # Léa is still away on her turn, inside Hugo's UNO window: the timer plays for her,
            # a draw then a pass (each at the end of its own turn time).
            await _time_runs_out(app, table, uno["state_id"])
            drawn = await hugo.next_state_where(
                lambda v: v["turn"] == 0 and v["hand_sizes"] == [7, 1], 20, "the draw for Léa"
            )
            await _time_runs_out(app, table, drawn["state_id"])
            await hugo.next_state_where(
                lambda v: v["turn"] == 1, 20, "Hugo's turn once the timer passed for Léa"
            )
            await hugo.close()

        asyncio.run(scenario())
        assert _events(app, table)[:5] == [
            [1, "player", "play"],
            [0, "timer", "accept"],
            [1, "player", "play"],
            [0, "timer", "draw"],
            [0, "timer", "pass"],
        ]
    finally:
        app.close()


def test_the_servers_own_timer_plays_for_a_seat_nobody_answers() -> None:
    """The real timer (in daphne, from the deadline): nobody plays, so nothing races it."""
    app = LiveApp()
    try:
        migrate(app)
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP, table_settings={"turn_timer": 1})
        server = app.start()
        table = ids["table"]

        async def scenario() -> None:
            # Only the teacher watches; a connecting socket plans the table's due step.
            teacher = SeatClient(server.ws, table, ids["teacher_session"], server.http)
            await teacher.connect()
            await teacher.next_state_where(
                lambda v: v["turn"] == 0, 30, "the timer to draw and pass for Hugo"
            )
            await teacher.close()

        asyncio.run(scenario())
        assert _events(app, table)[:2] == [[1, "timer", "draw"], [1, "timer", "pass"]]
    finally:
        app.close()


def test_teacher_hands_an_absent_seat_to_a_bot_and_the_game_finishes() -> None:
    # The bot plays about half of a 130-move game: no pause between its moves (the pause is
    # for children to follow, not what this test checks; the timer's slack still separates them).
    app = LiveApp({"GAMES_BOT_DELAY": "0"})
    try:
        migrate(app)
        ids = seed_table(app, ["Léa", "Hugo"], setup=SETUP)  # no turn timer
        server = app.start()
        table = ids["table"]

        async def scenario() -> Table:
            lea, hugo = (SeatClient(server.ws, table, s, server.http) for s in ids["sessions"])
            for client in (lea, hugo):
                await client.connect()
                await client.next_state()
            await hugo.act({"type": "play", "card": "+04"})
            await lea.next_state_where(_challenge_open, 20, "Léa's challenge window")
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
