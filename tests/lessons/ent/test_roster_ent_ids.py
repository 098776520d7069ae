"""A class list file's ENT id column links pupils to their ENT accounts on import; bad values
are refused with a clear message and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from lessons.classrooms.roster_csv import RosterEntry, roster_file_entries, roster_file_read
from lessons.models import EntIdentity, EntLinkEvent, EntSeenPupil, Student
from tests.conftest import ClassWorld
from tests.lessons.ent.helpers import make_connector, make_link, make_seen
from tests.support.factories import signed_in_client
from tests.support.responses import page_text
from tests.support.responses import snapshot as lessons_snapshot

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse


pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, object]:
    """Return the lessons tables and the ENT links, waiting pupils and events."""
    return {
        **lessons_snapshot(),
        "links": sorted(EntIdentity.objects.values_list("connector", "external_id", "user")),
        "seen": sorted(EntSeenPupil.objects.values_list("external_id", flat=True)),
        "events": EntLinkEvent.objects.count(),
    }


def _upload(client: Client, world: ClassWorld, text: str, **extra: object) -> ClientResponse:
    url = reverse("classroom_import", args=[world.classroom.pk])
    data = {"file": SimpleUploadedFile("classe.csv", text.encode(), "text/csv"), **extra}
    return client.post(url, data)


def _confirm(client: Client, world: ClassWorld) -> ClientResponse:
    return client.post(reverse("classroom_import_confirm", args=[world.classroom.pk]))


@pytest.mark.parametrize("heading", ["identifiant ENT", "ent_id", "ID ENT", "IDO", "externalId"])
def test_ent_id_headings_are_read(heading: str) -> None:
    entries = roster_file_entries(data=f"Prénom;{heading}\nZoé;abc-1\nLéo;\n".encode())
    assert entries == [RosterEntry("Zoé", "abc-1"), RosterEntry("Léo", "")]
    assert roster_file_read(data=f"Prénom;{heading}\nZoé;abc-1\n".encode()) == ["Zoé"]


def test_import_adds_and_links_then_the_pupils_leave_the_waiting_list(
    class_a: ClassWorld,
) -> None:
    connector = make_connector()
    make_seen(connector, "id-zoe", "MARTIN Zoé", ["Classe A"])
    make_seen(connector, "id-anais", "Anaïs", ["Classe A"])
    client = signed_in_client(class_a.teacher, "en")
    response = _upload(client, class_a, "Prénom;Identifiant ENT\nZoé;id-zoe\nAnaïsA;id-anais\n")
    assert response.status_code == 200
    assert "2 pupils linked to their ENT account" in page_text(response)
    assert not EntIdentity.objects.exists()  # the preview changes nothing
    assert _confirm(client, class_a).status_code == 302
    links = dict(EntIdentity.objects.values_list("external_id", "user__student__display_name"))
    assert links == {"id-zoe": "Zoé", "id-anais": "AnaïsA"}
    assert not EntSeenPupil.objects.exists()
    assert set(EntLinkEvent.objects.values_list("action", "by")) == {
        ("imported", class_a.teacher.pk)
    }


def test_a_file_linking_only_present_pupils_goes_to_the_matching_screen(
    class_a: ClassWorld,
) -> None:
    connector = make_connector()
    make_seen(connector, "id-a", "Anaïs", ["Classe A"])
    make_seen(connector, "id-b", "Basile", ["Classe A"])
    client = signed_in_client(class_a.teacher, "en")
    _upload(client, class_a, "Prénom;ent_id\nAnaïsA;id-a\nBasileA;id-b\n")
    response = _confirm(client, class_a)
    assert response["Location"] == reverse("ent_matching", args=[class_a.classroom.pk])
    assert EntIdentity.objects.count() == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Prénom;ent_id\nZoé;a b\n", "Row 2: “a b” is not an ENT id"),
        ("Prénom;ent_id\nZoé;" + "x" * 300 + "\n", "Row 2:"),
        ("Prénom;ent_id\nZoé;\x7f1\n", "not a text file"),
        ("Prénom;ent_id\nZoé;same\nLéo;same\n", "The ENT id “same” is given to more than one"),
        ("Prénom;ent_id\nAnaïsA;taken\n", "already linked to a pupil of another class"),
        ("Prénom;ent_id\nBasileA;other\n", "“BasileA” is already linked to an ENT account"),
        ("Prénom;ent_id\nZoé;teacher-id\n", "already linked to a pupil of another class"),
    ],
)
def test_bad_ent_ids_are_refused_and_nothing_changes(
    class_a: ClassWorld, class_b: ClassWorld, text: str, message: str
) -> None:
    connector = make_connector()
    make_link(connector, "taken", class_b.student.student)
    make_link(connector, "mine", class_a.other_student.student)
    # A teacher's ENT account (class B's teacher) cannot become a pupil's.
    EntIdentity.objects.create(connector=connector, external_id="teacher-id", user=class_b.teacher)
    client = signed_in_client(class_a.teacher, "en")
    before = snapshot()
    response = _upload(client, class_a, text)
    assert response.status_code == 200
    assert message in page_text(response)
    assert snapshot() == before
    _confirm(client, class_a)  # nothing waits to be confirmed
    assert snapshot() == before


def test_an_ent_column_without_any_ent_is_refused(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    response = _upload(client, class_a, "Prénom;ent_id\nZoé;id-1\n")
    assert "aucun ENT n’est configuré" in page_text(response)
    assert not Student.objects.filter(display_name="Zoé").exists()


def test_with_two_ents_the_teacher_says_which_one(class_a: ClassWorld) -> None:
    make_connector(name="ONE")
    two = make_connector(name="Skolengo")
    make_seen(two, "id-1", "Zoé", ["Classe A"])
    client = signed_in_client(class_a.teacher, "en")
    response = _upload(client, class_a, "Prénom;ent_id\nZoé;id-1\n")
    assert "choose the ENT they come from" in page_text(response)
    _upload(client, class_a, "Prénom;ent_id\nZoé;id-1\n", ent=two.pk)
    _confirm(client, class_a)
    assert EntIdentity.objects.get().connector == two
    bad = _upload(client, class_a, "Prénom;ent_id\nLéo;id-2\n", ent="999999")
    assert "Select a valid choice" in page_text(bad)


def test_a_link_made_meanwhile_takes_the_whole_import_back(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    connector = make_connector()
    make_seen(connector, "id-zoe", "Zoé", ["Classe A"])
    client = signed_in_client(class_a.teacher, "en")
    _upload(client, class_a, "Prénom;ent_id\nZoé;id-zoe\n")
    make_link(connector, "id-zoe", class_b.student.student)  # another class, meanwhile
    before = snapshot()
    response = _confirm(client, class_a)
    assert response.status_code == 302
    assert snapshot() == before  # Zoé is not added either: all or nothing
    assert not class_a.classroom.students.filter(display_name="Zoé").exists()
