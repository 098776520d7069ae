"""The table socket: every message type, bad input, and what each seat may see."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from pytest_django.fixtures import Settings

from games import driver, outbox
from games.broadcast import table_group
from games.models import Table, TableEvent
from games.outbox import Sent
from games.realtime.frames import TokenBucket
from games.realtime.language import language_of
from games.realtime.signin import still_signed_in
from games.services import table_act
from lessons.models import User
from tests.conftest import ClassWorld
from tests.games.helpers import (
    FRACTIONS_SETUP,
    make_table,
    receive_until,
    refusal_code,
    session_cookie,
    socket,
)
from tests.support.outbox import table_updates
from unoclass.asgi import application

BASE_DIR = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 0.01
    settings.GAMES_ROUND_PAUSE = 0.01
    yield
    driver.cancel_all()


async def _table(users: Sequence[User | None], **kw: Any) -> Table:
    return await database_sync_to_async(make_table)(users, **kw)


async def _state(table_id: int) -> tuple[dict[str, Any], int]:
    table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    return table.state, table.state_id


async def test_connect_sends_the_seat_view(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[1])
    connected, _ = await comm.connect()
    assert connected
    frame = await receive_until(comm, "state")
    assert frame["state_id"] == 0
    assert frame["view"]["seat"] == 1
    assert frame["view"]["hand"] == FRACTIONS_SETUP["hands"][1]
    assert "playable" not in frame  # Uno Fractions never hints
    await comm.disconnect()


async def test_signed_out_socket_is_refused(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    assert await refusal_code(await socket(table.pk, None)) == 4401


async def test_another_table_is_refused(pair: tuple[User, User], class_b: ClassWorld) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    assert await refusal_code(await socket(table.pk, class_b.student.user)) == 4403
    assert await refusal_code(await socket(table.pk + 999, pair[0])) == 4403


async def test_action_is_broadcast_to_every_seat(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    a, b = await socket(table.pk, pair[0]), await socket(table.pk, pair[1])
    await a.connect()
    await b.connect()
    await receive_until(a, "state")
    await receive_until(b, "state")
    await b.send_to(
        text_data=json.dumps(
            {"type": "action", "action": {"type": "play", "card": "4/12j"}, "state_id": 0}
        )
    )
    # One frame: the new state with the events that led to it, each with its sentence.
    state = await receive_until(a, "state")
    assert state["state_id"] == 1 and state["view"]["top"] == "4/12j"
    (played,) = state["events"]
    assert played["event"]["type"] == "played" and played["event"]["card"] == "4/12j"
    assert "4/12" in played["text"]
    assert (await receive_until(b, "state"))["view"]["hand_sizes"] == [4, 3]
    await a.disconnect()
    await b.disconnect()


async def test_sync_resends_the_state(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_until(comm, "state"))["state_id"] == 0
    await comm.disconnect()


BAD_FRAMES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "action", "action": "draw", "state_id": 0}', "bad_action"),
    ('{"type": "action", "action": {"type": "draw"}}', "bad_state_id"),
    ('{"type": "action", "action": {"type": "draw"}, "state_id": 9}', "stale_state"),
    ('{"type": "action", "action": {"type": "draw"}, "state_id": 0}', "not_your_turn"),
    ('{"type": "action", "action": {"type": "play", "card": "9/9z"}, "state_id": 0}', None),
    (json.dumps({"type": "sync", "pad": "x" * 5000}), "too_large"),
    ("[" * 3000 + "]" * 3000, "too_large"),
]


@pytest.mark.parametrize(("text", "code"), BAD_FRAMES)
async def test_bad_frames_get_an_error_and_change_nothing(
    pair: tuple[User, User], text: str, code: str | None
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    before = await _state(table.pk)
    comm = await socket(table.pk, pair[0])  # seat 0: not their turn
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(text_data=text)
    error = await receive_until(comm, "error")
    if code is not None:
        assert error["code"] == code
    assert error["message"]
    assert await _state(table.pk) == before
    await comm.disconnect()


async def test_binary_frames_are_refused(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive_until(comm, "error"))["code"] == "bad_frame"
    await comm.disconnect()


async def test_flood_is_rate_limited(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    for _ in range(40):
        await comm.send_to(text_data='{"type": "dance"}')
    codes = []
    for _ in range(40):
        codes.append((await receive_until(comm, "error"))["code"])
    assert "rate_limited" in codes
    await comm.disconnect()


async def test_wrong_fraction_gets_an_explanation_in_the_user_language(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[1])
    await comm.connect()
    await receive_until(comm, "state")
    await comm.send_to(
        text_data=json.dumps(
            {
                "type": "action",
                "action": {"type": "play", "card": "2/3r", "claim": "equal"},
                "state_id": 0,
            }
        )
    )
    error = await receive_until(comm, "error")
    assert error["code"] == "not_equivalent"
    assert "2/3" in error["details"]["explanation"]
    assert "equal" in error["message"]  # the cookie asks for English
    assert (await receive_until(comm, "state"))["state_id"] == 0
    await comm.disconnect()


async def test_watching_teacher_sees_no_hand_and_cannot_act(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, class_a.teacher)
    connected, _ = await comm.connect()
    assert connected
    frame = await receive_until(comm, "state")
    assert frame["view"]["hand"] == [] and frame["view"]["seat"] is None
    await comm.send_to(
        text_data=json.dumps({"type": "action", "action": {"type": "draw"}, "state_id": 0})
    )
    assert (await receive_until(comm, "error"))["code"] == "not_seated"
    await comm.disconnect()


async def test_bots_play_and_no_frame_leaks_another_hand(pair: tuple[User, User]) -> None:
    """Record every frame sent to the student through a whole game against bots."""
    student = pair[0]
    table = await _table([student, None, None], ruleset="classic")
    comm = await socket(table.pk, student)
    await comm.connect()
    frames = []
    for _ in range(3000):
        frame = json.loads(await comm.receive_from(timeout=5))
        frames.append(frame)
        if frame["type"] != "state":
            continue
        view = frame["view"]
        if view["game_over"] or (view["round_over"] and view["round"] >= 2):
            break
        acting = view["turn"] if view["turn"] is not None else (view["awaiting"] or {}).get("seat")
        if acting == 0:
            from games.engine import Game

            state, state_id = await _state(table.pk)
            if state_id != frame["state_id"]:
                continue
            legal = Game.from_dict(state).legal_actions(0)
            plays = [a for a in legal if a["type"] == "play"]
            action = plays[0] if plays else legal[0]
            await comm.send_to(
                text_data=json.dumps(
                    {"type": "action", "action": action, "state_id": frame["state_id"]}
                )
            )
    shown = [item["event"] for f in frames for item in f.get("events", [])]
    assert any(event["type"] == "round_over" for event in shown)
    # What the student could have seen of the others: only counts, never codes.
    stored = await database_sync_to_async(
        lambda: list(TableEvent.objects.filter(table=table).values_list("result", flat=True))
    )()
    others_cards = {
        card
        for events in stored
        for e in events
        if e.get("type") == "drew" and e["seat"] != 0
        for card in e.get("cards", [])
    }
    for event in shown:
        if event.get("type") == "drew" and event["seat"] != 0:
            assert "cards" not in event
    for frame in frames:
        assert frame["type"] != "event"  # live events come inside their state
        if frame["type"] == "state":
            assert set(frame["view"]).isdisjoint({"hands", "pile", "deck"})
    assert others_cards  # the bots did draw cards the student never saw
    await comm.disconnect()


async def test_a_reconnecting_player_gets_the_recent_log(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    b = await socket(table.pk, pair[1])
    await b.connect()
    await receive_until(b, "state")
    await b.send_to(
        text_data=json.dumps(
            {"type": "action", "action": {"type": "play", "card": "4/12j"}, "state_id": 0}
        )
    )
    await receive_until(b, "state")
    await b.disconnect()
    again = await socket(table.pk, pair[1])
    await again.connect()
    replayed = await receive_until(again, "event")
    assert replayed["replay"] is True and replayed["event"]["card"] == "4/12j"
    assert (await receive_until(again, "state"))["state_id"] == 1
    await again.disconnect()


async def test_a_bot_taking_over_moves_without_any_reconnect(pair: tuple[User, User]) -> None:
    from games.services import seat_set_takeover

    table = await _table(list(pair), setup=FRACTIONS_SETUP)  # seat 1 (pair[1]) is to play
    watcher = await socket(table.pk, pair[0])
    await watcher.connect()
    await receive_until(watcher, "state")
    await database_sync_to_async(seat_set_takeover)(table_id=table.pk, seat_index=1, by_bot=True)
    state = await receive_until(watcher, "state")
    while state["state_id"] == 0:
        state = await receive_until(watcher, "state")
    assert state["state_id"] == 1  # the bot played for the absent student
    await watcher.disconnect()


async def test_a_student_moved_off_the_table_is_disconnected(pair: tuple[User, User]) -> None:
    from games.broadcast import broadcast_table_update
    from games.models import Seat
    from games.players import table_info

    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")

    def move_away() -> None:
        Seat.objects.filter(table=table, index=0).update(user=None, bot="heuristic")
        fresh = Table.objects.get(pk=table.pk)
        broadcast_table_update(fresh.pk, fresh.state_id, fresh.state, [], table_info(table=fresh))

    await database_sync_to_async(move_away)()
    output = await comm.receive_output(timeout=3)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=3)
    assert output["code"] == 4403


# --- The socket toolkit (games.realtime) that both consumers use -------------------------


@pytest.mark.parametrize(
    ("cookies", "accept", "expected"),
    [
        ({"django_language": "en"}, "fr-FR,fr;q=0.9", "en"),  # the cookie wins
        ({"django_language": "fr"}, "en-GB", "fr"),
        ({"django_language": "de"}, "de-DE, en;q=0.5", "en"),  # unknown: the browser's next
        ({}, "EN-us", "en"),
        ({}, "de, it", "fr"),  # nothing known: French
        ({}, None, "fr"),
    ],
)
def test_the_socket_language_is_cookie_then_browser_then_french(
    cookies: dict[str, str], accept: str | None, expected: str
) -> None:
    headers = [] if accept is None else [(b"accept-language", accept.encode("latin-1"))]
    assert language_of({"cookies": cookies, "headers": headers}) == expected


async def _socket_in(
    table_id: int, user: User, cookie_language: str | None, accept: str
) -> WebsocketCommunicator:
    """A table socket whose handshake asks for a language by cookie and/or Accept-Language."""
    cookie = (await database_sync_to_async(session_cookie)(user)).split(b";")[0]
    if cookie_language is not None:
        cookie += f"; django_language={cookie_language}".encode()
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", cookie),
        (b"accept-language", accept.encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)


@pytest.mark.parametrize(
    ("cookie_language", "accept", "message"),
    [
        ("fr", "en", "Type de message inconnu."),
        ("en", "fr", "Unknown message type."),
        (None, "en-GB,en;q=0.8", "Unknown message type."),
        (None, "de", "Type de message inconnu."),
    ],
)
async def test_frame_errors_speak_the_socket_language(
    pair: tuple[User, User], cookie_language: str | None, accept: str, message: str
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await _socket_in(table.pk, pair[0], cookie_language, accept)
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    await comm.send_to(text_data='{"type": "dance"}')
    assert (await receive_until(comm, "error"))["message"] == message
    await comm.send_to(bytes_data=b"\x00")  # a toolkit check, not the table's own
    error = await receive_until(comm, "error")
    assert error["code"] == "bad_frame"
    english = (cookie_language or accept[:2]) == "en"
    assert (error["message"] == "Send JSON text frames only.") == english
    await comm.disconnect()


def test_the_token_bucket_refills_with_time() -> None:
    now = [100.0]
    bucket = TokenBucket(3, 2.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back at 2 per second
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 60  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def _scope_of(user: User) -> tuple[dict[str, Any], str]:
    from django.contrib.sessions.backends.db import SessionStore

    key = session_cookie(user).split(b";")[0].split(b"=", 1)[1].decode()
    return {"user": user, "session": SessionStore(session_key=key)}, key


@pytest.mark.django_db
def test_still_signed_in_follows_the_session_and_the_password(pair: tuple[User, User]) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.models import Session

    user, other = pair
    scope, key = _scope_of(user)
    assert still_signed_in(scope)
    assert not still_signed_in({**scope, "user": other})  # the session is someone else's
    assert not still_signed_in({**scope, "user": AnonymousUser()})
    assert not still_signed_in({"user": user})  # no session at all
    user.set_password("a new password 123")
    user.save()
    assert not still_signed_in(scope)  # a password change signs the old sessions out
    assert Session.objects.filter(session_key=key).exists()  # read-only: nothing flushed
    scope, key = _scope_of(user)
    assert still_signed_in(scope)
    Session.objects.filter(session_key=key).delete()  # a log-out in another tab
    assert not still_signed_in(scope)


@pytest.mark.django_db
def test_still_signed_in_says_no_once_the_account_is_deactivated(pair: tuple[User, User]) -> None:
    """A stream's heartbeat asks this: a lost sign-out message must not keep a link open."""
    user, _other = pair
    scope, _key = _scope_of(user)
    assert still_signed_in(scope)
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    assert not still_signed_in(scope)


# --- Consumers are thin: no views, no one else's private names --------------------------


def _consumer_modules() -> list[Path]:
    """Every consumer module of the app, and the toolkit they share."""
    modules = sorted(BASE_DIR.glob("*/**/consumers.py")) + sorted(BASE_DIR.glob("*/table_seat.py"))
    modules += sorted((BASE_DIR / "games" / "realtime").glob("*.py"))
    return [m for m in modules if ".venv" not in m.parts and "tests" not in m.parts]


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """Every (module, name) the file imports, also inside functions; name None for `import x`."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, alias.name) for alias in node.names]
    return found


def test_the_consumer_modules_are_found() -> None:
    names = {str(p.relative_to(BASE_DIR)) for p in _consumer_modules()}
    assert {"games/consumers.py", "lessons/sessions/consumers.py"} <= names
    assert "games/realtime/consumer.py" in names


@pytest.mark.parametrize("path", _consumer_modules(), ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_a_consumer_imports_no_views_and_no_private_name(path: Path) -> None:
    for module, name in _imports(path):
        parts = module.split(".") + ([name] if name else [])
        assert "views" not in parts, f"{path.name} imports a views module: {module}"
        private = [p for p in parts if p.startswith("_") and not p.startswith("__")]
        assert not private, f"{path.name} imports a private name: {module} {name}"


def _frame_of_bytes(size: int, pad_char: str) -> str:
    """Return a sync frame whose UTF-8 encoding is exactly `size` bytes (pad of `pad_char`)."""
    empty = len(json.dumps({"type": "sync", "pad": ""}).encode())
    per_char = len(pad_char.encode())
    count, rest = divmod(size - empty, per_char)
    frame = json.dumps({"type": "sync", "pad": pad_char * count + "x" * rest}, ensure_ascii=False)
    assert len(frame.encode()) == size
    return frame


async def test_the_size_limit_counts_utf8_bytes_not_characters(pair: tuple[User, User]) -> None:
    # 3,000 "é" are 3,000 characters (under the limit) but 6,000 bytes (over it): a limit that
    # counted characters let them through.
    from games.protocol import MAX_FRAME_BYTES

    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    accents = json.dumps({"type": "sync", "pad": "é" * 3000}, ensure_ascii=False)
    assert len(accents) < MAX_FRAME_BYTES < len(accents.encode())
    await comm.send_to(text_data=accents)
    assert (await receive_until(comm, "error"))["code"] == "too_large"
    # The boundary, in bytes: exactly the limit passes, one byte more does not.
    await comm.send_to(text_data=_frame_of_bytes(MAX_FRAME_BYTES, "é"))
    assert (await receive_until(comm, "state"))["state_id"] == 0
    await comm.send_to(text_data=_frame_of_bytes(MAX_FRAME_BYTES + 1, "é"))
    assert (await receive_until(comm, "error"))["code"] == "too_large"
    await comm.disconnect()


async def test_an_idle_socket_gets_one_burst_not_its_idle_time_in_frames(
    pair: tuple[User, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The socket's clock is ours: an hour of silence passes at once, and no time passes while
    # the frames are sent, so the counts are exact. A bucket without its cap would have saved
    # an hour of tokens (72,000) and let every frame through.
    from functools import partial

    from games.protocol import RATE_BURST, RATE_PER_SECOND
    from games.realtime import link as toolkit

    now = [1000.0]
    monkeypatch.setattr(toolkit, "TokenBucket", partial(TokenBucket, clock=lambda: now[0]))
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    now[0] += 3600
    extra = 15
    for _ in range(RATE_BURST + extra):
        await comm.send_to(text_data='{"type": "dance"}')
    codes = [(await receive_until(comm, "error"))["code"] for _ in range(RATE_BURST + extra)]
    assert codes == ["unknown_type"] * RATE_BURST + ["rate_limited"] * extra
    now[0] += 1 / RATE_PER_SECOND  # one token back
    await comm.send_to(text_data='{"type": "dance"}')
    await comm.send_to(text_data='{"type": "dance"}')
    codes = [(await receive_until(comm, "error"))["code"] for _ in range(2)]
    assert codes == ["unknown_type", "rate_limited"]
    await comm.disconnect()


async def test_a_sync_sends_the_missed_events_from_the_log_and_the_late_update_adds_nothing(
    pair: tuple[User, User],
) -> None:
    """The update of a move may reach a socket after the socket sent the same state from the
    database (a sync, or the layer watch's catch-up under load: seen in the busy CI run, where
    the other page never logged the move). The events come from the log with that state, once;
    the late update is then dropped."""
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    watcher = await socket(table.pk, pair[0])
    await watcher.connect()
    await receive_until(watcher, "state")
    sent: list[Sent] = []

    def play() -> None:
        with outbox.captured() as captured:  # committed, not published yet
            table_act(
                table_id=table.pk, user=pair[1], action={"type": "play", "card": "4/12j"},
                state_id=0,
            )  # fmt: skip
        sent.extend(captured)

    await database_sync_to_async(play)()
    await watcher.send_to(text_data=json.dumps({"type": "sync"}))
    missed = json.loads(await watcher.receive_from())
    assert missed["type"] == "event" and missed["state_id"] == 1
    assert missed["event"]["type"] == "played" and "4/12" in missed["text"]
    synced = json.loads(await watcher.receive_from())
    assert synced["type"] == "state" and synced["state_id"] == 1 and not synced.get("events")
    (update,) = table_updates(sent)
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(table_group(table.pk), update)
    await layer.group_send(table_group(table.pk), update)  # and once more (a layer's retry)
    assert await watcher.receive_nothing(timeout=0.2)
    await watcher.send_to(text_data=json.dumps({"type": "sync"}))
    assert json.loads(await watcher.receive_from())["type"] == "state"  # nothing new to log
    await watcher.disconnect()
