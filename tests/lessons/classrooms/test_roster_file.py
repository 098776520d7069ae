"""Roster import from a CSV file: detection, preview, confirm; every refusal changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from lessons.classrooms.roster_csv import ROSTER_FILE_MAX_ROWS, roster_file_read
from lessons.models import Student
from tests.conftest import ClassWorld
from tests.support.factories import signed_in_client
from tests.support.responses import form_errors, page_text, snapshot

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse


pytestmark = pytest.mark.django_db

SIS_EXPORT = "Nom;Prénom;Date de naissance\nMARTIN;Zoé;01/02/2015\nDUPONT;Élodie;03/04/2015\n"


def _upload(
    client: Client, world: ClassWorld, data: bytes, name: str = "classe.csv"
) -> ClientResponse:
    url = reverse("classroom_import", args=[world.classroom.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, data, "text/csv")})


@pytest.mark.parametrize(
    "data",
    [
        SIS_EXPORT.encode("utf-8"),
        SIS_EXPORT.encode("utf-8-sig"),
        SIS_EXPORT.encode("cp1252"),
        SIS_EXPORT.replace(";", ",").encode("latin-1"),
        SIS_EXPORT.replace(";", "\t").replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["utf8", "utf8-bom", "windows-1252", "latin1-comma", "tab-crlf"],
)
def test_encodings_and_separators_give_the_same_first_names(data: bytes) -> None:
    assert roster_file_read(data=data) == ["Zoé", "Élodie"]


@pytest.mark.parametrize(
    "heading",
    ["Prénom", "PRENOM", "prénom de l'élève", "First name", "first_name", "Given name"],
)
def test_first_name_headings_are_detected(heading: str) -> None:
    data = f"Classe,{heading}\nCM1,Lou\n".encode()
    assert roster_file_read(data=data) == ["Lou"]


def test_a_lone_name_column_is_taken_whole() -> None:
    assert roster_file_read(data="Élève\nLou B\nMia\n".encode()) == ["Lou B", "Mia"]


def test_same_first_name_gets_the_last_name_initial() -> None:
    data = "Prénom;Nom\nLucas;Martin\nLucas;Durand\nMia;Petit\n".encode()
    assert roster_file_read(data=data) == ["Lucas M.", "Lucas D.", "Mia"]


def test_preview_lists_new_unchanged_and_missing_then_confirm_adds_only_new(
    class_a: ClassWorld,
) -> None:
    client = signed_in_client(class_a.teacher, "en")
    before = snapshot()
    data = "Prénom\nAnaïsA\nZoé\nÉlodie\n".encode("cp1252")
    response = _upload(client, class_a, data)
    assert response.status_code == 200
    assert snapshot() == before  # the preview changes nothing
    text = page_text(response)
    assert "2 new students" in text and "Zoé" in text and "Élodie" in text
    assert "1 already in the class" in text
    assert "1 in the class but not in the file" in text and "BasileA" in text
    response = client.post(reverse("classroom_import_confirm", args=[class_a.classroom.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom_cards", args=[class_a.classroom.pk])
    names = set(class_a.classroom.students.values_list("display_name", flat=True))
    assert names == {"AnaïsA", "BasileA", "Zoé", "Élodie"}
    # The confirmation is used up: posting it again adds nobody.
    again = client.post(reverse("classroom_import_confirm", args=[class_a.classroom.pk]))
    assert again.status_code == 302 and class_a.classroom.students.count() == 4


def test_confirm_without_preview_adds_nobody(class_a: ClassWorld) -> None:
    before = snapshot()
    response = signed_in_client(class_a.teacher, "en").post(
        reverse("classroom_import_confirm", args=[class_a.classroom.pk])
    )
    assert response.status_code == 302
    assert snapshot() == before


def test_a_preview_of_class_a_cannot_be_confirmed_into_class_b(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    client = signed_in_client(class_a.teacher, "en")
    _upload(client, class_a, b"Prenom\nZoe\n")
    client.force_login(class_b.teacher)
    before = snapshot()
    client.post(reverse("classroom_import_confirm", args=[class_b.classroom.pk]))
    assert snapshot() == before


BAD_FILES = {
    "empty": (b"", "The file is empty.", "Le fichier est vide."),
    "blank": (b"  \n\n", "The file is empty.", "Le fichier est vide."),
    "heading-only": (
        "Prénom;Nom\n".encode(),
        "The file has a heading line but no pupil.",
        "Le fichier a une ligne de titres mais aucun élève.",
    ),
    "binary": (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "This is not a text file. Export the list from your spreadsheet as CSV.",
        "Ce n’est pas un fichier texte. Exportez la liste depuis votre tableur en CSV.",
    ),
    "utf16": (
        "Prénom\nZoé\n".encode("utf-16"),
        "The file's encoding is not recognised. Save it as “CSV UTF-8” or “CSV (Windows)”.",
        "L’encodage du fichier n’est pas reconnu. Enregistrez-le en « CSV UTF-8 » "
        "ou « CSV (Windows) ».",
    ),
    "undecodable": (
        b"Pr\xe9nom\nZo\x81\xe9\n",
        "The file's encoding is not recognised. Save it as “CSV UTF-8” or “CSV (Windows)”.",
        "L’encodage du fichier n’est pas reconnu. Enregistrez-le en « CSV UTF-8 » "
        "ou « CSV (Windows) ».",
    ),
    "no-name-column": (
        b"Classe;Date\nCM1;2015\n",
        "No name column found (the file's headings are: Classe, Date). "
        "Name a column “Prénom” (or “Nom” and “Prénom”).",
        "Aucune colonne de noms trouvée (titres du fichier : Classe, Date). "
        "Nommez une colonne « Prénom » (ou « Nom » et « Prénom »).",
    ),
    "duplicates": (
        b"Prenom\nZoe\nMia\nzoe\n",
        "“zoe” appears more than once in the file.",
        "« zoe » figure plusieurs fois dans le fichier.",
    ),
    "5000-rows": (
        ("Prénom\n" + "".join(f"Élève{i}\n" for i in range(5000))).encode(),
        f"The file has 5000 rows: a class list has at most {ROSTER_FILE_MAX_ROWS}.",
        f"Le fichier a 5000 lignes : une liste de classe en a au plus {ROSTER_FILE_MAX_ROWS}.",
    ),
    "huge-cell": (
        ('Prénom\n"' + "a" * 140_000 + '"\n').encode(),
        "A cell of the file is far too long to be a name: is this the class list, saved as CSV?",
        "Une cellule du fichier est bien trop longue pour être un prénom\u202f: est-ce bien la "
        "liste de la classe, enregistrée en CSV\u202f?",
    ),
    "class-full": (
        ("Prénom\n" + "".join(f"Élève{i}\n" for i in range(99))).encode(),
        "A class holds at most 100 students: it has 2, the file adds 99.",
        "Une classe compte au plus 100 élèves : elle en a 2, le fichier en ajoute 99.",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_bad_file_gets_a_translated_error_and_changes_nothing(
    class_a: ClassWorld, case: str, language: str
) -> None:
    data, english, french = BAD_FILES[case]
    client = signed_in_client(class_a.teacher, language)
    before = snapshot()
    response = _upload(client, class_a, data)
    assert response.status_code == 200
    assert snapshot() == before
    errors = form_errors(response)
    if case == "empty" and not errors:
        pytest.fail("no error shown for an empty upload")
    expected = english if language == "en" else french
    # Django refuses a zero-byte upload itself ("The submitted file is empty.").
    assert expected in errors or (case == "empty" and len(errors) == 1), errors
    # Nothing is pending: a confirmation right after adds nobody.
    client.post(reverse("classroom_import_confirm", args=[class_a.classroom.pk]))
    assert snapshot() == before


def test_missing_file_field_is_refused(class_a: ClassWorld) -> None:
    before = snapshot()
    response = signed_in_client(class_a.teacher, "en").post(
        reverse("classroom_import", args=[class_a.classroom.pk])
    )
    assert response.status_code == 200 and form_errors(response)
    assert snapshot() == before


def test_import_page_shows_the_form(class_a: ClassWorld) -> None:
    response = signed_in_client(class_a.teacher, "en").get(
        reverse("classroom_import", args=[class_a.classroom.pk])
    )
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()
    assert Student.objects.count() == 2
