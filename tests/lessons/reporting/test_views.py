"""Dashboard, report and export pages: what they show, in which language, and bad input."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.diagnosis import RULE_IDS
from lessons.models import Attempt, ClassSession
from lessons.reporting.exports import ATTEMPT_HEADER, STUDENT_HEADER, pseudonym
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import student_client, teacher_client
from tests.support.responses import body_of, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(class_a: ClassWorld) -> ClassSession:
    """Class A played one session: AnaïsA shows M1, BasileA plays right."""
    session = ClassSession.objects.create(
        classroom=class_a.classroom,
        started_at=timezone.now() - timedelta(hours=2),
        status=ClassSession.Status.ENDED,
    )
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS, session=session)
    log_plays(class_a.other_student.student, RIGHT_PLAYS, session=session)
    return session


def _get(client: Client, name: str, **kwargs: int) -> str:
    response = client.get(reverse(name, kwargs=kwargs), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return page_text(response)


def test_class_dashboard_shows_students_heatmaps_and_wrong_plays(
    class_a: ClassWorld, played: ClassSession
) -> None:
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "en"
    text = _get(client, "dashboard_class", classroom_id=class_a.classroom.pk)
    for expected in (
        "AnaïsA",
        "BasileA",
        "Students × misconceptions",
        "Students × skills",
        "1/2 → 2/3",  # the most common wrong play
        "Same number added to top and bottom",
        "4/4",  # AnaïsA's M1 evidence k/n
        "43 %",  # AnaïsA's accuracy (3 of 7)
        "Detection rules version",
    ):
        assert expected in text, expected
    assert "<svg" in text and 'role="img"' in text


def test_student_and_session_pages(class_a: ClassWorld, played: ClassSession) -> None:
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "en"
    anais = class_a.student.student
    text = _get(client, "dashboard_student", classroom_id=class_a.classroom.pk, student_id=anais.pk)
    assert "AnaïsA" in text and "Skill ladder" in text
    assert "added 1 to top and bottom" in text and "each is 1 piece short of 1" in text
    assert "3 right out of the last 7 claims" in text
    text = _get(
        client, "dashboard_session", classroom_id=class_a.classroom.pk, session_id=played.pk
    )
    assert "AnaïsA" in text and "BasileA" in text and "M1" in text


def test_report_is_in_the_readers_language(
    class_a: ClassWorld, class_b: ClassWorld, played: ClassSession
) -> None:
    # Class A is French; its teacher browses in English: the whole report is English, the
    # navigation included (issue 21, point 7), and French once they switch back.
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "en"
    anais = class_a.student.student
    text = _get(client, "report_student", classroom_id=class_a.classroom.pk, student_id=anais.pk)
    assert 'lang="en"' in text
    assert "Things to work on" in text and "Choses à travailler" not in text
    assert "My classes" in text and "Mes classes" not in text
    client.cookies["django_language"] = "fr"
    text = _get(client, "report_student", classroom_id=class_a.classroom.pk, student_id=anais.pk)
    assert 'lang="fr"' in text
    assert "Choses à travailler" in text and "Même nombre ajouté en haut et en bas" in text
    assert "ajouté 1 en haut et en bas" in text
    # Class B is English; its student reads in French: their own report is French.
    log_plays(class_b.student.student, M1_PLAYS)
    own = student_client(class_b.student.student)
    own.cookies["django_language"] = "fr"
    response = own.get(reverse("report_me"))
    text = page_text(response)
    assert response.status_code == 200
    assert 'lang="fr"' in text and "Ce que tu vas t’entraîner à faire" in text and "AnaïsB" in text
    assert "What to practise" not in text and "AnaïsA" not in text


def test_report_pdf(class_a: ClassWorld, played: ClassSession) -> None:
    pytest.importorskip("weasyprint")
    client = student_client(class_a.student.student)
    response = client.get(reverse("report_me"), {"format": "pdf"}, follow=True)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_report_refuses_an_unknown_format(class_a: ClassWorld) -> None:
    client = student_client(class_a.student.student)
    assert client.get(reverse("report_me"), {"format": "docx"}).status_code == 404


def _csv(response: HttpResponseBase) -> list[list[str]]:
    body = body_of(response).decode()
    return list(csv.reader(io.StringIO(body)))


def test_attempt_export_is_pseudonymous_and_complete(
    class_a: ClassWorld, played: ClassSession
) -> None:
    client = teacher_client(class_a.teacher)
    response = client.get(reverse("export_attempts", kwargs={"classroom_id": class_a.classroom.pk}))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = _csv(response)
    assert tuple(rows[0]) == ATTEMPT_HEADER
    assert len(rows) - 1 == Attempt.objects.filter(classroom=class_a.classroom).count() == 10
    text = "\n".join(",".join(r) for r in rows)
    for name in ("AnaïsA", "BasileA", class_a.classroom.name, class_a.classroom.join_code):
        assert name not in text
    record = dict(zip(rows[0], rows[1], strict=True))
    anais = class_a.student.student
    assert record["student_id"] == pseudonym("student", anais.pk) != str(anais.pk)
    assert record["class_id"] == pseudonym("class", class_a.classroom.pk)
    assert (record["a"], record["b"], record["c"], record["d"]) == ("1", "2", "2", "3")
    assert record["correct"] == "0" and record["flag_M1"] == "1" and record["flag_M8"] == "0"
    assert record["skills"] == "S2" and record["standards"] == "3.NF.A.3b"
    assert record["session_id"] == str(played.pk) and record["rules_version"]
    assert all(f"flag_{rule}" in record for rule in RULE_IDS)


def test_student_export_has_one_row_per_student(class_a: ClassWorld, played: ClassSession) -> None:
    client = teacher_client(class_a.teacher)
    response = client.get(reverse("export_students", kwargs={"classroom_id": class_a.classroom.pk}))
    rows = _csv(response)
    assert tuple(rows[0]) == STUDENT_HEADER and len(rows) == 3
    records = {r[1]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    anais = records[pseudonym("student", class_a.student.student.pk)]
    assert (anais["claims"], anais["correct"], anais["status_M1"], anais["k_M1"]) == (
        "7",
        "3",
        "likely",
        "4",
    )
    assert "AnaïsA" not in str(rows)


def test_data_dictionary_describes_every_column(class_a: ClassWorld) -> None:
    client = teacher_client(class_a.teacher)
    text = _get(client, "export_dictionary")
    for column in (*ATTEMPT_HEADER, *STUDENT_HEADER):
        assert f"<code>{column}</code>" in text


def test_student_in_no_class_gets_404_for_their_report(class_a: ClassWorld) -> None:
    user = class_a.student.user
    class_a.student.student.delete()
    user.refresh_from_db()
    client = Client()
    client.force_login(user)
    assert client.get(reverse("report_me")).status_code == 404
