"""The reason prompt on the table socket: `ask_reason` after a refused "equal" claim, `reason`.

Seat 1 (pair[1]) plays first on 1/3 (FRACTIONS_SETUP): 2/3r claimed "equal" is refused, the
first claim of the turn; 10/12v (another denominator, inferred "equal") is refused too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from pytest_django.fixtures import Settings

from games import driver
from games.errors import TableError
from games.services import table_act
from lessons.attempts.reason_prompt import asks, reason_prompt
from lessons.diagnosis import REASON_LABELS, REASONS
from lessons.models import Attempt, User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table, open_seat, receive_until

pytestmark = [pytest.mark.django_db(transaction=True)]

ASKED = {"ask_reason": 100}
WRONG_EQUAL = {"type": "play", "card": "2/3r", "claim": "equal"}


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 0.01
    settings.GAMES_ROUND_PAUSE = 0.01
    yield
    driver.cancel_all()


async def _table(users: list[Any], settings: dict[str, Any] | None = None, seed: int = 7) -> Any:
    def build() -> Any:
        table = make_table(users, setup=FRACTIONS_SETUP, table_settings=settings)
        if seed != 7:
            table.seed = seed
            table.save(update_fields=["seed"])
        return table

    return await database_sync_to_async(build)()


async def _play(comm: WebsocketCommunicator, action: dict[str, Any]) -> dict[str, Any]:
    """Send a play on state 0; return the error frame (and read the fresh state after it)."""
    await comm.send_to(text_data=json.dumps({"type": "action", "action": action, "state_id": 0}))
    error = await receive_until(comm, "error")
    await receive_until(comm, "state")
    return error


async def _answer(comm: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    """Send a raw `reason` frame; return the answer (`reason_saved` or `error`)."""
    await comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    while True:
        answer: dict[str, Any] = json.loads(await comm.receive_from(timeout=3))
        if answer["type"] in ("reason_saved", "error"):
            return answer


async def _reasons(student_user: Any) -> list[str | None]:
    def read() -> list[str | None]:
        rows = Attempt.objects.filter(student__user=student_user).order_by("id")
        return [a.reason for a in rows]

    return await database_sync_to_async(read)()


async def test_refused_equal_claim_is_asked_and_the_answer_is_stored(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    error = await _play(comm, WRONG_EQUAL)
    assert error["code"] == "not_equivalent"
    choices = error["ask_reason"]["choices"]
    assert sorted(c["code"] for c in choices) == sorted(REASONS)
    assert all(c["label"] == REASON_LABELS[c["code"]]["en"] for c in choices)
    assert await _answer(comm, {"type": "reason", "code": "same_bottom"}) == {
        "type": "reason_saved"
    }
    assert await _reasons(pair[1]) == ["same_bottom"]
    # The same answer again changes nothing; a different one is refused, nothing changed.
    assert (await _answer(comm, {"type": "reason", "code": "same_bottom"}))["type"] == (
        "reason_saved"
    )
    second = await _answer(comm, {"type": "reason", "code": "guessed"})
    assert second["code"] == "already_answered" and second["message"]
    assert await _reasons(pair[1]) == ["same_bottom"]
    await comm.disconnect()


async def test_labels_follow_the_socket_language(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1], lang="fr")
    choices = (await _play(comm, WRONG_EQUAL))["ask_reason"]["choices"]
    assert {c["label"] for c in choices} == {labels["fr"] for labels in REASON_LABELS.values()}
    await comm.disconnect()


async def test_not_asked_when_the_setting_is_off_and_no_answer_is_taken(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair))  # a table's default: 0 (class sessions)
    comm = await open_seat(table.pk, pair[1])
    assert "ask_reason" not in await _play(comm, WRONG_EQUAL)
    answer = await _answer(comm, {"type": "reason", "code": "guessed"})
    assert answer["code"] == "no_reason_asked"
    assert answer["message"] == "No question is waiting for an answer."
    assert await _reasons(pair[1]) == [None]
    await comm.disconnect()


async def test_only_the_first_equal_claim_of_a_turn_is_asked(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    # A wrong "denominator" claim opens the turn: it is never asked, nor is a later try.
    denominator = await _play(comm, {"type": "play", "card": "1/6b", "claim": "denominator"})
    assert denominator["code"] == "wrong_denominator" and "ask_reason" not in denominator
    later = await _play(comm, {"type": "play", "card": "10/12v", "claim": "equal"})
    assert later["code"] == "not_equivalent" and "ask_reason" not in later
    answer = await _answer(comm, {"type": "reason", "code": "added_same"})
    assert answer["code"] == "no_reason_asked"
    assert await _reasons(pair[1]) == [None, None]
    await comm.disconnect()


async def test_no_pending_prompt_before_any_play_or_after_the_turn_moved_on(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    assert (await _answer(comm, {"type": "reason", "code": "guessed"}))["code"] == (
        "no_reason_asked"
    )
    assert "ask_reason" in await _play(comm, WRONG_EQUAL)
    # The student plays a right card instead of answering: the question is gone.
    await comm.send_to(
        text_data=json.dumps(
            {"type": "action", "action": {"type": "play", "card": "4/12j"}, "state_id": 0}
        )
    )
    await receive_until(comm, "state")
    answer = await _answer(comm, {"type": "reason", "code": "guessed"})
    assert answer["code"] == "no_reason_asked"
    assert await _reasons(pair[1]) == [None, None]
    await comm.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "reason", "code": "because"},
        {"type": "reason", "code": 3},
        {"type": "reason", "code": ["guessed"]},
        {"type": "reason", "code": None},
        {"type": "reason"},
        {"type": "reason", "code": "M1"},
    ],
)
async def test_bad_codes_are_refused_and_change_nothing(
    pair: tuple[User, User], frame: dict[str, object]
) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    assert "ask_reason" in await _play(comm, WRONG_EQUAL)
    answer = await _answer(comm, frame)
    assert answer["code"] == "unknown_reason"
    assert answer["message"] == "This answer is not one of the choices."
    assert await _reasons(pair[1]) == [None]
    # The question still waits: a real answer is taken.
    assert (await _answer(comm, {"type": "reason", "code": "guessed"}))["type"] == ("reason_saved")
    await comm.disconnect()


async def test_oversized_reason_frame_is_refused(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    await _play(comm, WRONG_EQUAL)
    answer = await _answer(comm, json.dumps({"type": "reason", "code": "guessed" + "x" * 5000}))
    assert answer["code"] == "too_large"
    assert await _reasons(pair[1]) == [None]
    await comm.disconnect()


async def test_another_player_and_a_watching_teacher_cannot_answer(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = await _table(list(pair), ASKED)
    comm = await open_seat(table.pk, pair[1])
    await _play(comm, WRONG_EQUAL)
    other = await open_seat(table.pk, pair[0])
    assert (await _answer(other, {"type": "reason", "code": "guessed"}))["code"] == (
        "no_reason_asked"
    )
    teacher = await open_seat(table.pk, class_a.teacher)
    answer = await _answer(teacher, {"type": "reason", "code": "guessed"})
    assert answer["code"] == "not_a_student"
    assert answer["message"] == "Only a student answers this question."
    assert await _reasons(pair[1]) == [None]
    for socket in (comm, other, teacher):
        await socket.disconnect()


def _refuse(table: Any, user: Any) -> None:
    with pytest.raises(TableError):
        table_act(table_id=table.pk, user=user, action=WRONG_EQUAL, state_id=0)


def test_the_server_decides_by_the_seed_at_the_stated_rate(pair: tuple[User, User]) -> None:
    asked, orders = 0, set()
    for seed in range(24):
        table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={"ask_reason": 50})
        table.seed = seed
        table.save(update_fields=["seed"])
        _refuse(table, pair[1])
        attempt = Attempt.objects.get(table_id=table.pk)
        expected = asks(50, random.Random(f"ask_reason:{seed}:{attempt.pk}"))
        prompt = reason_prompt(table.pk, pair[1], "en")
        assert (prompt is not None) == expected
        # The same refusal always gets the same prompt.
        assert reason_prompt(table.pk, pair[1], "en") == prompt
        if prompt is not None:
            asked += 1
            orders.add(tuple(c["code"] for c in prompt["choices"]))
    assert 4 <= asked <= 20  # 50% of 24 (a fixed seed: the figure is exact, the bound loose)
    assert len(orders) > 1  # a fresh order per prompt, not one fixed order


def test_practice_tables_ask_every_time_and_other_tables_never_by_default(
    class_a: ClassWorld,
) -> None:
    from django.test import Client
    from django.urls import reverse

    from games.models import Table

    client = Client()
    client.force_login(class_a.student.user)
    data = {"ruleset": "fractions", "bots": 1, "bot": "heuristic"}
    client.post(reverse("games:practice"), data)
    assert Table.objects.get(created_by=class_a.student.user).play_settings["ask_reason"] == 100
    # A class session's settings carry no ask_reason: its tables never ask unless set.
    pair = [class_a.student.user, class_a.other_student.user]
    table = make_table(pair, setup=FRACTIONS_SETUP, table_settings={"turn_timer": 30})
    assert table.play_settings["ask_reason"] == 0
    # The rate is a percent: kept within 0-100.
    for given, kept in ((150, 100), (-5, 0), (None, 0), (35, 35)):
        table = make_table(pair, setup=FRACTIONS_SETUP, table_settings={"ask_reason": given})
        assert table.play_settings["ask_reason"] == kept
