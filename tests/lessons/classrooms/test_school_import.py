"""A school export through the real upload form: the file, the class picker, the preview, the
confirmation; bad choices refused in French; the INE and the date of birth never stored.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from lessons.classrooms.pending_import import PENDING_IMPORT_KEY
from lessons.models import Student
from lessons.school.copies import sessions_forget
from tests.conftest import ClassWorld
from tests.lessons.school.helpers import texts_with
from tests.support.factories import signed_in_client
from tests.support.responses import form_errors, page_text, snapshot
from tests.support.school_exports import (
    CLASS_COUNTS,
    CLASS_ORDER,
    CM1_A_NAMES,
    COLLEGE,
    SCHOOL,
    onde_csv,
    siecle_xml,
    siecle_zip,
    zipped,
)

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"
LABELS = CLASS_ORDER  # the picker's order: CP A, CP B, CE1 A, ...


def _upload(client: Client, world: ClassWorld, data: bytes, name: str, **fields: str) -> Any:
    url = reverse("classroom_import", args=[world.classroom.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, data), **fields})


def _picker(world: ClassWorld) -> str:
    return reverse("classroom_import_classes", args=[world.classroom.pk])


def _pick(client: Client, world: ClassWorld, *labels: str) -> Any:
    return client.post(_picker(world), {"classes": [str(LABELS.index(x)) for x in labels]})


def _confirm(client: Client, world: ClassWorld) -> Any:
    return client.post(reverse("classroom_import_confirm", args=[world.classroom.pk]))


def _names(world: ClassWorld) -> set[str]:
    return set(world.classroom.students.values_list("display_name", flat=True))


def test_the_upload_page_says_how_to_get_the_school_file(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    page = page_text(client.get(reverse("classroom_import", args=[class_a.classroom.pk])))
    assert "Comment obtenir le fichier de l’école" in page
    assert "Exportations › En XML › Élèves sans adresses" in page
    assert "sans choisir de niveau, de cycle ni de classe (toute l’école)" in page


def test_pick_one_class_of_eight_preview_then_confirm(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    before = snapshot()
    response = _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    assert response.status_code == 302 and response["Location"] == _picker(class_a)
    page = page_text(client.get(_picker(class_a)))
    assert "L’export ONDE compte 26 élèves dans 8 classes." in page
    assert "1 élève parti de l’école n’est pas listé." in page
    for label, count in CLASS_COUNTS.items():
        assert f"{label} ({count} élèves)" in page
    assert snapshot() == before  # reading the file changes nothing

    response = _pick(client, class_a, "CM1 A")
    assert response.status_code == 200
    text = page_text(response)
    assert "4 nouveaux élèves" in text
    assert all(name in text for name in CM1_A_NAMES)
    assert "Zoé P." not in text and "Noah" not in text  # other classes, a pupil who left
    assert "deux fois le même élève" not in text  # AnaïsA and BasileA are nobody of the file
    assert snapshot() == before

    response = _confirm(client, class_a)
    assert response["Location"] == reverse("classroom_cards", args=[class_a.classroom.pk])
    assert _names(class_a) == {"AnaïsA", "BasileA", *CM1_A_NAMES}
    assert _confirm(client, class_a).status_code == 302  # used up: adds nobody again
    assert class_a.classroom.students.count() == 6


def test_whole_last_names_when_the_teacher_asks(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "en")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv", last_names="whole")
    _pick(client, class_a, "CE2")
    _confirm(client, class_a)
    assert _names(class_a) - {"AnaïsA", "BasileA"} == {
        "Emma LEROY",
        "Emma LEROY (2)",
        "Raphaël MOREL",
        "Zoé PETITJEAN",
    }


def test_a_siecle_zip_through_the_form(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    response = _upload(client, class_a, siecle_zip(), "ExportXML_ElevesSansAdresses.zip")
    assert response["Location"] == _picker(class_a)
    page = page_text(client.get(_picker(class_a)))
    assert "L’export SIECLE compte 6 élèves dans 3 classes." in page
    assert "6B (3 élèves)" in page and "6C (1 élève)" in page
    response = client.post(_picker(class_a), {"classes": ["1"]})
    assert "3 nouveaux élèves" in page_text(response)
    _confirm(client, class_a)
    assert _names(class_a) == {"AnaïsA", "BasileA", "Lina R.", "Éloïse R.", "Ethan R."}


def test_confirming_before_picking_adds_nobody(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    before = snapshot()
    response = _confirm(client, class_a)
    assert response["Location"] == _picker(class_a)
    assert snapshot() == before
    page = page_text(client.get(_picker(class_a)))
    assert "Choisissez d’abord les classes à prendre dans le fichier de l’école." in page


@pytest.mark.parametrize(
    ("post", "french"),
    [
        ({}, "Choisissez au moins une classe."),
        ({"classes": ["99"]}, "Sélectionnez un choix valide. 99 n’en fait pas partie."),
        ({"classes": ["CM1 A"]}, "Sélectionnez un choix valide. CM1 A n’en fait pas partie."),
        (
            {"classes": [str(LABELS.index("CE1 A")), str(LABELS.index("CE2"))]},
            f"«{NNBSP}Zoé P.{NNBSP}» figure dans plusieurs des classes choisies{NNBSP}: "
            "importez-les une par une, ou gardez les noms entiers.",
        ),
    ],
    ids=["none", "unknown", "label", "same-name-in-two"],
)
def test_bad_class_choices_are_refused_in_french(
    class_a: ClassWorld, post: dict[str, list[str]], french: str
) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    before = snapshot()
    response = client.post(_picker(class_a), post)
    assert response.status_code == 200
    assert french in form_errors(response)
    assert snapshot() == before
    assert _confirm(client, class_a)["Location"] == _picker(class_a)  # still to pick
    assert snapshot() == before


@pytest.mark.parametrize(
    ("fields", "french"),
    [
        ({"kind": "pdf"}, "Sélectionnez un choix valide. pdf n’en fait pas partie."),
        ({"last_names": "all"}, "Sélectionnez un choix valide. all n’en fait pas partie."),
    ],
)
def test_bad_upload_fields_are_refused_in_french(
    class_a: ClassWorld, fields: dict[str, str], french: str
) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    before = snapshot()
    response = _upload(client, class_a, onde_csv(), "CSVExtraction.csv", **fields)
    assert response.status_code == 200 and french in form_errors(response)
    assert PENDING_IMPORT_KEY not in client.session
    assert snapshot() == before


WRONG_FILES = {
    "garbled": (
        onde_csv().decode("cp1252").encode("utf-8").decode("cp1252").encode("utf-8"),
        "auto",
        f"Les accents du fichier sont abîmés («{NNBSP}Ã©{NNBSP}»){NNBSP}: il a été converti "
        "d’un encodage à un autre. Exportez de nouveau la liste depuis ONDE et choisissez le "
        "fichier tel quel, sans l’ouvrir dans un tableur.",
    ),
    "utf16-as-onde": (
        onde_csv(encoding="utf-16"),
        "onde",
        f"Les accents du fichier sont illisibles{NNBSP}: il n’est ni dans l’encodage d’ONDE "
        "(Windows-1252) ni en UTF-8. Exportez de nouveau la liste depuis ONDE et choisissez le "
        "fichier tel quel, sans l’ouvrir dans un tableur.",
    ),
    "not-onde": (
        "Prénom;Nom\nZoé;MARTIN\n".encode(),
        "onde",
        f"Ce n’est pas un export ONDE{NNBSP}: ses premières lignes n’ont pas les titres "
        f"«{NNBSP}Nom élève{NNBSP}», «{NNBSP}Prénom élève{NNBSP}» et «{NNBSP}Libellé classe"
        f"{NNBSP}». Dans ONDE, exportez la liste des élèves (CSVExtraction.csv).",
    ),
    "bad-zip": (
        siecle_zip()[:300],
        "auto",
        "Le fichier zip ne s’ouvre pas (abîmé, ou pas un zip). Téléchargez de nouveau "
        "ExportXML_ElevesSansAdresses.zip depuis SIECLE.",
    ),
    "neither-encoding": (
        onde_csv().replace("Élodie".encode("cp1252"), b"\x81lodie"),
        "auto",
        f"Les accents du fichier sont illisibles{NNBSP}: il n’est ni dans l’encodage d’ONDE "
        "(Windows-1252) ni en UTF-8. Exportez de nouveau la liste depuis ONDE et choisissez le "
        "fichier tel quel, sans l’ouvrir dans un tableur.",
    ),
    "zipped-onde": (
        zipped({"CSVExtraction.csv": onde_csv()}),
        "auto",
        f"Le fichier zip ne contient pas de fichier XML d’élèves{NNBSP}: est-ce bien "
        f"ExportXML_ElevesSansAdresses.zip, de SIECLE{NNBSP}?",
    ),
    "other-siecle-xml": (
        zipped({"Nomenclature.xml": b'<?xml version="1.0"?><BEE_NOMENCLATURES/>'}),
        "auto",
        f"Ce n’est pas l’export des élèves de SIECLE (ElevesSansAdresses){NNBSP}: son contenu "
        f"est «{NNBSP}BEE_NOMENCLATURES{NNBSP}».",
    ),
    "zip-bomb": (
        zipped({"ElevesSansAdresses.xml": b"<" + b" " * (40 * 1024 * 1024)}),
        "auto",
        f"Le fichier décompressé dépasse 16 Mo{NNBSP}: ce n’est pas l’export des élèves d’un "
        "établissement, il est refusé.",
    ),
    "csv-as-siecle": (
        "Prénom\nZoé\n".encode(),
        "siecle",
        "Le fichier XML est abîmé (ligne 1)\u202f: téléchargez de nouveau l’export depuis SIECLE.",
    ),
}


# The same refusals in English, for a teacher whose language is English.
WRONG_FILES_EN = {
    "not-onde": (
        "This is not an ONDE export: no “Nom élève”, “Prénom élève” and “Libellé classe” "
        "headings in its first lines. In ONDE, export the list of pupils (CSVExtraction.csv)."
    ),
    "neither-encoding": (
        "The file's accents cannot be read: it is neither in ONDE's encoding (Windows-1252) nor "
        "in UTF-8. Export the list from ONDE again and choose it as it is, without opening it "
        "in a spreadsheet."
    ),
    "zipped-onde": (
        "The zip file holds no pupils' XML file: is it SIECLE's ExportXML_ElevesSansAdresses.zip?"
    ),
    "zip-bomb": (
        "The file unpacks to more than 16 MB: this is not a school's pupils' export, it was "
        "refused."
    ),
}


REFUSALS = [("fr", case, WRONG_FILES[case][2]) for case in WRONG_FILES] + [
    ("en", case, english) for case, english in WRONG_FILES_EN.items()
]


@pytest.mark.parametrize(("lang", "case", "message"), REFUSALS)
def test_a_wrong_file_is_refused_in_the_teachers_language_and_changes_nothing(
    class_a: ClassWorld, lang: str, case: str, message: str
) -> None:
    data, kind, _french = WRONG_FILES[case]
    client = signed_in_client(class_a.teacher, lang)
    before = snapshot()
    response = _upload(client, class_a, data, "CSVExtraction.csv", kind=kind)
    assert response.status_code == 200
    assert message in form_errors(response)
    assert PENDING_IMPORT_KEY not in client.session
    assert snapshot() == before


def _listed(response: Any, kind: str) -> list[str]:
    """Return the names of one list of the preview (new, unchanged, missing)."""
    page = response.content.decode()
    found = re.search(rf'<ul class="names" data-list="{kind}">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def test_a_pupil_who_left_is_shown_in_the_class_but_not_in_the_file_and_kept(
    class_a: ClassWorld,
) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    _pick(client, class_a, "CM1 A")
    _confirm(client, class_a)
    # In January, Océane PETIT leaves the school: ONDE gives her a leaving date.
    school = [replace(p, left="10/01/2027") if p.first == "Océane" else p for p in SCHOOL]
    _upload(client, class_a, onde_csv(school), "CSVExtraction.csv")
    page = page_text(client.get(_picker(class_a)))
    assert "2 élèves partis de l’école ne sont pas listés." in page  # Noah and Océane
    before = snapshot()
    response = _pick(client, class_a, "CM1 A")
    assert _listed(response, "new") == []
    assert _listed(response, "unchanged") == ["Élodie D.", "Lucas Ma.", "Lucas Mo."]
    assert _listed(response, "missing") == ["AnaïsA", "BasileA", "Océane P."]
    text = page_text(response)
    assert "3 dans la classe mais pas dans le fichier" in text
    assert "Ils restent dans la classe." in text
    assert snapshot() == before
    _confirm(client, class_a)
    assert "Océane P." in _names(class_a)  # shown, never erased by an import


def test_a_pupil_imported_before_under_a_shorter_name_is_pointed_out(
    class_a: ClassWorld,
) -> None:
    # Imported in September as "Lucas M."; since then a second Lucas M. arrived: the file now
    # reads "Lucas Ma." and "Lucas Mo.", and one of them is the pupil already in the class.
    Student.objects.filter(pk=class_a.student.student.pk).update(display_name="Lucas M.")
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    response = _pick(client, class_a, "CM1 A")
    assert _listed(response, "missing") == ["BasileA", "Lucas M."]
    text = page_text(response)
    assert f"À vérifier avant d’ajouter{NNBSP}: deux fois le même élève{NNBSP}?" in text
    assert (
        f"«{NNBSP}Lucas M.{NNBSP}», dans la classe, est peut-être «{NNBSP}Lucas Ma.{NNBSP}», "
        f"«{NNBSP}Lucas Mo.{NNBSP}» dans le fichier."
    ) in text
    assert "BasileA" not in text.split("deux fois le même élève")[1]


def test_a_siecle_pupil_in_the_inactive_division_is_not_imported(class_a: ClassWorld) -> None:
    xml = siecle_xml(COLLEGE).replace(
        b"<CODE_STRUCTURE>6A</CODE_STRUCTURE>", b"<CODE_STRUCTURE>Inactifs</CODE_STRUCTURE>", 1
    )
    client = signed_in_client(class_a.teacher, "en")
    _upload(client, class_a, zipped({"ElevesSansAdresses.xml": xml}), "Export.zip")
    page = page_text(client.get(_picker(class_a)))
    assert "The SIECLE export lists 5 pupils in 3 classes." in page
    assert "2 pupils who left the school are not listed." in page
    assert "Inactifs" not in page and "6A (1 pupil)" in page


def test_a_plain_csv_still_goes_straight_to_the_preview(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "en")
    data = "Nom;Prénom\nMARTIN;Zoé\n".encode("cp1252")
    response = _upload(client, class_a, data, "liste.csv")
    assert response.status_code == 200 and "1 new student" in page_text(response)
    # Chosen as a CSV, an ONDE file is a plain list: no picker.
    response = _upload(client, class_a, onde_csv(SCHOOL[:3]), "CSVExtraction.csv", kind="csv")
    assert response.status_code == 200 and "3 new students" in page_text(response)


def test_the_picker_without_a_file_or_for_another_class_sends_back(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    response = client.get(_picker(class_a))
    assert response["Location"] == reverse("classroom_import", args=[class_a.classroom.pk])
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    assert client.get(_picker(class_b)).status_code == 404  # not this teacher's class
    client.force_login(class_b.teacher)
    response = client.post(_picker(class_b), {"classes": ["0"]})
    assert response["Location"] == reverse("classroom_import", args=[class_b.classroom.pk])


def _in_sessions(needle: str) -> list[str]:
    return [
        s.session_key
        for s in Session.objects.all()
        if needle in json.dumps(s.get_decoded(), ensure_ascii=False)
    ]


def _kept(needle: str) -> list[str]:
    return texts_with(needle) + _in_sessions(needle)


def test_no_ine_nor_date_of_birth_nor_last_name_is_stored_anywhere(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    secrets = [p.ine for p in SCHOOL] + [p.born for p in SCHOOL] + ["PETITJEAN", "GIRARD"]
    # The search sees what is there: the names are in the session, then in the database.
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    assert _in_sessions("Zoé P.") and _in_sessions("Lucas Ma.")
    assert [s for s in secrets if _kept(s)] == []  # waiting for the picker
    _pick(client, class_a, "CM1 A")
    assert [s for s in secrets if _kept(s)] == []  # waiting for the confirmation
    _confirm(client, class_a)
    assert texts_with("Lucas Ma.") and texts_with("AnaïsA")
    assert [s for s in secrets + ["MARTIN", "MOREAU"] if _kept(s)] == []


def test_an_erasure_drops_a_waiting_school_file_that_names_the_pupil(
    class_a: ClassWorld,
) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    Student.objects.filter(pk=class_a.student.student.pk).update(display_name="Zoé P.")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    assert PENDING_IMPORT_KEY in client.session
    changed = sessions_forget(
        student_id=class_a.student.student.pk, name="Zoé P.", classroom_ids={class_a.classroom.pk}
    )
    assert changed == 1
    assert PENDING_IMPORT_KEY not in client.session


def test_an_archived_class_has_no_picker(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    from django.utils import timezone

    type(class_a.classroom).objects.filter(pk=class_a.classroom.pk).update(
        archived_at=timezone.now()
    )
    before = snapshot()
    response = _pick(client, class_a, "CM1 A")
    assert response.status_code == 302 and snapshot() == before


def test_the_class_named_like_one_of_the_file_is_ticked_already(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _upload(client, class_a, onde_csv(), "CSVExtraction.csv")
    assert "checked" not in client.get(_picker(class_a)).content.decode().split("<form")[1]
    type(class_a.classroom).objects.filter(pk=class_a.classroom.pk).update(name="cm1 a")
    page = client.get(_picker(class_a)).content.decode()
    index = LABELS.index("CM1 A")
    assert f'value="{index}" id="id_classes_{index}" checked' in page
    assert page.count(" checked") == 1
