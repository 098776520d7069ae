"""An archived class is read-only in the writes themselves, not only at sign-in: a pupil signed
in after the archive (another session, an ENT sign-in) starts no practice, and a table dealt
before the archive stores no attempt: the move is refused with the class's message."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.errors import TableError
from games.models import Table, TableEvent
from lessons.models import (
    Attempt,
    MissedEquivalence,
    PracticeTable,
    SeatStudent,
    User,
    WarmupRound,
)
from lessons.school.class_years import classroom_archive
from lessons.warmup import services as warmup
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, act, make_table, receive_until, socket
from tests.lessons.practice.helpers import assign
from tests.support.factories import signed_in_client
from tests.support.responses import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ARCHIVED_EN = "This class is archived: it can be read but not changed."


def _archive(world: ClassWorld) -> None:
    classroom_archive(classroom=world.classroom, by=world.teacher)


def _signed_in_after_the_archive(world: ClassWorld) -> Client:
    """Sign the pupil in with a session made after the archive (another way in: an ENT sign-in)."""
    client = signed_in_client(User.objects.get(pk=world.student.user.pk), "en")
    assert client.get(reverse("home")).context["user"].is_authenticated
    return client


def _table_dealt_before_the_archive(world: ClassWorld) -> Table:
    """Anaïs (seat 1) plays first on 1/3 and has already tried 10/12 once: her seat has a row."""
    table = make_table([world.other_student.user, world.student.user], setup=FRACTIONS_SETUP)
    with pytest.raises(TableError):
        act(table, world.student.user, {"type": "play", "card": "10/12v", "claim": "equal"})
    assert Attempt.objects.count() == 1
    assert SeatStudent.objects.filter(seat__table=table).exists()
    return table


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "card": "4/12j", "claim": "equal"},  # right
        {"type": "play", "card": "2/3r", "claim": "equal"},  # wrong: refused by the rules
        {"type": "draw"},
    ],
    ids=["right_play", "wrong_play", "draw"],
)
def test_a_move_at_a_table_dealt_before_the_archive_is_refused(
    class_a: ClassWorld, action: dict[str, Any]
) -> None:
    table = _table_dealt_before_the_archive(class_a)
    _archive(class_a)
    before = snapshot()
    state_before = Table.objects.get(pk=table.pk).state_id
    with pytest.raises(TableError) as refused:
        act(table, class_a.student.user, action)
    assert refused.value.code == "archived"
    with translation.override("en"):
        assert str(refused.value.message) == ARCHIVED_EN
    assert snapshot() == before
    assert Attempt.objects.count() == 1
    assert not MissedEquivalence.objects.exists()
    assert Table.objects.get(pk=table.pk).state_id == state_before
    assert not TableEvent.objects.filter(table=table).exists()


def test_a_pupil_signed_in_after_the_archive_starts_no_free_practice(
    class_a: ClassWorld,
) -> None:
    _archive(class_a)
    pupil = _signed_in_after_the_archive(class_a)
    before = snapshot()
    for ruleset in ("fractions", "classic"):
        page = pupil.post(
            reverse("games:practice"), {"ruleset": ruleset, "bots": 1, "bot": "heuristic"}
        )
        assert page.status_code == 200
        assert ARCHIVED_EN in page.content.decode()
    assert not Table.objects.exists()
    assert snapshot() == before


def test_the_pupil_of_a_class_not_archived_still_starts_free_practice(
    class_a: ClassWorld,
) -> None:
    pupil = signed_in_client(class_a.student.user, "en")
    page = pupil.post(
        reverse("games:practice"), {"ruleset": "fractions", "bots": 1, "bot": "heuristic"}
    )
    assert page.status_code == 302
    assert Table.objects.count() == 1


@pytest.mark.parametrize("with_warmup", [False, True])
def test_a_pupil_signed_in_after_the_archive_starts_no_assigned_practice(
    class_a: ClassWorld, with_warmup: bool
) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, days=3)
    if with_warmup:
        type(assignment).objects.filter(pk=assignment.pk).update(warmup=True)
    _archive(class_a)
    pupil = _signed_in_after_the_archive(class_a)
    before = snapshot()
    answer = pupil.post(reverse("practice_play", args=[assignment.pk]), follow=True)
    assert ARCHIVED_EN in answer.content.decode()
    assert snapshot() == before
    assert not PracticeTable.objects.exists()
    assert not WarmupRound.objects.exists()


def test_a_warm_up_answer_of_an_archived_class_is_refused(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    (round_,) = warmup.warmup_recheck(
        teacher=class_a.teacher, classroom=class_a.classroom, students=[anais.pk]
    )
    warmup.warmup_begin(student=anais, warmup_id=round_.pk)
    round_.refresh_from_db()
    item = round_.item
    assert isinstance(item, dict)
    _archive(class_a)
    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        warmup.warmup_answer(
            student=anais,
            warmup_id=round_.pk,
            item_number=1,
            choice=str(item["options"][0]),
        )
    assert refused.value.code == "archived"
    with pytest.raises(ValidationError) as begun:
        warmup.warmup_begin(student=anais, warmup_id=round_.pk)
    assert begun.value.code == "archived"
    assert snapshot() == before
    assert not Attempt.objects.exists()


async def test_the_table_socket_refuses_the_move_with_the_archived_message(
    class_a: ClassWorld,
) -> None:
    table = await database_sync_to_async(_table_dealt_before_the_archive)(class_a)
    await database_sync_to_async(_archive)(class_a)
    # A sign-in made after the archive: the socket opens (its session is current).
    fresh = await database_sync_to_async(User.objects.get)(pk=class_a.student.user.pk)
    comm = await socket(table.pk, fresh)
    connected, _code = await comm.connect()
    assert connected
    state = await receive_until(comm, "state")
    await comm.send_json_to(
        {
            "type": "action",
            "state_id": state["state_id"],
            "action": {"type": "play", "card": "4/12j", "claim": "equal"},
        }
    )
    error = await receive_until(comm, "error")
    await comm.disconnect()
    assert error["code"] == "archived"
    assert error["message"] == ARCHIVED_EN
    assert await database_sync_to_async(Attempt.objects.count)() == 1
