"""Other teachers' ENT pupils (issue 32 §2), through the teachers' pages: a teacher sees and
links only the waiting pupils of ENT classes no other teacher's active class takes (unless they
teach it too); choosing an ENT class another teacher's class takes is refused (the school admin
gives it); a class list's ENT id links only a pupil waiting in this class's ENT classes; a
class's teachers are told when one of its ENT pupils is linked in another class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from lessons.classrooms.co_teachers import co_teacher_add
from lessons.ent.links import class_name_give, class_names_set, seen_link
from lessons.models import (
    Classroom,
    EntClassName,
    EntConnector,
    EntIdentity,
    EntLinkEvent,
    EntSeenPupil,
    User,
)
from lessons.school.class_years import classroom_archive
from tests.lessons.ent.helpers import make_connector, make_seen
from tests.support.factories import make_classroom, make_students, make_teacher, signed_in_client
from tests.support.responses import page_text

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse

pytestmark = pytest.mark.django_db

ENT_CLASS = "0751234A$CM2 A"


def _matching(client: Client, classroom: Classroom) -> str:
    response = client.get(reverse("ent_matching", args=[classroom.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _world() -> tuple[EntConnector, User, Classroom, EntSeenPupil]:
    """The real teacher's class CM2 A, and Léa Martin waiting in the ENT class CM2 A."""
    connector = make_connector()
    owner = make_teacher(username="vraie")
    classroom = make_classroom(teacher=owner, name="CM2 A")
    make_students(classroom=classroom, names=["Léa Martin"])
    lea = make_seen(connector, "ent-lea", "MARTIN Léa", [ENT_CLASS])
    return connector, owner, classroom, lea


def _links() -> list[tuple[str, int]]:
    return sorted(EntIdentity.objects.values_list("external_id", "user_id"))


def test_another_teacher_cannot_choose_a_class_another_teachers_class_takes() -> None:
    _connector, owner, classroom, lea = _world()
    intruder = make_teacher(username="intrus")
    theirs = make_classroom(teacher=intruder, name="Mes élèves")
    make_students(classroom=theirs, names=["Léa Martin"])
    client = signed_in_client(intruder, "en")
    page = _matching(client, theirs)
    assert ENT_CLASS not in page and "MARTIN Léa" not in page
    # Posting the name anyway: refused, nothing chosen, nothing shown.
    posted = client.post(reverse("ent_matching_classes", args=[theirs.pk]), {"names": [ENT_CLASS]})
    assert posted.status_code == 200  # the form again (the name is no choice of it)
    assert not EntClassName.objects.exists()
    with pytest.raises(ValidationError) as refused:
        class_names_set(classroom=theirs, names=[ENT_CLASS], by=intruder)
    assert "only the school admin" in " ".join(refused.value.messages)
    # And linking the row by its id: refused, nothing linked.
    with pytest.raises(ValidationError):
        seen_link(classroom=theirs, choices={lea.pk: theirs.students.get()}, by=intruder)
    assert _links() == [] and EntSeenPupil.objects.filter(pk=lea.pk).exists()
    # The real teacher still sees Léa waiting.
    assert "MARTIN Léa" in _matching(signed_in_client(owner, "en"), classroom)


def test_a_class_named_like_another_teachers_hides_the_pupils_from_both() -> None:
    _connector, owner, classroom, lea = _world()
    intruder = make_teacher(username="intrus")
    twin = make_classroom(teacher=intruder, name="CM2-A")  # takes the ENT class by its name
    make_students(classroom=twin, names=["Léa Martin"])
    intruder_client = signed_in_client(intruder, "en")
    page = _matching(intruder_client, twin)
    assert "MARTIN Léa" not in page
    assert "until the school admin gives" in page and ENT_CLASS in page
    rows = {"rows": str(lea.pk), f"link_{lea.pk}": "on", f"pupil_{lea.pk}": "1"}
    posted = intruder_client.post(reverse("ent_matching_link", args=[twin.pk]), rows)
    assert posted.status_code == 200  # the form's rows no longer match: refused
    assert _links() == []
    owner_page = _matching(signed_in_client(owner, "en"), classroom)
    assert "MARTIN Léa" not in owner_page and "until the school admin gives" in owner_page


def test_a_teacher_of_both_classes_sees_the_pupils_in_both() -> None:
    _connector, owner, classroom, _lea = _world()
    other = make_classroom(teacher=owner, name="CM2 A bis")
    EntClassName.objects.create(classroom=other, name=ENT_CLASS)
    client = signed_in_client(owner, "en")
    assert "MARTIN Léa" in _matching(client, classroom)
    assert "MARTIN Léa" in _matching(client, other)
    # A co-teacher of the other teacher's class too.
    colleague = make_teacher(username="collegue")
    theirs = make_classroom(teacher=colleague, name="CM2 A")
    assert "MARTIN Léa" not in _matching(client, classroom)  # now contested
    co_teacher_add(classroom=theirs, by=colleague, username="vraie")
    assert "MARTIN Léa" in _matching(client, classroom)
    assert "MARTIN Léa" not in _matching(signed_in_client(colleague, "en"), theirs)


def test_an_archived_class_takes_nothing() -> None:
    _connector, owner, classroom, _lea = _world()
    last_year_teacher = make_teacher(username="ancien")
    last_year = make_classroom(teacher=last_year_teacher, name="CM2 A")
    classroom_archive(classroom=last_year, by=last_year_teacher)
    assert "MARTIN Léa" in _matching(signed_in_client(owner, "en"), classroom)


def test_the_school_admin_gives_a_contested_class_to_one_class() -> None:
    _connector, owner, classroom, lea = _world()
    intruder = make_teacher(username="intrus")
    twin = make_classroom(teacher=intruder, name="CM2 A")
    admin = make_teacher(username="direction")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    admin.refresh_from_db()
    admin_client = signed_in_client(admin, "en")
    page = admin_client.get(reverse("school_ent_classes"))
    assert page.status_code == 200 and "Taken by several classes" in page_text(page)
    # Only the school admin: a teacher is refused.
    for who in (owner, intruder):
        forged = signed_in_client(who).post(
            reverse("school_ent_class_give"), {"name": ENT_CLASS, "classroom": str(twin.pk)}
        )
        assert forged.status_code in {302, 403, 404}
    assert not EntClassName.objects.exists()
    for bad in [
        {"name": "unknown", "classroom": str(classroom.pk)},
        {"name": ENT_CLASS, "classroom": "x"},
    ]:
        assert admin_client.post(reverse("school_ent_class_give"), bad).status_code == 400
    assert not EntClassName.objects.exists()
    given = admin_client.post(
        reverse("school_ent_class_give"), {"name": ENT_CLASS, "classroom": str(classroom.pk)}
    )
    assert given.status_code == 302
    assert "MARTIN Léa" in _matching(signed_in_client(owner, "en"), classroom)
    assert "MARTIN Léa" not in _matching(signed_in_client(intruder, "en"), twin)
    # Taken back: contested again.
    admin_client.post(reverse("school_ent_class_give"), {"name": ENT_CLASS, "classroom": ""})
    assert "MARTIN Léa" not in _matching(signed_in_client(owner, "en"), classroom)
    assert lea.pk and not EntClassName.objects.exists()


def _upload(client: Client, classroom: Classroom, text: str) -> ClientResponse:
    data = {"file": SimpleUploadedFile("classe.csv", text.encode(), "text/csv")}
    return client.post(reverse("classroom_import", args=[classroom.pk]), data)


def test_an_imported_ent_id_links_only_a_pupil_waiting_in_this_class() -> None:
    _connector, owner, classroom, _lea = _world()
    intruder = make_teacher(username="intrus")
    theirs = make_classroom(teacher=intruder, name="Mes élèves")
    client = signed_in_client(intruder, "en")
    for ent_id in ("ent-lea", "ent-nobody"):
        response = _upload(client, theirs, f"Prénom;identifiant ENT\nLéa;{ent_id}\n")
        assert response.status_code == 200
        assert f"No ENT pupil with the id “{ent_id}”" in page_text(response)
        client.post(reverse("classroom_import_confirm", args=[theirs.pk]))
        assert _links() == [] and not theirs.students.exists()
    # The real teacher's file links her waiting pupil.
    owner_client = signed_in_client(owner, "en")
    _upload(owner_client, classroom, "Prénom;identifiant ENT\nLéa Martin;ent-lea\n")
    assert (
        owner_client.post(reverse("classroom_import_confirm", args=[classroom.pk])).status_code
        == 302
    )
    assert [ent_id for ent_id, _user in _links()] == ["ent-lea"]


def test_the_classs_teachers_are_told_when_one_of_its_pupils_is_linked_elsewhere() -> None:
    connector, owner, classroom, _lea = _world()
    english = make_teacher(username="anglais")
    group = make_classroom(teacher=english, name="Anglais 2")
    make_students(classroom=group, names=["Léa M."])
    both = make_seen(connector, "ent-both", "MARTIN Léa", [ENT_CLASS, "Anglais 2"])
    english_client = signed_in_client(english, "en")
    assert "MARTIN Léa" in _matching(english_client, group)
    seen_link(classroom=group, choices={both.pk: group.students.get()}, by=english)
    notices = EntLinkEvent.objects.filter(action=EntLinkEvent.Action.ELSEWHERE)
    assert list(notices.values_list("classroom_id", "by_id")) == [(classroom.pk, english.pk)]
    page = _matching(signed_in_client(owner, "en"), classroom)
    assert "linked in the class Anglais 2 by anglais" in page
    # Not on the linking class's own screen.
    assert "linked in the class" not in _matching(english_client, group)


def test_once_given_to_one_class_the_others_named_like_it_are_still_told() -> None:
    """The school admin's grant decides who sees the pupil, not who hears where they went."""
    _connector, owner, classroom, lea = _world()
    intruder = make_teacher(username="intrus")
    twin = make_classroom(teacher=intruder, name="CM2 A")
    admin = make_teacher(username="direction")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    admin.refresh_from_db()
    class_name_give(name=ENT_CLASS, classroom=classroom, by=admin)
    seen_link(classroom=classroom, choices={lea.pk: classroom.students.get()}, by=owner)
    notices = EntLinkEvent.objects.filter(action=EntLinkEvent.Action.ELSEWHERE)
    assert list(notices.values_list("classroom_id", "by_id")) == [(twin.pk, owner.pk)]


def test_an_id_hidden_between_the_preview_and_the_confirmation_is_not_linked() -> None:
    """The preview's check is done again at the confirmation: the pupil may be hidden since."""
    _connector, owner, classroom, _lea = _world()
    owner_client = signed_in_client(owner, "en")
    preview = _upload(owner_client, classroom, "Prénom;identifiant ENT\nLéa Martin;ent-lea\n")
    assert preview.status_code == 200 and "No ENT pupil" not in page_text(preview)
    # Meanwhile another teacher's class takes the ENT class too: Léa is hidden from both.
    make_classroom(teacher=make_teacher(username="intrus"), name="CM2 A")
    confirmed = owner_client.post(
        reverse("classroom_import_confirm", args=[classroom.pk]), follow=True
    )
    assert confirmed.redirect_chain[-1][0] == reverse("classroom_import", args=[classroom.pk])
    assert "No ENT pupil with the id “ent-lea”" in page_text(confirmed)
    assert list(classroom.students.values_list("display_name", flat=True)) == ["Léa Martin"]
    assert _links() == []
