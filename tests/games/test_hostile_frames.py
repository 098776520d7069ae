"""Hostile JSON on both sockets (the table's and the session overview's): lone surrogates,
NaN, Infinity, 1e999, deep nesting, unknown and ignored fields, huge strings.

Each frame gets a clear error frame; the socket stays open (a `sync` after it is answered);
nothing is stored (the table's state, moves, event rows and attempts, the session's rows);
nothing is logged as an error or with a traceback. A Hypothesis property over generated
frames, and the cases of the audit as named examples.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import driver
from games.consumers import TableConsumer
from games.engine.cards import DECKS, DENOMINATORS
from games.models import Seat, Table, TableEvent
from lessons.models import Attempt, ClassSession, SessionMember
from lessons.sessions.consumers import SessionOverviewConsumer
from tests.conftest import ClassWorld
from tests.games.helpers import receive_until, socket
from tests.lessons.sessions.helpers import scripted_session

pytestmark = [pytest.mark.django_db(transaction=True)]

EXAMPLES = 25


class Raw(str):
    """A JSON token written as it is (NaN, Infinity, 1e999): no encoder writes these."""


def to_json(value: Any) -> str:
    """Write `value` as JSON text; lone surrogates come out as `\\ud800` escapes."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{to_json(k)}:{to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(to_json(v) for v in value) + "]"
    return json.dumps(value)  # ensure_ascii: a surrogate becomes its escape


def _nested(depth: int, kind: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
NON_FINITE = [Raw(t) for t in ("NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1e400")]
# What no JSON reader that can write its answers back should accept.
poison = st.one_of(
    st.sampled_from(NON_FINITE),
    st.builds(
        lambda a, s, b: a + s + b,
        st.text(max_size=4),
        st.sampled_from(SURROGATES),
        st.text(max_size=4),
    ),  # fmt: skip
    st.builds(_nested, st.integers(9, 200), st.sampled_from(["list", "dict"])),
)
CARDS = frozenset(DECKS["fractions"])
MEANINGFUL = frozenset({"r", "j", "v", "b", "equal", "denominator", "rev", "stop", "+2", "swap"})
# A value no field of a play may hold: the engine must refuse it, not ignore and store it.
junk = st.one_of(
    poison,
    st.integers(1000, 3000).map(lambda n: "x" * n),
    st.dictionaries(st.text(max_size=4), st.integers(), min_size=1, max_size=3),
    st.lists(st.integers(), min_size=1, max_size=3),
    st.text(min_size=1, max_size=12).filter(lambda t: t not in MEANINGFUL | CARDS),
    st.integers().filter(lambda n: n not in (0, 1) and n not in DENOMINATORS),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
    st.booleans(),
)
PLAY_FIELDS = ["card", "colour", "denominator", "claim", "target", "function", "extra", "seat"]
CURRENT = "<current>"
# Seat 1 may play 4/12 on 1/3: without the hostile part, each action below would be applied.
GOOD_PLAY = {"type": "play", "card": "4/12j", "claim": "equal"}


def _play_with(field: str, value: Any) -> dict[str, Any]:
    return {"type": "action", "action": {**GOOD_PLAY, field: value}, "state_id": CURRENT}


table_frames = st.one_of(
    st.builds(_play_with, st.sampled_from(PLAY_FIELDS), junk),
    st.builds(lambda v: {"type": "action", "action": GOOD_PLAY, "state_id": v}, poison),
    st.builds(
        lambda k, v: {**_play_with("claim", "equal"), k: v},
        st.sampled_from(["type2", "extra", "seat"]),
        poison,
    ),  # fmt: skip
    st.builds(lambda v: {"type": v}, st.one_of(poison, junk)),
    poison.map(lambda v: Raw(to_json(v))),
    st.integers(4100, 6000).map(lambda n: Raw(json.dumps({"type": "sync", "x": "y" * n}))),
)
overview_frames = st.one_of(
    st.builds(lambda k, v: {"type": "sync", k: v}, st.sampled_from(["x", "type2"]), poison),
    st.builds(lambda v: {"type": v}, st.one_of(poison, junk)),
    st.integers(1100, 3000).map(lambda n: Raw(json.dumps({"type": "sync", "x": "y" * n}))),
)


def _render(frame: Any, state_id: int) -> str:
    if isinstance(frame, dict) and frame.get("state_id") == CURRENT:
        frame = {**frame, "state_id": state_id}
    return to_json(frame)


def _stored(table_id: int) -> tuple[Any, ...]:
    table = Table.objects.get(pk=table_id)
    return (
        table.state,
        table.state_id,
        table.moves,
        table.status,
        list(TableEvent.objects.filter(table=table).values_list("seq", "action")),
        list(Seat.objects.filter(table=table).values_list("index", "user_id", "bot", "name")),
        Attempt.objects.count(),
        list(ClassSession.objects.values_list("pk", "status", "options", "play_settings")),
        list(SessionMember.objects.values_list("pk", "table_id")),
    )


async def _one_error(comm: Any) -> dict[str, Any]:
    """Read the answer to a hostile frame: it must be an error frame, and only that."""
    output = await comm.receive_output(timeout=5)
    assert output["type"] == "websocket.send", f"the socket closed: {output}"
    frame: dict[str, Any] = json.loads(output["text"])
    assert frame["type"] == "error", frame
    assert isinstance(frame["code"], str) and frame["code"]
    assert isinstance(frame["message"], str) and frame["message"].strip()
    assert "Traceback" not in output["text"]
    return frame


def _no_error_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert bad == [], [r.getMessage() for r in bad]


class _Run:
    """One event loop and one socket per consumer for all examples (a socket lives on)."""

    def __init__(self, path_user: tuple[str, Any], first: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.path, self.user = path_user
        self.first = first
        self.comm: Any = None
        self.state_id = 0

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    async def open(self) -> None:
        self.comm = await socket(0, self.user, path=self.path)
        connected, _ = await self.comm.connect()
        assert connected
        frame = await receive_until(self.comm, self.first)
        self.state_id = int(frame.get("state_id", 0))

    async def send_hostile(self, text: str) -> dict[str, Any]:
        await self.comm.send_to(text_data=text)
        error = await _one_error(self.comm)
        # Still open, still answering: a sync gets its normal answer.
        await self.comm.send_to(text_data='{"type": "sync"}')
        await receive_until(self.comm, self.first)
        return error

    def close(self) -> None:
        if self.comm is not None:
            self.run(self.comm.disconnect())
        driver.cancel_all()
        self.loop.close()


HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.fixture(autouse=True)
def _no_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # The limiters are tested apart: here every frame must reach the checks.
    for consumer in (TableConsumer, SessionOverviewConsumer):
        monkeypatch.setattr(consumer, "rate_burst", 10**6)


def test_hostile_frames_on_the_table_socket(
    class_a: ClassWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _session, table = scripted_session(class_a)
    player = class_a.other_student.user
    run = _Run((f"/ws/table/{table.pk}/", player), "state")
    run.run(run.open())
    before = _stored(table.pk)
    codes: set[str] = set()

    @hypothesis_settings(
        max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=HEALTH
    )
    @given(frame=table_frames)
    def hostile(frame: Any) -> None:
        codes.add(run.run(run.send_hostile(_render(frame, run.state_id)))["code"])
        assert _stored(table.pk) == before
        _no_error_logged(caplog)

    try:
        hostile()
    finally:
        run.close()
    assert codes, "no frame was tried"


def test_hostile_frames_on_the_overview_socket(
    class_a: ClassWorld, caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    caplog.set_level(logging.INFO)
    settings.GAMES_BOT_DELAY = 60
    session, table = scripted_session(class_a)
    run = _Run((f"/ws/session/{session.pk}/", class_a.teacher), "overview")
    run.run(run.open())
    before = _stored(table.pk)

    @hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None,
                         suppress_health_check=HEALTH)  # fmt: skip
    @given(frame=overview_frames)
    def hostile(frame: Any) -> None:
        run.run(run.send_hostile(_render(frame, 0)))
        assert _stored(table.pk) == before
        _no_error_logged(caplog)

    try:
        hostile()
    finally:
        run.close()


# The audit's own frames, each on its own (table socket).
AUDIT_CASES = {
    "lone surrogate in a card": (_play_with("card", "\ud800"), "bad_json"),
    "lone surrogate in an ignored field": (_play_with("target", "\udfff"), "bad_json"),
    "1e999": (_play_with("denominator", Raw("1e999")), "bad_json"),
    "NaN state id": ({"type": "action", "action": GOOD_PLAY, "state_id": Raw("NaN")}, "bad_json"),
    "deep nesting": (_play_with("colour", _nested(300, "list")), "too_deep"),
    "3 KB string in a field the card ignores": (_play_with("target", "x" * 3000), "bad_target"),
    "an object in a field the card ignores": (_play_with("function", {"a": [1]}), "bad_action"),
    "an unknown field": (_play_with("extra", "hello"), "bad_action"),
}


@pytest.mark.parametrize("case", list(AUDIT_CASES))
def test_the_audits_frames_get_their_error(
    class_a: ClassWorld, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    caplog.set_level(logging.INFO)
    _session, table = scripted_session(class_a)
    run = _Run((f"/ws/table/{table.pk}/", class_a.other_student.user), "state")
    frame, code = AUDIT_CASES[case]
    try:
        run.run(run.open())
        before = _stored(table.pk)
        assert run.run(run.send_hostile(_render(frame, run.state_id)))["code"] == code
        assert _stored(table.pk) == before
        _no_error_logged(caplog)
        # And the same play without the hostile part is applied (the frame was the only fault).
        run.run(run.comm.send_to(text_data=_render(_play_with("claim", "equal"), 0)))
        assert run.run(receive_until(run.comm, "state"))["state_id"] == 1
        stored = TableEvent.objects.get(table=table)
        assert stored.action == GOOD_PLAY
    finally:
        run.close()
