"""Co-teachers see and run everything of a class, cannot archive or share it; ownership moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from games.services import SeatSpec, table_create
from lessons.attempts.hooks import teacher_may_watch
from lessons.models import Classroom
from lessons.sessions.selectors import session_for_teacher
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.support.factories import make_teacher, signed_in_client
from tests.support.responses import page_text, snapshot

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse


pytestmark = pytest.mark.django_db


def _share(world: ClassWorld, username: str) -> ClientResponse:
    url = reverse("co_teacher_add", args=[world.classroom.pk])
    return signed_in_client(world.teacher, "en").post(url, {"username": username})


def test_co_teacher_sees_and_runs_the_class_everywhere(class_a: ClassWorld) -> None:
    co = make_teacher(username="colleague")
    assert _share(class_a, "colleague").status_code == 302
    client = signed_in_client(co, "en")
    assert "Classe A" in page_text(client.get(reverse("home")))
    pk = class_a.classroom.pk
    for name in ("classroom_detail", "classroom_cards", "dashboard_class", "session_new"):
        assert client.get(reverse(name, args=[pk])).status_code == 200, name
    response = client.post(reverse("classroom_roster", args=[pk]), {"names": "Zoé"})
    assert response.status_code == 302
    session = session_start(teacher=co, classroom=class_a.classroom)
    assert session_for_teacher(teacher=co, session_id=session.pk) == session
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="AnaïsA", user_id=class_a.student.user.pk),
            SeatSpec(name="B", bot="heuristic"),
        ],
        seed=1,
    )
    assert teacher_may_watch(co, table)
    assert not teacher_may_watch(make_teacher(username="stranger"), table)


def test_co_teacher_cannot_archive_share_or_hand_over(class_a: ClassWorld) -> None:
    co = make_teacher(username="colleague")
    make_teacher(username="third")
    _share(class_a, "colleague")
    client = signed_in_client(co, "en")
    before = snapshot()
    pk = class_a.classroom.pk
    client.post(reverse("classroom_archive", args=[pk]))
    client.post(reverse("co_teacher_add", args=[pk]), {"username": "third"})
    client.post(reverse("classroom_transfer", args=[pk]), {"username": "colleague"})
    client.post(reverse("co_teacher_remove", args=[pk]), {"teacher": class_a.teacher.pk})
    assert snapshot() == before
    classroom = Classroom.objects.get(pk=pk)
    assert classroom.archived_at is None and classroom.teacher == class_a.teacher
    assert list(classroom.co_teachers.values_list("username", flat=True)) == ["colleague"]


def test_co_teacher_may_leave_and_then_sees_nothing(class_a: ClassWorld) -> None:
    co = make_teacher(username="colleague")
    _share(class_a, "colleague")
    client = signed_in_client(co, "en")
    client.post(reverse("co_teacher_remove", args=[class_a.classroom.pk]), {"teacher": co.pk})
    assert client.get(reverse("classroom_detail", args=[class_a.classroom.pk])).status_code == 404


def test_transfer_makes_the_old_owner_a_co_teacher(class_a: ClassWorld) -> None:
    new_owner = make_teacher(username="colleague")
    url = reverse("classroom_transfer", args=[class_a.classroom.pk])
    assert (
        signed_in_client(class_a.teacher, "en").post(url, {"username": "colleague"}).status_code
        == 302
    )
    classroom = Classroom.objects.get(pk=class_a.classroom.pk)
    assert classroom.teacher == new_owner
    assert list(classroom.co_teachers.all()) == [class_a.teacher]
    # The old owner still runs the class but may no longer archive it.
    signed_in_client(class_a.teacher, "en").post(reverse("classroom_archive", args=[classroom.pk]))
    assert Classroom.objects.get(pk=classroom.pk).archived_at is None


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("", "No teacher of this school has this username."),
        ("nobody", "No teacher of this school has this username."),
        ("teacher_A", "teacher_A already teaches this class."),
    ],
)
def test_bad_share_changes_nothing(class_a: ClassWorld, username: str, message: str) -> None:
    before = snapshot()
    client = signed_in_client(class_a.teacher, "en")
    url = reverse("co_teacher_add", args=[class_a.classroom.pk])
    response = client.post(url, {"username": username}, follow=True)
    assert message in page_text(response)
    assert snapshot() == before
    assert not class_a.classroom.co_teachers.exists()


def test_a_student_account_or_deactivated_teacher_cannot_be_added(class_a: ClassWorld) -> None:
    _share(class_a, class_a.student.user.username)
    gone = make_teacher(username="gone")
    gone.is_active = False
    gone.save()
    _share(class_a, "gone")
    assert not class_a.classroom.co_teachers.exists()


@pytest.mark.parametrize("teacher", ["", "abc", "-3", "99999", "²", "١", "٣", "1²"])
def test_bad_remove_changes_nothing(class_a: ClassWorld, teacher: str) -> None:
    before = snapshot()
    url = reverse("co_teacher_remove", args=[class_a.classroom.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"teacher": teacher}, follow=True)
    assert response.redirect_chain[0][1] == 302
    assert "This teacher is not a co-teacher of the class." in page_text(response)
    assert snapshot() == before


def test_a_co_teacher_cannot_hand_the_class_to_a_third_teacher(class_a: ClassWorld) -> None:
    co = make_teacher(username="colleague")
    third = make_teacher(username="third")  # a real, active teacher: only the owner check stops it
    _share(class_a, "colleague")
    before = snapshot()
    url = reverse("classroom_transfer", args=[class_a.classroom.pk])
    response = signed_in_client(co, "en").post(url, {"username": "third"}, follow=True)
    assert "Only the class's owner can share it or hand it over." in page_text(response)
    assert snapshot() == before
    classroom = Classroom.objects.get(pk=class_a.classroom.pk)
    assert classroom.teacher == class_a.teacher
    assert list(classroom.co_teachers.all()) == [co]
    assert third not in classroom.co_teachers.all()
