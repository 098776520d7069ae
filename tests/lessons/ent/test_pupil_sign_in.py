"""A pupil signs in with the ENT: linked, they land in their class; else "ask your teacher"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lessons.classrooms import services
from lessons.models import EntIdentity, EntSeenPupil, User
from lessons.pupils.changes import student_move, student_remove
from lessons.school.class_years import classroom_archive
from tests.conftest import ClassWorld
from tests.lessons.ent.helpers import (
    make_connector,
    make_link,
    pupil_profile,
    pupil_sign_in,
)
from tests.support.factories import make_classroom, signed_in_client

pytestmark = pytest.mark.django_db


def test_a_linked_pupil_lands_in_their_class_without_code_or_pin(class_a: ClassWorld) -> None:
    connector = make_connector()
    student = class_a.student.student
    make_link(connector, "ent-1", student)
    response, request = pupil_sign_in(connector, pupil_profile("ent-1", "ANAÏS Dupont"))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert request.user == student.user
    assert int(request.session["_auth_user_id"]) == student.user_id
    assert response.cookies["django_language"].value == class_a.classroom.language
    assert not EntSeenPupil.objects.exists()  # a linked pupil leaves no waiting record


def test_an_unlinked_pupil_is_asked_to_see_their_teacher_and_nothing_else(
    class_a: ClassWorld,
) -> None:
    connector = make_connector()
    response, request = pupil_sign_in(
        connector, pupil_profile("ent-9", "MARTIN Léa", ("0123456X$Classe A",))
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Demande à ton enseignant" in page
    # Nothing of any class or pupil: not the ENT's class, not a class of the app, not a name.
    for secret in ("Classe A", "AnaïsA", "BasileA", class_a.classroom.join_code, "MARTIN"):
        assert secret not in page
    assert not request.user.is_authenticated
    seen = EntSeenPupil.objects.get()
    assert (seen.external_id, seen.display_name, seen.classes) == (
        "ent-9",
        "MARTIN Léa",
        ["0123456X$Classe A"],
    )


def test_a_second_visit_refreshes_the_waiting_record(db: None) -> None:
    connector = make_connector()
    pupil_sign_in(connector, pupil_profile("ent-9", "MARTIN Léa", ("CM1",)))
    pupil_sign_in(connector, pupil_profile("ent-9", "MARTIN Léa", ("CM2",)))
    assert list(EntSeenPupil.objects.values_list("classes", flat=True)) == [["CM2"]]


def test_a_moved_pupil_keeps_their_link_and_lands_in_the_new_class(class_a: ClassWorld) -> None:
    connector = make_connector()
    student = class_a.student.student
    make_link(connector, "ent-1", student)
    other = make_classroom(teacher=class_a.teacher, name="Classe nouvelle")
    student_move(student=student, to=other)
    response, request = pupil_sign_in(connector, pupil_profile("ent-1", "Anaïs"))
    assert response.status_code == 302
    assert isinstance(request.user, User)
    home = signed_in_client(request.user).get(reverse("home"))
    assert "Classe nouvelle" in home.content.decode()


def test_a_pupil_of_an_archived_class_waits_for_the_new_teacher(class_a: ClassWorld) -> None:
    connector = make_connector()
    make_link(connector, "ent-1", class_a.student.student)
    classroom_archive(classroom=class_a.classroom, by=class_a.teacher)
    response, request = pupil_sign_in(connector, pupil_profile("ent-1", "Anaïs", ("CM2",)))
    assert response.status_code == 200 and not request.user.is_authenticated
    assert EntSeenPupil.objects.filter(external_id="ent-1").exists()


def test_a_removed_pupil_cannot_sign_in_with_the_ent(class_a: ClassWorld) -> None:
    connector = make_connector()
    make_link(connector, "ent-1", class_a.student.student)
    student_remove(student=class_a.student.student, mode="pseudonymise")
    assert not EntIdentity.objects.exists()  # removing a pupil removes their link
    response, request = pupil_sign_in(connector, pupil_profile("ent-1", "Anaïs"))
    assert response.status_code == 200 and not request.user.is_authenticated


def test_an_erased_pupil_leaves_no_link_nor_waiting_record(class_a: ClassWorld) -> None:
    connector = make_connector()
    make_link(connector, "ent-1", class_a.student.student)
    # The same ENT account also waiting (it signed in while unlinked once).
    EntSeenPupil.objects.create(connector=connector, external_id="ent-1", display_name="X")
    student_remove(student=class_a.student.student, mode="erase")
    assert not EntIdentity.objects.exists()
    assert not EntSeenPupil.objects.exists()


def test_an_ent_pupil_linked_to_a_teacher_account_is_refused(class_a: ClassWorld) -> None:
    connector = make_connector()
    EntIdentity.objects.create(connector=connector, external_id="ent-t", user=class_a.teacher)
    response, request = pupil_sign_in(connector, pupil_profile("ent-t", "Qui"))
    assert response.status_code == 403 and not request.user.is_authenticated


def test_the_join_page_has_one_ent_button_per_enabled_connector(db: None) -> None:
    from django.test import Client

    page = Client().get(reverse("join")).content.decode()
    assert "ENT" not in page  # no ENT: the PIN sign-in alone
    one = make_connector(name="ONE")
    page = Client().get(reverse("join")).content.decode()
    assert reverse("ent_login", args=[one.pk]) in page
    assert "Se connecter avec l’ENT" in page
    two = make_connector(name="Skolengo")
    off = make_connector(name="Fermé")
    off.enabled = False
    off.save()
    page = Client().get(reverse("join")).content.decode()
    assert reverse("ent_login", args=[two.pk]) in page and "Skolengo" in page
    assert reverse("ent_login", args=[off.pk]) not in page
    # The PIN sign-in stays.
    assert 'name="code"' in page


def test_pin_sign_in_still_works_beside_the_ent(class_a: ClassWorld) -> None:
    from django.test import Client

    make_connector()
    client = Client()
    code = class_a.classroom.join_code
    response = client.post(
        reverse("join_pin", args=[code, class_a.student.student.pk]),
        {"pin": class_a.student.pin},
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert services is not None


def test_a_new_school_year_carries_the_links_to_the_new_class(class_a: ClassWorld) -> None:
    from lessons.models import EntLinkEvent
    from lessons.school.class_years import classroom_new_year

    connector = make_connector()
    make_link(connector, "ent-1", class_a.student.student)
    classroom_archive(classroom=class_a.classroom, by=class_a.teacher)
    new, _issued = classroom_new_year(
        source=class_a.classroom, by=class_a.teacher, name="CM2 2027", grade="CM2"
    )
    response, request = pupil_sign_in(connector, pupil_profile("ent-1", "Anaïs"))
    assert response.status_code == 302
    assert isinstance(request.user, User)
    assert request.user.student.classroom == new
    assert request.user.student.display_name == class_a.student.student.display_name
    event = EntLinkEvent.objects.get()
    assert (event.action, event.classroom, event.by) == ("carried", new, class_a.teacher)
    assert not EntSeenPupil.objects.exists()
