"""The compare question on the table socket: the example's `compare` after a refused trap at a
practice table, and the `compare` answer (logged, never evidence).

Seat 1 (pair[1]) plays first on 1/3 (FRACTIONS_SETUP): 2/3r claimed "equal" is refused (same
denominator, so "equal": a trap); seat 1 holds 4/12j, equal to 1/3: the equal choice.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Table
from lessons.models import CompareAnswer, User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table, open_seat

# The quick robots (autouse) and a play on state 0 that returns its refusal.
from tests.games.test_consumer_reason import _fast_bots, _play  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True)]

WRONG_EQUAL = {"type": "play", "card": "2/3r", "claim": "equal"}


async def _table(users: list[Any], kind: str = Table.Kind.PRACTICE) -> Table:
    build = lambda: make_table(users, setup=FRACTIONS_SETUP, kind=kind)  # noqa: E731
    table: Table = await database_sync_to_async(build)()
    return table


async def _send(comm: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    """Send a raw frame; return the answer (`compare_saved` or `error`)."""
    await comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    while True:
        answer: dict[str, Any] = json.loads(await comm.receive_from(timeout=3))
        if answer["type"] in ("compare_saved", "error"):
            return answer


async def _rows() -> list[tuple[str, list[str], str, str | None]]:
    def read() -> list[tuple[str, list[str], str, str | None]]:
        return [
            (row.variant, row.choices, row.equal, row.answer)
            for row in CompareAnswer.objects.order_by("id")
        ]

    return await database_sync_to_async(read)()


async def test_a_refused_trap_asks_to_compare_and_the_answer_is_logged(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair))
    comm = await open_seat(table.pk, pair[1])
    compare = (await _play(comm, WRONG_EQUAL))["example"]["compare"]
    assert compare["question"] == "Which one is at the same place as the pile's card?"
    assert sorted(c["text"] for c in compare["choices"]) == ["2/3", "4/12"]
    assert compare["equal"] == "4/12"  # the child's own equal card
    assert compare["right"] == "Yes: 4/12 is at the same place as 1/3."
    assert compare["wrong"] == "No: 2/3 is not at the same place as 1/3; 4/12 is."
    assert compare["principle"] == "Two equal fractions fall at the same place on the number line."
    # Logged when shown: the variant is the order shown.
    ((variant, choices, equal, answer),) = await _rows()
    assert choices == [c["text"] for c in compare["choices"]] and equal == "4/12"
    assert variant == ("equal_first" if choices[0] == "4/12" else "played_first")
    assert answer is None
    assert await _send(comm, {"type": "compare", "choice": "2/3"}) == {"type": "compare_saved"}
    assert (await _rows())[0][3] == "2/3"
    # The same answer again is taken (a resend); another is refused, nothing changed.
    assert (await _send(comm, {"type": "compare", "choice": "2/3"}))["type"] == "compare_saved"
    other = await _send(comm, {"type": "compare", "choice": "4/12"})
    assert other["code"] == "already_compared" and other["message"]
    assert (await _rows())[0][3] == "2/3"
    await comm.disconnect()


async def test_the_question_follows_the_socket_language(pair: tuple[User, User]) -> None:
    table = await _table(list(pair))
    comm = await open_seat(table.pk, pair[1], lang="fr")
    compare = (await _play(comm, WRONG_EQUAL))["example"]["compare"]
    assert compare["question"] == "Laquelle est au même endroit que la carte du talon ?"
    assert compare["principle"] == (
        "Deux fractions égales tombent au même endroit sur la droite graduée."
    )
    await comm.disconnect()


async def test_a_class_session_table_never_asks(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), kind=Table.Kind.LESSON)
    comm = await open_seat(table.pk, pair[1])
    error = await _play(comm, WRONG_EQUAL)
    assert error["code"] == "not_equivalent" and "example" not in error
    refused = await _send(comm, {"type": "compare", "choice": "2/3"})
    assert refused["code"] == "no_compare_asked"
    assert await _rows() == []
    await comm.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "compare", "choice": "5/6"}, "unknown_choice"),  # not one of the two
        ({"type": "compare", "choice": 3}, "unknown_choice"),
        ({"type": "compare", "choice": ["2/3"]}, "unknown_choice"),
        ({"type": "compare", "choice": ""}, "unknown_choice"),
        ({"type": "compare", "choice": "2/3" * 10}, "unknown_choice"),
        ({"type": "compare"}, "unknown_choice"),
    ],
)
async def test_bad_answers_are_refused_and_log_nothing(
    pair: tuple[User, User], frame: dict[str, object], code: str
) -> None:
    table = await _table(list(pair))
    comm = await open_seat(table.pk, pair[1])
    await _play(comm, WRONG_EQUAL)
    refused = await _send(comm, frame)
    assert refused["type"] == "error" and refused["code"] == code and refused["message"]
    assert [row[3] for row in await _rows()] == [None]
    await comm.disconnect()


async def test_no_question_before_a_trap_and_none_for_a_watching_teacher(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = await _table(list(pair))
    comm = await open_seat(table.pk, pair[1])
    assert (await _send(comm, {"type": "compare", "choice": "2/3"}))["code"] == ("no_compare_asked")
    await comm.disconnect()
    watcher = await open_seat(table.pk, class_a.teacher)
    refused = await _send(watcher, {"type": "compare", "choice": "2/3"})
    assert refused["code"] == "not_a_student"
    await watcher.disconnect()


async def test_the_fallback_link_asks_and_logs_the_same(pair: tuple[User, User]) -> None:
    from tests.games.streams import cookie_for, post_frame

    table = await _table(list(pair))
    frames = f"/tables/{table.pk}/frames/"
    cookie = await cookie_for(pair[1])
    play = {"type": "action", "action": WRONG_EQUAL, "state_id": 0}
    error, _state = (await post_frame(frames, cookie, play)).frames
    assert error["example"]["compare"]["equal"] == "4/12"
    saved = await post_frame(frames, cookie, {"type": "compare", "choice": "4/12"})
    assert saved.frames == [{"type": "compare_saved"}]
    assert [row[3] for row in await _rows()] == ["4/12"]
    # Another player has no question waiting.
    other = await post_frame(
        frames, await cookie_for(pair[0]), {"type": "compare", "choice": "4/12"}
    )
    assert other.frames[0]["code"] == "no_compare_asked"
