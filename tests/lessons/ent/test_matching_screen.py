"""A class's ENT matching screen: proposals, homonyms by hand, one click, unlink, audit, and
every form's bad input refused with nothing changed.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from lessons.classrooms.co_teachers import co_teacher_add
from lessons.ent.links import LINK_ID_TAKEN, PupilLink, pupil_unlink, pupils_link
from lessons.models import Classroom, EntClassName, EntIdentity, EntLinkEvent, EntSeenPupil
from lessons.school.class_years import classroom_archive
from tests.conftest import ClassWorld
from tests.lessons.ent.helpers import make_connector, make_link, make_seen
from tests.support.factories import (
    make_classroom,
    make_students,
    make_teacher,
    teacher_client,
)

pytestmark = pytest.mark.django_db


def _class(class_a: ClassWorld) -> Classroom:
    make_students(classroom=class_a.classroom, names=["Inès Benali", "Léa M.", "Maël"])
    return class_a.classroom


def _url(name: str, classroom: Classroom) -> str:
    return reverse(name, args=[classroom.pk])


def _pupil(classroom: Classroom, name: str) -> int:
    return int(classroom.students.get(display_name=name).pk)


def _form_state(page: str, seen_pk: int) -> tuple[bool, str]:
    """Return whether a row's box is ticked and which pupil its list has selected."""
    box = re.search(rf'<input type="checkbox" name="link_{seen_pk}"[^>]*>', page)
    assert box is not None
    select = re.search(rf'<select name="pupil_{seen_pk}".*?</select>', page, re.S)
    assert select is not None
    chosen = re.search(r'<option value="(\d*)" selected>', select.group(0))
    return "checked" in box.group(0), chosen.group(1) if chosen else ""


def test_exact_matches_are_ticked_near_ones_proposed_homonyms_left_to_the_teacher(
    class_a: ClassWorld,
) -> None:
    classroom = _class(class_a)
    connector = make_connector()
    ines = make_seen(connector, "e1", "BENALI Inès", [f"0123456X${classroom.name}"])
    mael = make_seen(connector, "e2", "DUPONT Maël", [classroom.name])
    lea1 = make_seen(connector, "e3", "MARTIN Léa", [classroom.name])
    lea2 = make_seen(connector, "e4", "MOREAU Léa", [classroom.name])
    elsewhere = make_seen(connector, "e5", "DURAND Zoé", ["Autre classe"])
    page = teacher_client(class_a.teacher).get(_url("ent_matching", classroom)).content.decode()
    assert _form_state(page, ines.pk) == (True, str(_pupil(classroom, "Inès Benali")))
    assert _form_state(page, mael.pk) == (False, str(_pupil(classroom, "Maël")))
    assert _form_state(page, lea1.pk) == (False, "")
    assert _form_state(page, lea2.pk) == (False, "")
    assert "DURAND" not in page and f"link_{elsewhere.pk}" not in page  # another class's


def test_one_click_links_the_ticked_and_the_pupil_then_lands(class_a: ClassWorld) -> None:
    classroom = _class(class_a)
    connector = make_connector()
    ines = make_seen(connector, "e1", "BENALI Inès", [classroom.name])
    lea1 = make_seen(connector, "e3", "MARTIN Léa", [classroom.name])
    lea2 = make_seen(connector, "e4", "MOREAU Léa", [classroom.name])
    client = teacher_client(class_a.teacher)
    lea = _pupil(classroom, "Léa M.")
    response = client.post(
        _url("ent_matching_link", classroom),
        {
            "rows": f"{ines.pk},{lea1.pk},{lea2.pk}",
            f"link_{ines.pk}": "on",
            f"pupil_{ines.pk}": _pupil(classroom, "Inès Benali"),
            f"link_{lea2.pk}": "on",  # the teacher decides the homonym
            f"pupil_{lea2.pk}": lea,
        },
    )
    assert response.status_code == 302
    links = dict(EntIdentity.objects.values_list("external_id", "user__student__display_name"))
    assert links == {"e1": "Inès Benali", "e4": "Léa M."}
    assert set(EntSeenPupil.objects.values_list("external_id", flat=True)) == {"e3"}
    assert EntIdentity.objects.get(external_id="e4").linked_by == class_a.teacher
    assert EntLinkEvent.objects.filter(action="linked", by=class_a.teacher).count() == 2
    page = client.get(_url("ent_matching", classroom)).content.decode()
    assert "teacher_A" in page  # who linked, on the screen


def _post_link(client: Client, classroom: Classroom, data: dict[str, object]) -> str:
    response = client.post(_url("ent_matching_link", classroom), data)
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        return str(client.get(response["Location"]).content.decode())
    return str(response.content.decode())


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("stale_rows", "a changé"),
        ("no_pupil", "Choisis"),
        ("bad_pupil", "Sélectionnez un choix valide"),
        ("nothing", "Coche"),
        ("twice", "plus d’un compte"),
        ("other_class_pupil", "Sélectionnez un choix valide"),
    ],
)
def test_bad_link_input_is_refused_with_a_clear_message_and_nothing_changes(
    class_a: ClassWorld, class_b: ClassWorld, case: str, message: str
) -> None:
    classroom = _class(class_a)
    connector = make_connector()
    a = make_seen(connector, "e1", "BENALI Inès", [classroom.name])
    b = make_seen(connector, "e2", "DUPONT Maël", [classroom.name])
    ines = _pupil(classroom, "Inès Benali")
    rows = f"{a.pk},{b.pk}"
    cases: dict[str, dict[str, object]] = {
        "stale_rows": {"rows": f"{a.pk}", f"link_{a.pk}": "on", f"pupil_{a.pk}": ines},
        "no_pupil": {"rows": rows, f"link_{a.pk}": "on", f"pupil_{a.pk}": ""},
        "bad_pupil": {"rows": rows, f"link_{a.pk}": "on", f"pupil_{a.pk}": "x'; --"},
        "nothing": {"rows": rows, f"pupil_{a.pk}": ines},
        "twice": {
            "rows": rows,
            f"link_{a.pk}": "on",
            f"pupil_{a.pk}": ines,
            f"link_{b.pk}": "on",
            f"pupil_{b.pk}": ines,
        },
        "other_class_pupil": {
            "rows": rows,
            f"link_{a.pk}": "on",
            f"pupil_{a.pk}": class_b.student.student.pk,
        },
    }
    page = _post_link(teacher_client(class_a.teacher), classroom, cases[case])
    assert message in page
    assert not EntIdentity.objects.exists() and not EntLinkEvent.objects.exists()
    assert EntSeenPupil.objects.count() == 2


def test_an_ent_id_linked_to_a_present_pupil_elsewhere_is_refused(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    connector = make_connector()
    make_link(connector, "e1", class_b.student.student)
    with pytest.raises(Exception) as error:
        pupils_link(
            classroom=class_a.classroom,
            links=[PupilLink(class_a.student.student, connector, "e1")],
            by=class_a.teacher,
        )
    assert str(LINK_ID_TAKEN) % {"name": class_a.student.student.display_name} in str(error.value)
    assert EntIdentity.objects.get().user == class_b.student.user


def test_a_link_left_on_an_archived_class_gives_way(class_a: ClassWorld) -> None:
    connector = make_connector()
    make_link(connector, "e1", class_a.student.student)
    classroom_archive(classroom=class_a.classroom, by=class_a.teacher)
    new = make_classroom(teacher=class_a.teacher, name="CM2 2027")
    (pupil,) = make_students(classroom=new, names=["Anaïs"])
    pupils_link(
        classroom=new, links=[PupilLink(pupil.student, connector, "e1")], by=class_a.teacher
    )
    assert EntIdentity.objects.get().user == pupil.student.user


def test_unlinking_is_audited_and_the_pupil_waits_again(class_a: ClassWorld) -> None:
    connector = make_connector()
    student = class_a.student.student
    make_link(connector, "e1", student)
    client = teacher_client(class_a.teacher)
    response = client.post(_url("ent_matching_unlink", class_a.classroom), {"student": student.pk})
    assert response.status_code == 302
    assert not EntIdentity.objects.exists()
    event = EntLinkEvent.objects.get()
    assert (event.action, event.by, event.student) == ("unlinked", class_a.teacher, student)


@pytest.mark.parametrize("value", ["", "abc", "999999", "-1"])
def test_bad_unlink_input_changes_nothing(class_a: ClassWorld, value: str) -> None:
    connector = make_connector()
    make_link(connector, "e1", class_a.student.student)
    response = teacher_client(class_a.teacher).post(
        _url("ent_matching_unlink", class_a.classroom), {"student": value}
    )
    assert response.status_code == 200
    assert "Sélectionnez un choix valide" in response.content.decode() or value == ""
    assert EntIdentity.objects.count() == 1


def test_an_unlinked_pupil_of_the_class_cannot_be_unlinked(class_a: ClassWorld) -> None:
    response = teacher_client(class_a.teacher).post(
        _url("ent_matching_unlink", class_a.classroom), {"student": class_a.student.student.pk}
    )
    assert response.status_code == 200
    assert not EntLinkEvent.objects.exists()


def test_the_teacher_names_the_class_in_the_ent(class_a: ClassWorld) -> None:
    connector = make_connector()
    waiting = make_seen(connector, "e1", "ANAÏSA Dupont", ["0123456X$CM2 B"])
    client = teacher_client(class_a.teacher)
    url = _url("ent_matching", class_a.classroom)
    assert f"link_{waiting.pk}" not in client.get(url).content.decode()
    response = client.post(
        _url("ent_matching_classes", class_a.classroom), {"names": ["0123456X$CM2 B"]}
    )
    assert response.status_code == 302
    assert f"link_{waiting.pk}" in client.get(url).content.decode()
    bad = client.post(_url("ent_matching_classes", class_a.classroom), {"names": ["6e Z"]})
    assert bad.status_code == 200
    assert list(EntClassName.objects.values_list("name", flat=True)) == ["0123456X$CM2 B"]


def test_a_co_teacher_may_link_another_teacher_may_not(class_a: ClassWorld) -> None:
    connector = make_connector()
    seen = make_seen(connector, "e1", "ANAÏSA Dupont", [class_a.classroom.name])
    colleague = make_teacher(username="collegue")
    stranger = make_teacher(username="autre")
    co_teacher_add(classroom=class_a.classroom, by=class_a.teacher, username="collegue")
    data = {
        "rows": str(seen.pk),
        f"link_{seen.pk}": "on",
        f"pupil_{seen.pk}": class_a.student.student.pk,
    }
    url = _url("ent_matching_link", class_a.classroom)
    assert teacher_client(stranger).post(url, data).status_code == 404
    assert teacher_client(stranger).get(_url("ent_matching", class_a.classroom)).status_code == 404
    assert not EntIdentity.objects.exists()
    assert teacher_client(colleague).post(url, data).status_code == 302
    assert EntIdentity.objects.get().linked_by == colleague


def test_an_archived_class_shows_its_links_but_changes_none(class_a: ClassWorld) -> None:
    connector = make_connector()
    make_link(connector, "e1", class_a.student.student)
    seen = make_seen(connector, "e2", "BASILEA Dupont", [class_a.classroom.name])
    classroom_archive(classroom=class_a.classroom, by=class_a.teacher)
    client = teacher_client(class_a.teacher)
    assert client.get(_url("ent_matching", class_a.classroom)).status_code == 200
    data = {
        "rows": str(seen.pk),
        f"link_{seen.pk}": "on",
        f"pupil_{seen.pk}": class_a.other_student.student.pk,
    }
    client.post(_url("ent_matching_link", class_a.classroom), data)
    client.post(
        _url("ent_matching_unlink", class_a.classroom), {"student": class_a.student.student.pk}
    )
    assert list(EntIdentity.objects.values_list("external_id", flat=True)) == ["e1"]
    assert not EntLinkEvent.objects.exists()


def test_the_unlink_service_refuses_an_archived_class_whatever_calls_it(
    class_a: ClassWorld,
) -> None:
    """The service itself, not only the page: an archived class's links are read-only."""
    connector = make_connector()
    make_link(connector, "e1", class_a.student.student)
    classroom_archive(classroom=class_a.classroom, by=class_a.teacher)
    archived = Classroom.objects.get(pk=class_a.classroom.pk)
    with pytest.raises(ValidationError) as refused:
        pupil_unlink(classroom=archived, student=class_a.student.student, by=class_a.teacher)
    assert refused.value.code == "archived"
    assert list(EntIdentity.objects.values_list("external_id", flat=True)) == ["e1"]


def test_the_screen_and_the_join_button_read_in_english_too(class_a: ClassWorld) -> None:
    from tests.support.factories import signed_in_client

    connector = make_connector()
    make_seen(connector, "e1", "DUPONT AnaïsA", [class_a.classroom.name])
    page = signed_in_client(class_a.teacher, "en").get(_url("ent_matching", class_a.classroom))
    text = page.content.decode()
    assert "ENT pupils waiting" in text and "Close: first name only" in text
    french = teacher_client(class_a.teacher).get(_url("ent_matching", class_a.classroom))
    assert "Élèves ENT en attente" in french.content.decode()
    join = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("join")).content.decode()
    assert "Sign in with the ENT" in join


def test_another_ent_account_with_a_linked_pupils_name_is_never_proposed(
    class_a: ClassWorld,
) -> None:
    classroom = _class(class_a)
    connector = make_connector()
    ines = classroom.students.get(display_name="Inès Benali")
    make_link(connector, "e-real", ines)
    other = make_seen(connector, "e-other", "BENALI Inès", [classroom.name])
    client = teacher_client(class_a.teacher)
    page = client.get(_url("ent_matching", classroom)).content.decode()
    assert _form_state(page, other.pk) == (False, "")
    assert f'<option value="{ines.pk}"' not in page  # a linked pupil is not offered again
    data = {"rows": str(other.pk), f"link_{other.pk}": "on", f"pupil_{other.pk}": ines.pk}
    client.post(_url("ent_matching_link", classroom), data)
    assert EntIdentity.objects.get().external_id == "e-real"


@pytest.mark.parametrize("value", ["6e Z", "", "x" * 500, "CM2 B\x00", "<script>"])
def test_bad_ent_class_names_are_refused_and_nothing_changes(
    class_a: ClassWorld, value: str
) -> None:
    connector = make_connector()
    make_seen(connector, "e1", "ANAÏSA Dupont", ["CM2 B"])
    EntClassName.objects.create(classroom=class_a.classroom, name="CM2 B")
    response = teacher_client(class_a.teacher).post(
        _url("ent_matching_classes", class_a.classroom), {"names": ["CM2 B", value]}
    )
    assert response.status_code == 200
    assert "Sélectionnez un choix valide" in response.content.decode()
    assert list(EntClassName.objects.values_list("name", flat=True)) == ["CM2 B"]
