"""Catch-up from the stored log: "since state N" gets every missed event, once, in the asker's view.

A page away for 100 moves (a reconnect with `?since=N`, or a `since` frame on an open socket)
receives the events of every state after N, in order, once each, as its seat may see them (no
other seat's drawn cards: each is compared with the engine's own filter of the stored event),
then the current state. A bad "since" gets `bad_since` and the socket stays open. A socket that
skipped states fills the gap from the log before the newer state.
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from pytest_django.fixtures import Settings

from games import driver, outbox
from games.announce import visible_event
from games.broadcast import table_group
from games.catch_up import HISTORY_ACTIONS, MAX_STATES, frames_since, history_frames
from games.engine import Game
from games.models import Table, TableEvent
from games.outbox import Sent
from games.services import SeatSpec, table_act, table_create, table_step
from tests.conftest import ClassWorld
from tests.games.helpers import receive_until, session_cookie, socket
from tests.support.outbox import table_updates
from unoclass.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

AWAY_MOVES = 100


@pytest.fixture(autouse=True)
def _no_server_moves(settings: Settings) -> Iterator[None]:
    # The test makes every move itself: nothing the sockets plan may move the table.
    settings.GAMES_BOT_DELAY = 3600
    settings.GAMES_ROUND_PAUSE = 3600
    yield
    driver.cancel_all()


@pytest.fixture
def world(class_a: ClassWorld) -> SimpleNamespace:
    """Two students of class A and a student-like robot that pays for its wrong tries."""
    students = [class_a.student.user, class_a.other_student.user]
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="Anaïs", user_id=students[0].pk),
            SeatSpec(name="Basile", user_id=students[1].pk),
            # Errs often: its penalised wrong tries are stored with its move, in one commit.
            SeatSpec(name="Robot 1", bot="student", bot_profile={"M1": 0.3, "M2": 0.3, "M3": 0.3}),
        ],
        options={"target_score": 100_000, "wrong_attempt_penalty": 1},
        seed=11,
    )
    return SimpleNamespace(table=table, students=students, teacher=class_a.teacher)


def _choose(game: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = game.legal_actions(seat)
    for kind in ("play", "accept", "draw", "pass", "next_round"):
        found = [a for a in legal if a["type"] == kind]
        if found:
            return dict(rng.choice(found))
    return dict(legal[0])


def _play(table_id: int, students: list[Any], moves: int) -> int:
    """Make `moves` committed changes (students through table_act, the robot and the next
    round through table_step); return the state number reached."""
    rng = random.Random(5)
    table = Table.objects.get(pk=table_id)
    goal = table.state_id + moves
    while table.state_id < goal:
        game = Game.from_dict(table.state)
        acting = game.view(None)["acting"]
        before = table.state_id
        if acting in (0, 1):
            action = _choose(game, acting, rng)
            table_act(
                table_id=table_id, user=students[acting], action=action, state_id=table.state_id
            )
        else:
            table_step(table_id=table_id, state_id=table.state_id)
        table = Table.objects.get(pk=table_id)
        assert table.state_id == before + 1, f"no move made at state {before}"
    return goal


def _expected(
    table_id: int, seat: int | None, since: int
) -> list[tuple[int | None, dict[str, Any]]]:
    rows = TableEvent.objects.filter(table_id=table_id, state_id__gt=since).order_by("seq")
    return [(row.state_id, visible_event(e, seat)) for row in rows for e in row.result]


def _others_drawn_cards(table_id: int, seat: int, since: int) -> set[str]:
    rows = TableEvent.objects.filter(table_id=table_id, state_id__gt=since)
    return {
        card
        for row in rows
        for e in row.result
        if e.get("type") == "drew" and e.get("seat") != seat
        for card in e.get("cards", [])
    }


async def _frames_until_state(comm: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == "state":
            return events, frame
        assert frame["type"] == "event", frame
        events.append(frame)


@pytest.mark.parametrize("viewer", ["seat 0", "seat 1", "teacher"])
async def test_a_page_away_for_100_moves_gets_every_missed_event_once_in_order(
    world: Any, viewer: str
) -> None:
    table_id = world.table.pk
    user = {"seat 0": world.students[0], "seat 1": world.students[1], "teacher": world.teacher}
    seat = {"seat 0": 0, "seat 1": 1, "teacher": None}[viewer]
    first = await socket(table_id, user[viewer])
    await first.connect()
    since = (await receive_until(first, "state"))["state_id"]
    await first.disconnect()  # the page goes away

    reached = await database_sync_to_async(_play)(table_id, world.students, AWAY_MOVES)

    back = await socket(table_id, user[viewer], path=f"/ws/table/{table_id}/?since={since}")
    connected, _ = await back.connect()
    assert connected
    events, state = await _frames_until_state(back)
    expected = await database_sync_to_async(_expected)(table_id, seat, since)
    got = [(frame["state_id"], frame["event"]) for frame in events]
    assert got == expected  # every stored event, in order, once, in this viewer's view
    assert sorted({state_id for state_id, _event in got}) == list(range(since + 1, reached + 1))
    assert not any(frame.get("replay") for frame in events)
    assert state["state_id"] == reached
    stored = await database_sync_to_async(Table.objects.get)(pk=table_id)
    assert state["view"] == Game.from_dict(stored.state).view(seat)
    # Nothing more: the live updates of those states are not sent again.
    assert await back.receive_nothing(timeout=0.2)
    # Another seat's drawn cards were drawn meanwhile, and none reached this viewer.
    hidden = await database_sync_to_async(_others_drawn_cards)(
        table_id, -1 if seat is None else seat, since
    )
    assert hidden
    for frame in events:
        event = frame["event"]
        if event["type"] in ("drew", "challenged") and event.get("seat") != seat:
            assert "cards" not in event, frame
    await back.disconnect()


async def test_a_since_frame_on_an_open_socket_replays_the_log_then_play_goes_on(
    world: Any,
) -> None:
    table_id = world.table.pk
    comm = await socket(table_id, world.students[1])
    await comm.connect()
    since = (await receive_until(comm, "state"))["state_id"]
    # Moves the socket hears live, then asks for again as if it had missed them.
    reached = await database_sync_to_async(_play)(table_id, world.students, 12)
    while (await receive_until(comm, "state"))["state_id"] < reached:
        pass
    await comm.send_to(text_data=json.dumps({"type": "since", "state_id": since}))
    events, state = await _frames_until_state(comm)
    expected = await database_sync_to_async(_expected)(table_id, 1, since)
    assert [(f["state_id"], f["event"]) for f in events] == expected
    assert state["state_id"] == reached
    await comm.send_to(text_data=json.dumps({"type": "since", "state_id": reached}))
    events, state = await _frames_until_state(comm)
    assert events == [] and state["state_id"] == reached
    await comm.disconnect()


BAD_SINCE = [
    '{"type": "since", "state_id": -1}',
    '{"type": "since", "state_id": 999999}',
    '{"type": "since", "state_id": 100000000000000000000000000000000000000}',
    '{"type": "since", "state_id": "3"}',
    '{"type": "since", "state_id": 1.5}',
    '{"type": "since", "state_id": 0.0}',
    '{"type": "since", "state_id": NaN}',
    '{"type": "since", "state_id": Infinity}',
    '{"type": "since", "state_id": null}',
    '{"type": "since", "state_id": true}',
    '{"type": "since", "state_id": [0]}',
    '{"type": "since"}',
]


@pytest.mark.parametrize("text", BAD_SINCE)
async def test_a_bad_since_gets_a_clear_error_and_the_socket_stays_open(
    world: Any, text: str
) -> None:
    comm = await socket(world.table.pk, world.students[0])
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(text_data=text)
    error = json.loads(await comm.receive_from())
    assert error["type"] == "error"
    # An unreadable frame (NaN is not JSON) is `bad_json`; any readable bad value `bad_since`.
    assert error["code"] in ("bad_since", "bad_json"), error
    if "NaN" not in text and "Infinity" not in text:
        assert error["code"] == "bad_since"
        assert "since" in error["message"]
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_until(comm, "state"))["state_id"] == 0
    await comm.disconnect()


@pytest.mark.parametrize("query", ["since=abc", "since=-1", "since=999999", "since=", "since=1e3"])
async def test_a_bad_since_on_connect_gets_an_error_then_the_usual_opening(
    world: Any, query: str
) -> None:
    comm = await socket(
        world.table.pk, world.students[0], path=f"/ws/table/{world.table.pk}/?{query}"
    )
    connected, _ = await comm.connect()
    assert connected
    error = json.loads(await comm.receive_from())
    assert error["type"] == "error" and error["code"] == "bad_since"
    assert (await receive_until(comm, "state"))["state_id"] == 0
    await comm.disconnect()


async def test_the_error_says_so_in_french(world: Any) -> None:
    cookie = await database_sync_to_async(session_cookie)(world.students[0])
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", cookie.replace(b"django_language=en", b"django_language=fr")),
    ]
    comm = WebsocketCommunicator(application, f"/ws/table/{world.table.pk}/", headers=headers)
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(text_data='{"type": "since", "state_id": -4}')
    error = await receive_until(comm, "error")
    assert error["code"] == "bad_since"
    assert "numéro" in error["message"], error["message"]
    await comm.disconnect()


async def test_a_socket_that_skipped_states_gets_their_events_from_the_log_first(
    world: Any,
) -> None:
    """Updates lost in the layer (or published out of order by two processes): the socket
    sends the events of the states it skipped, from the log, then the newer state."""
    table_id = world.table.pk
    comm = await socket(table_id, world.students[0])
    await comm.connect()
    await receive_until(comm, "state")
    sent: list[Sent] = []

    def play_unpublished() -> int:
        with outbox.captured() as captured:  # committed, never published
            reached = _play(table_id, world.students, 3)
        sent.extend(captured)
        return reached

    reached = await database_sync_to_async(play_unpublished)()
    updates = table_updates(sent)
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(table_group(table_id), updates[-1])  # only the last one arrives
    events, state = await _frames_until_state(comm)
    assert state["state_id"] == reached and state["events"]
    logged = [(f["state_id"], f["event"]) for f in events] + [
        (reached, item["event"]) for item in state["events"]
    ]
    assert logged == await database_sync_to_async(_expected)(table_id, 0, 0)
    for update in updates[:-1]:  # the lost ones come after all: nothing is sent twice
        await layer.group_send(table_group(table_id), update)
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect()


def test_catch_up_reads_at_most_max_states_back(world: Any) -> None:
    reached = _play(world.table.pk, world.students, 5)
    found = frames_since(table_id=world.table.pk, seat=0, since=0, lang="en")
    assert found.state_id == reached
    assert {f["state_id"] for f in found.frames[:-1]} == set(range(1, reached + 1))
    assert MAX_STATES >= 1000  # a page away for a whole lesson still gets every move


def test_catch_up_from_a_played_state_sends_only_the_states_after_it(world: Any) -> None:
    reached = _play(world.table.pk, world.students, 5)
    since = reached - 2  # a state some action led to: the client has its events already
    found = frames_since(table_id=world.table.pk, seat=0, since=since, lang="en")
    got = [(frame["state_id"], frame["event"]) for frame in found.frames[:-1]]
    assert got == _expected(world.table.pk, 0, since)
    assert {state_id for state_id, _event in got} == {reached - 1, reached}


def test_a_page_opened_afresh_gets_the_last_actions_oldest_first(world: Any) -> None:
    _play(world.table.pk, world.students, HISTORY_ACTIONS + 4)
    frames, _table = history_frames(table_id=world.table.pk, seat=0, lang="en")
    seqs = list(
        TableEvent.objects.filter(table=world.table).order_by("seq").values_list("seq", flat=True)
    )
    assert sorted({frame["seq"] for frame in frames}) == seqs[-HISTORY_ACTIONS:]
    assert [frame["seq"] for frame in frames] == sorted(frame["seq"] for frame in frames)
    assert all(frame["replay"] for frame in frames)


def test_each_stored_action_knows_the_state_it_led_to(world: Any) -> None:
    reached = _play(world.table.pk, world.students, AWAY_MOVES)
    rows = list(TableEvent.objects.filter(table=world.table).order_by("seq"))
    state_ids = [r.state_id for r in rows if r.state_id is not None]
    assert len(state_ids) == len(rows) and state_ids == sorted(state_ids)
    assert {r.state_id for r in rows} == set(range(1, reached + 1))
    # Some commits stored two actions (the robot's penalised wrong try, then its move): the
    # 100 moves replayed above include them, under one state number.
    assert len(rows) > reached


def test_the_migration_numbers_old_rows_by_their_commits() -> None:
    migration = importlib.import_module("games.migrations.0003_tableevent_state_id")

    def row(actor: str, seat: int, first: str) -> SimpleNamespace:
        return SimpleNamespace(actor=actor, seat=seat, result=[{"type": first}])

    rows = [
        row("player", 1, "played"),
        row("bot", 2, "wrong_attempt"),  # a penalised wrong try, then the move: one commit
        row("bot", 2, "played"),
        row("timer", 0, "drew"),
        row("bot", 2, "wrong_attempt"),  # its own commit: the next row is another seat's
        row("player", 0, "played"),
    ]
    assert migration._commits(rows) == [1, 2, 2, 3, 4, 5]


async def test_a_table_whose_publish_failed_is_told_to_catch_up_from_the_log(world: Any) -> None:
    """The layer watch's repair for a failed publish (games.realtime.layer_watch.REPAIR): each
    socket of the table checks its seat and sends what it missed, from the log."""
    from games.realtime.layer_watch import REPAIR

    table_id = world.table.pk
    comm = await socket(table_id, world.teacher)
    await comm.connect()
    await receive_until(comm, "state")

    def play_unpublished() -> int:
        with outbox.captured():  # committed; the publish "failed"
            return _play(table_id, world.students, 2)

    reached = await database_sync_to_async(play_unpublished)()
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(table_group(table_id), dict(REPAIR))
    events, state = await _frames_until_state(comm)
    assert [(f["state_id"], f["event"]) for f in events] == await database_sync_to_async(_expected)(
        table_id, None, 0
    )
    assert state["state_id"] == reached and state["view"]["hand"] == []
    await comm.disconnect()


def test_the_migration_fills_the_state_numbers_of_older_rows(world: Any) -> None:
    from django.apps import apps

    migration = importlib.import_module("games.migrations.0003_tableevent_state_id")
    reached = _play(world.table.pk, world.students, AWAY_MOVES)
    stored = list(TableEvent.objects.filter(table=world.table).values_list("seq", "state_id"))
    assert len(stored) > reached  # with commits of two actions (the robot's wrong try)
    TableEvent.objects.filter(table=world.table).update(state_id=None)
    # A table whose actions cannot be told apart by commit keeps None (never wrong numbers).
    odd = table_create(ruleset="classic", seats=[SeatSpec(name="A"), SeatSpec(name="B")], seed=1)
    TableEvent.objects.create(table=odd, seq=1, seat=0, actor="player", action={}, result=[])

    migration.number_rows(apps, None)

    assert list(TableEvent.objects.filter(table=world.table).values_list("seq", "state_id")) == (
        stored
    )
    assert TableEvent.objects.get(table=odd).state_id is None


async def test_a_since_from_a_signed_out_session_closes_without_the_log(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is checked like a sync: a session signed out meanwhile gets 4401, no event."""
    from django.contrib.sessions.models import Session

    from games.realtime import link as consumer

    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    table_id = world.table.pk
    comm = await socket(table_id, world.students[0])
    await comm.connect()
    await receive_until(comm, "state")
    await database_sync_to_async(_play)(table_id, world.students, 3)
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    now[0] += consumer.SIGNIN_CHECK_SECONDS + 0.1
    await comm.send_to(text_data=json.dumps({"type": "since", "state_id": 0}))
    while True:
        output = await comm.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        assert json.loads(output["text"])["type"] == "state"  # live moves only, no replay
    assert output["code"] == 4401
