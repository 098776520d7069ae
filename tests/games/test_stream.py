"""The fallback link (docs/protocol.md, "Fallback: SSE and POST"): the same guarantees as the
socket, on an event stream for the server's frames and POSTs for the client's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver
from games.engine import Game
from games.models import Seat, Table
from games.protocol import MAX_FRAME_BYTES, RATE_BURST, RATE_PER_SECOND
from games.realtime import stream as stream_module
from lessons.models import User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table, receive_until, socket
from tests.games.streams import cookie_for, post_frame, stream

pytestmark = [pytest.mark.django_db(transaction=True)]

PLAY_EQUAL = {"type": "play", "card": "4/12j", "claim": "equal"}  # seat 1, on 1/3: equal


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 0.01
    settings.GAMES_ROUND_PAUSE = 0.01
    yield
    driver.cancel_all()


async def _table(users: Sequence[User | None], **kw: Any) -> Table:
    return await database_sync_to_async(make_table)(users, **kw)


async def _stored(table_id: int) -> tuple[dict[str, Any], int]:
    table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    return table.state, table.state_id


def _stream_path(table_id: int, query: str = "") -> str:
    return f"/tables/{table_id}/stream/{query}"


def _frames_path(table_id: int) -> str:
    return f"/tables/{table_id}/frames/"


def _action(action: dict[str, Any], state_id: int) -> dict[str, Any]:
    return {"type": "action", "action": action, "state_id": state_id}


# --- Opening: what a stream says first, and its headers ------------------------------------


async def test_a_stream_opens_with_the_seat_state_and_its_id(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    s = await stream(_stream_path(table.pk), await cookie_for(pair[1]))
    assert s.status == 200
    assert s.headers[b"content-type"].startswith(b"text/event-stream")
    assert b"no-cache" in s.headers[b"cache-control"]
    assert s.headers[b"x-accel-buffering"] == b"no"  # nginx passes each event on at once
    event = await s.event()
    assert event.name == "message" and event.data["type"] == "state"
    assert event.id == "0"  # the state number: what the browser sends back as Last-Event-ID
    assert event.data["view"]["seat"] == 1
    assert event.data["view"]["hand"] == FRACTIONS_SETUP["hands"][1]
    await s.disconnect()


async def test_a_stream_sends_a_heartbeat_comment_while_idle(
    pair: tuple[User, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_module, "HEARTBEAT_SECONDS", 0.05)
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    s = await stream(_stream_path(table.pk), await cookie_for(pair[0]))
    await s.frame("state")
    message = await s.comm.receive_output(timeout=2)
    assert message["body"] == b": ping\n\n" and message["more_body"]
    await s.disconnect()


async def test_a_stream_only_answers_get(pair: tuple[User, User]) -> None:
    from channels.testing import HttpCommunicator

    from unoclass.asgi import application

    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[0])
    assert cookie is not None
    headers = [(b"host", b"testserver"), (b"cookie", cookie)]
    comm = HttpCommunicator(application, "POST", _stream_path(table.pk), headers=headers)
    assert (await comm.get_response())["status"] == 405


# --- Refusals: the socket's 4401 and 4403 ------------------------------------------------


async def test_not_signed_in_gets_4401_on_the_stream_and_401_on_post(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    s = await stream(_stream_path(table.pk), None)
    assert s.status == 200  # an EventSource cannot read a status: the close event says why
    first = await s.event()
    assert (first.name, first.data) == ("close", {"code": 4401})  # nothing before it
    assert s.ended
    answer = await post_frame(_frames_path(table.pk), None, _action(PLAY_EQUAL, 0))
    assert answer.status == 401 and answer.body == {"frames": [], "close": 4401}
    assert (await _stored(table.pk))[1] == 0


async def test_not_seated_gets_4403_on_the_stream_and_403_on_post(
    pair: tuple[User, User], class_b: ClassWorld
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    stranger = await cookie_for(class_b.student.user)
    for path in (_stream_path(table.pk), _stream_path(table.pk + 999)):
        s = await stream(path, stranger)
        first = await s.event()
        assert (first.name, first.data) == ("close", {"code": 4403})
    answer = await post_frame(_frames_path(table.pk), stranger, _action(PLAY_EQUAL, 0))
    assert answer.status == 403 and answer.body == {"frames": [], "close": 4403}
    text = json.dumps(answer.body)
    assert all(card not in text for hand in FRACTIONS_SETUP["hands"] for card in hand)
    assert (await _stored(table.pk))[1] == 0


async def test_a_post_without_the_csrf_token_or_from_another_site_changes_nothing(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[1])
    frame = _action(PLAY_EQUAL, 0)
    no_token = await post_frame(_frames_path(table.pk), cookie, frame, csrf=False)
    assert no_token.status == 403 and "close" not in no_token.body
    foreign = await post_frame(
        _frames_path(table.pk), cookie, frame, origin=b"https://evil.example"
    )
    assert foreign.status == 403
    assert (await _stored(table.pk))[1] == 0
    # The same frame with the token and the page's own origin is applied.
    assert (await post_frame(_frames_path(table.pk), cookie, frame)).status == 200
    assert (await _stored(table.pk))[1] == 1


async def test_a_stream_from_another_site_is_refused(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[0])
    s = await stream(_stream_path(table.pk), cookie, [(b"origin", b"https://evil.example")])
    assert s.status == 403
    own = await stream(_stream_path(table.pk), cookie, [(b"origin", b"http://testserver")])
    assert own.status == 200
    await own.disconnect()


async def test_signing_out_ends_the_stream_with_4401(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)

    def signed_in_tab() -> tuple[Client, bytes]:
        client = Client()
        client.force_login(pair[0])
        key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        return client, f"{django_settings.SESSION_COOKIE_NAME}={key}".encode()

    tab, cookie = await database_sync_to_async(signed_in_tab)()
    s = await stream(_stream_path(table.pk), cookie)
    await s.frame("state")
    await database_sync_to_async(tab.post)(reverse("logout"))
    assert await s.close_code() == 4401
    # The signed-out session posts nothing either.
    answer = await post_frame(_frames_path(table.pk), cookie, {"type": "sync"})
    assert answer.status == 401


async def test_a_post_from_a_session_signed_out_elsewhere_is_refused(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[1])
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    answer = await post_frame(_frames_path(table.pk), cookie, _action(PLAY_EQUAL, 0))
    assert answer.status == 401
    assert (await _stored(table.pk))[1] == 0


async def test_a_student_moved_off_the_table_loses_the_stream(pair: tuple[User, User]) -> None:
    from games.broadcast import broadcast_table_update
    from games.players import table_info

    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    s = await stream(_stream_path(table.pk), await cookie_for(pair[0]))
    await s.frame("state")

    def move_away() -> None:
        Seat.objects.filter(table=table, index=0).update(user=None, bot="heuristic")
        fresh = Table.objects.get(pk=table.pk)
        broadcast_table_update(fresh.pk, fresh.state_id, fresh.state, [], table_info(table=fresh))

    await database_sync_to_async(move_away)()
    assert await s.close_code() == 4403
    answer = await post_frame(_frames_path(table.pk), await cookie_for(pair[0]), {"type": "sync"})
    assert answer.status == 403


# --- Hidden hands: each stream carries what its socket would -----------------------------


async def test_each_stream_carries_its_own_hand_only(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    streams = [
        await stream(_stream_path(table.pk), await cookie_for(user))
        for user in (pair[0], pair[1], class_a.teacher)
    ]
    seen: list[list[Any]] = [[], [], []]
    for index, s in enumerate(streams):
        seen[index] += [e.data for e in await s.frames_until("state")]
    # Seat 1 draws (its card is shown to seat 1 only), then seat 0 plays on.
    drew = await post_frame(
        _frames_path(table.pk), await cookie_for(pair[1]), _action({"type": "draw"}, 0)
    )
    assert drew.status == 200 and [f["type"] for f in drew.frames] == ["state"]
    mover_view = drew.frames[0]["view"]
    state, state_id = await _stored(table.pk)
    game = Game.from_dict(state)
    drawn = game.view(1)["drawn"]
    assert drawn and mover_view["drawn"] == drawn
    for index, s in enumerate(streams):
        seen[index] += [e.data for e in await s.frames_until("state")]
    for seat, frames in enumerate(seen):
        last = frames[-1]
        assert last["state_id"] == state_id
        own = game.view(seat if seat < 2 else None)["hand"]
        assert last["view"]["hand"] == own
        text = json.dumps(frames)
        others = [c for other in range(2) if other != seat for c in game.view(other)["hand"]]
        # Another seat's card may be the same card code as one of this hand's or the pile's.
        visible = set(own) | {game.view(None)["top"]}
        assert not [card for card in others if card not in visible and f'"{card}"' in text]
    # The drawn card is in the mover's event only.
    assert f'"{drawn}"' in json.dumps(seen[1])
    for s in streams:
        await s.disconnect()


# --- Bad frames: the socket's error frames, nothing changed -----------------------------


BAD_FRAMES = [
    (b"{not json", "bad_json"),
    (b'{"type": "sync", "x": NaN}', "bad_json"),
    (b'"just a string"', "unknown_type"),
    (b'{"type": "dance"}', "unknown_type"),
    (b"[" * 10 + b"]" * 10, "too_deep"),
    (b"\xff\xfe not text", "bad_frame"),
    (json.dumps({"type": "sync", "pad": "x" * MAX_FRAME_BYTES}).encode(), "too_large"),
    (json.dumps({"type": "action", "action": "draw", "state_id": 0}).encode(), "bad_action"),
    (json.dumps({"type": "action", "action": {"type": "draw"}}).encode(), "bad_state_id"),
    (json.dumps({"type": "since", "state_id": 99}).encode(), "bad_since"),
]


@pytest.mark.parametrize(("raw", "code"), BAD_FRAMES, ids=[c for _r, c in BAD_FRAMES])
@pytest.mark.parametrize("transport", ["socket", "post"])
async def test_a_bad_frame_gets_the_same_error_on_both_transports(
    pair: tuple[User, User], transport: str, raw: bytes, code: str
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    if transport == "post":
        answer = await post_frame(_frames_path(table.pk), await cookie_for(pair[1]), None, raw=raw)
        assert answer.status == 200
        errors = [f for f in answer.frames if f["type"] == "error"]
        assert [f["code"] for f in errors] == [code]
        error = errors[0]
    else:
        comm = await socket(table.pk, pair[1])
        await comm.connect()
        await receive_until(comm, "state")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            await comm.send_to(bytes_data=raw)
        else:
            await comm.send_to(text_data=text)
        error = await receive_until(comm, "error")
        assert error["code"] == code
        await comm.disconnect()
    assert error["message"]  # translated, never empty
    assert (await _stored(table.pk))[1] == 0


async def test_posts_share_the_socket_rate_limit(
    pair: tuple[User, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bucket's clock is ours: no time passes while the frames are posted (exact counts).
    from functools import partial

    from games.realtime import posted
    from games.realtime.frames import TokenBucket

    now = [1000.0]
    monkeypatch.setattr(posted, "TokenBucket", partial(TokenBucket, clock=lambda: now[0]))
    monkeypatch.setattr(posted, "_buckets", type(posted._buckets)())
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[1])
    answers = [
        await post_frame(_frames_path(table.pk), cookie, {"type": "dance"})
        for _ in range(RATE_BURST + 3)
    ]
    codes = [a.frames[0]["code"] for a in answers]
    assert codes == ["unknown_type"] * RATE_BURST + ["rate_limited"] * 3
    # A limited action is not applied; another sign-in has its own bucket.
    limited = await post_frame(_frames_path(table.pk), cookie, _action(PLAY_EQUAL, 0))
    assert [f["code"] for f in limited.frames] == ["rate_limited"]
    assert (await _stored(table.pk))[1] == 0
    other = await post_frame(_frames_path(table.pk), await cookie_for(pair[0]), {"type": "dance"})
    assert other.frames[0]["code"] == "unknown_type"
    now[0] += 1.5 / RATE_PER_SECOND  # a token back (and half of one: no rounding edge)
    again = await post_frame(_frames_path(table.pk), cookie, _action(PLAY_EQUAL, 0))
    assert [f["type"] for f in again.frames] == ["state"]


# --- Actions: stored before broadcast, one of two at once --------------------------------


async def test_a_posted_action_reaches_every_stream_and_socket(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    watcher_stream = await stream(_stream_path(table.pk), await cookie_for(pair[0]))
    await watcher_stream.frame("state")
    comm = await socket(table.pk, pair[0])
    await comm.connect()
    await receive_until(comm, "state")
    mover = await stream(_stream_path(table.pk), await cookie_for(pair[1]))
    await mover.frame("state")
    answer = await post_frame(
        _frames_path(table.pk), await cookie_for(pair[1]), _action(PLAY_EQUAL, 0)
    )
    (own,) = answer.frames
    assert own["type"] == "state" and own["state_id"] == 1
    assert own["events"][0]["event"]["card"] == "4/12j"
    for frame in (
        await watcher_stream.frame("state"),
        await receive_until(comm, "state"),
        await mover.frame("state"),  # the mover's own stream too (the page drops the repeat)
    ):
        assert frame["state_id"] == 1 and frame["events"][0]["event"]["card"] == "4/12j"
    # A socket's move reaches the streams the same way.
    state, state_id = await _stored(table.pk)
    seat0_play = next(
        a for a in Game.from_dict(state).legal_actions(0) if a["type"] in ("play", "draw")
    )
    await comm.send_to(text_data=json.dumps(_action(seat0_play, state_id)))
    assert (await receive_until(comm, "state"))["state_id"] == 2
    assert (await watcher_stream.frame("state"))["state_id"] == 2
    assert (await mover.frame("state"))["state_id"] == 2
    await comm.disconnect()
    await watcher_stream.disconnect()
    await mover.disconnect()


async def test_two_simultaneous_posted_actions_apply_one(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[1])
    first, second = await asyncio.gather(
        post_frame(_frames_path(table.pk), cookie, _action(PLAY_EQUAL, 0)),
        post_frame(_frames_path(table.pk), cookie, _action({"type": "draw"}, 0)),
    )
    codes = [[f.get("code", f["type"]) for f in a.frames] for a in (first, second)]
    assert sorted(codes) == [["stale_state", "state"], ["state"]]
    _state, state_id = await _stored(table.pk)
    assert state_id == 1  # one applied, one refused: never both on the same state


async def test_sync_and_since_answer_in_the_post(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[1])
    await post_frame(_frames_path(table.pk), cookie, _action(PLAY_EQUAL, 0))
    synced = await post_frame(_frames_path(table.pk), cookie, {"type": "sync"})
    assert [f["type"] for f in synced.frames] == ["state"]
    assert synced.frames[0]["state_id"] >= 1
    since = await post_frame(_frames_path(table.pk), cookie, {"type": "since", "state_id": 0})
    kinds = [f["type"] for f in since.frames]
    assert kinds[-1] == "state" and set(kinds[:-1]) == {"event"}
    assert [f["state_id"] for f in since.frames[:-1]] == sorted(
        f["state_id"] for f in since.frames[:-1]
    )
    assert since.frames[0]["state_id"] == 1


# --- Resuming: Last-Event-ID is "since" ------------------------------------------------


async def _advance(table_id: int, users: list[Any], moves: int) -> int:
    """Make `moves` moves (the acting seat plays or draws, or passes); return the state id."""
    from games.services import table_act

    def run() -> int:
        for _ in range(moves):
            stored = Table.objects.get(pk=table_id)
            game = Game.from_dict(stored.state)
            seat = game.view(None)["acting"]
            legal = game.legal_actions(seat)
            action = next(
                (a for a in legal if a["type"] == "play" and set(a) == {"type", "card"}),
                next(a for a in legal if a["type"] in ("draw", "pass")),
            )
            table_act(table_id=table_id, user=users[seat], action=action, state_id=stored.state_id)
        return int(Table.objects.get(pk=table_id).state_id)

    return await database_sync_to_async(run)()


async def test_last_event_id_resumes_with_every_missed_event_once_in_order(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    cookie = await cookie_for(pair[0])
    s = await stream(_stream_path(table.pk), cookie)
    first = await s.event()
    assert first.id == "0"
    await s.disconnect()  # the network cuts the stream
    last = await _advance(table.pk, list(pair), 4)
    assert last >= 4
    # The browser reopens the address it first opened, with the last id it got.
    again = await stream(
        _stream_path(table.pk), cookie, [(b"last-event-id", str(first.id).encode())]
    )
    events = await again.frames_until("state")
    frames = [e.data for e in events]
    assert [f["type"] for f in frames[:-1]] == ["event"] * (len(frames) - 1)
    assert not any(f.get("replay") for f in frames)
    ids = [f["state_id"] for f in frames[:-1]]
    assert ids == sorted(ids) and set(ids) == set(range(1, last + 1))  # each state, in order
    expected = await database_sync_to_async(_log_items)(table.pk)
    assert [(f["state_id"], f["event"]) for f in frames[:-1]] == expected
    assert events[-1].id == str(last) and frames[-1]["state_id"] == last
    await again.disconnect()


def _log_items(table_id: int) -> list[tuple[int, dict[str, Any]]]:
    """Return seat 0's view of every stored event after state 0, as the catch-up sends it."""
    from games.catch_up import frames_since

    found = frames_since(table_id=table_id, seat=0, since=0, lang="en")
    return [(f["state_id"], f["event"]) for f in found.frames[:-1]]


async def test_last_event_id_wins_over_the_since_of_the_address(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    last = await _advance(table.pk, list(pair), 3)
    cookie = await cookie_for(pair[0])
    s = await stream(_stream_path(table.pk, "?since=0"), cookie, [(b"last-event-id", b"2")])
    frames = [e.data for e in await s.frames_until("state")]
    assert {f["state_id"] for f in frames[:-1]} == set(range(3, last + 1))
    await s.disconnect()
    plain = await stream(_stream_path(table.pk, "?since=1"), cookie)
    frames = [e.data for e in await plain.frames_until("state")]
    assert {f["state_id"] for f in frames[:-1]} == set(range(2, last + 1))
    await plain.disconnect()


async def test_a_bad_last_event_id_gets_bad_since_then_a_fresh_opening(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), setup=FRACTIONS_SETUP)
    await _advance(table.pk, list(pair), 2)
    cookie = await cookie_for(pair[0])
    for bad in (b"abc", b"99", b"-1", b"1&since=0"):
        s = await stream(_stream_path(table.pk), cookie, [(b"last-event-id", bad)])
        first = await s.event()
        assert first.data["type"] == "error" and first.data["code"] == "bad_since"
        frames = [e.data for e in await s.frames_until("state")]
        assert all(f.get("replay") for f in frames[:-1])  # as a page opened afresh
        await s.disconnect()


async def test_a_refused_posted_play_asks_why_and_the_posted_answer_is_stored(
    pair: tuple[User, User],
) -> None:
    from tests.games.test_consumer_reason import ASKED, WRONG_EQUAL, _reasons
    from tests.games.test_consumer_reason import _table as reason_table

    table = await reason_table(list(pair), ASKED)
    cookie = await cookie_for(pair[1])
    refused = await post_frame(_frames_path(table.pk), cookie, _action(WRONG_EQUAL, 0))
    error, state = refused.frames  # the refusal (with its prompt), then the fresh state
    assert error["code"] == "not_equivalent" and state["type"] == "state"
    assert error["ask_reason"]["choices"] and error["message"].startswith("2/3")
    saved = await post_frame(_frames_path(table.pk), cookie, {"type": "reason", "code": "guessed"})
    assert saved.frames == [{"type": "reason_saved"}]
    assert await _reasons(pair[1]) == ["guessed"]
    # Another player cannot answer it.
    other = await post_frame(
        _frames_path(table.pk), await cookie_for(pair[0]), {"type": "reason", "code": "guessed"}
    )
    assert other.frames[0]["code"] == "no_reason_asked"


async def test_a_stream_that_cannot_reach_the_database_ends_with_1013(
    pair: tuple[User, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    from games import table_seat

    table = await _table(list(pair), setup=FRACTIONS_SETUP)

    def away(**kwargs: Any) -> Any:
        raise OperationalError("the database restarts")

    monkeypatch.setattr(table_seat, "table_access", away)
    s = await stream(_stream_path(table.pk), await cookie_for(pair[0]))
    first = await s.event()
    assert (first.name, first.data) == ("close", {"code": 1013})  # the page tries again
    # A POSTed frame gets the socket's `unavailable` error, nothing applied.
    answer = await post_frame(
        _frames_path(table.pk), await cookie_for(pair[1]), _action(PLAY_EQUAL, 0)
    )
    assert answer.status == 200 and [f["code"] for f in answer.frames] == ["unavailable"]
    monkeypatch.undo()
    assert (await _stored(table.pk))[1] == 0
