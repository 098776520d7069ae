"""PDF reports: printed in a bounded pool off the request's thread, cached per report version,
and a whole class's reports as one PDF.

Most tests swap the print pool for a thread pool whose renderer is a fake that records what it
is given (fast, and visible to the test); one test renders for real in the process pool.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import Student
from lessons.reporting import printing
from lessons.reporting.pdf_render import PdfUnavailable
from lessons.reporting.printing import PrintPool
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import make_students, student_client, teacher_client
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db


class FakePrinter:
    """Stand in for WeasyPrint: remember each document, answer numbered bytes."""

    def __init__(self) -> None:
        self.documents: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, html: str) -> bytes:
        with self.lock:
            self.documents.append(html)
            return f"%PDF-fake-{len(self.documents)}".encode()


@pytest.fixture
def printer() -> Iterator[FakePrinter]:
    fake = FakePrinter()
    previous = printing.use_pool(PrintPool(2, fake, processes=False))
    yield fake
    printing.use_pool(previous)


def _student_pdf(world: ClassWorld) -> str:
    return reverse(
        "report_student_pdf",
        kwargs={"classroom_id": world.classroom.pk, "student_id": world.student.student.pk},
    )


def _class_pdf(world: ClassWorld) -> str:
    return reverse("report_class_pdf", kwargs={"classroom_id": world.classroom.pk})


def test_a_cached_report_is_answered_again_without_rendering(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    client = teacher_client(class_a.teacher)
    first = client.get(_student_pdf(class_a))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    assert 'filename="report-' in first["Content-Disposition"]
    second = client.get(_student_pdf(class_a))
    assert second.content == first.content
    assert len(printer.documents) == 1
    # A new attempt is a new version of the report: printed again.
    log_plays(class_a.student.student, RIGHT_PLAYS)
    third = client.get(_student_pdf(class_a))
    assert third.content != first.content
    assert len(printer.documents) == 2
    # The student's own copy (worded for them) is another version.
    mine = student_client(class_a.student.student).get(reverse("report_me_pdf"))
    assert mine.status_code == 200 and len(printer.documents) == 3


def test_the_language_and_the_name_are_part_of_the_version(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "fr"
    client.get(_student_pdf(class_a))
    client.cookies["django_language"] = "en"  # the reader's language, not the class's
    client.get(_student_pdf(class_a))
    Student.objects.filter(pk=class_a.student.student.pk).update(display_name="Zélie")
    client.get(_student_pdf(class_a))
    assert len(printer.documents) == 3
    assert 'lang="fr"' in printer.documents[0] and 'lang="en"' in printer.documents[1]
    assert "Zélie" in printer.documents[2]


def test_the_class_pdf_holds_every_report_sorted_by_name(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    make_students(classroom=class_a.classroom, names=["Zoé", "émile", "Léo", "Lucas", "Éloïse"])
    make_students(classroom=class_a.classroom, names=["Léa"])
    response = teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    (html,) = printer.documents
    names = re.findall(r"Bilan de progrès · ([^<]+)</h1>", html)
    assert names == ["AnaïsA", "BasileA", "Éloïse", "émile", "Léa", "Léo", "Lucas", "Zoé"]
    assert html.count('class="pdf-report"') == 8
    # Cached until any report of the class changes.
    teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert len(printer.documents) == 1
    log_plays(class_a.other_student.student, M1_PLAYS)
    teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert len(printer.documents) == 2


def test_the_old_pdf_links_lead_to_the_pdf_views(class_a: ClassWorld, printer: FakePrinter) -> None:
    teacher = teacher_client(class_a.teacher)
    url = reverse("report_student", args=[class_a.classroom.pk, class_a.student.student.pk])
    assert teacher.get(url, {"format": "pdf"}).url == _student_pdf(class_a)
    student = student_client(class_a.student.student)
    assert student.get(reverse("report_me"), {"format": "pdf"}).url == reverse("report_me_pdf")


def test_bad_requests(class_a: ClassWorld, class_b: ClassWorld, printer: FakePrinter) -> None:
    teacher = teacher_client(class_a.teacher)
    other_class_student = reverse(
        "report_student_pdf", args=[class_a.classroom.pk, class_b.student.student.pk]
    )
    assert teacher.get(other_class_student).status_code == 404
    assert teacher.get(reverse("report_class_pdf", args=[class_b.classroom.pk])).status_code == 404
    assert teacher.get(reverse("report_class_pdf", args=[987654])).status_code == 404
    assert teacher.get(reverse("report_student_pdf", args=[987654, 1])).status_code == 404
    assert teacher.post(_class_pdf(class_a)).status_code == 405
    assert teacher.get(reverse("report_me_pdf")).status_code == 403
    student = student_client(class_a.student.student)
    assert student.get(_class_pdf(class_a)).status_code == 403
    assert student.get(_student_pdf(class_a)).status_code == 403
    anonymous = Client().get(_class_pdf(class_a))
    assert anonymous.status_code == 302 and "/login" in anonymous.url
    # A class without students has nothing to print.
    class_a.classroom.students.all().delete()
    assert teacher.get(_class_pdf(class_a)).status_code == 404
    assert printer.documents == []


def test_without_weasyprint_the_answer_is_503(class_a: ClassWorld) -> None:
    def missing(html: str) -> bytes:
        raise PdfUnavailable("no pango")

    previous = printing.use_pool(PrintPool(1, missing, processes=False))
    try:
        response = teacher_client(class_a.teacher).get(_student_pdf(class_a))
    finally:
        printing.use_pool(previous)
    assert response.status_code == 503
    assert "impression du navigateur" in response.content.decode()


def test_the_pool_renders_at_most_its_workers_at_once() -> None:
    release = threading.Event()
    running = [0, 0]  # now, most at once
    lock = threading.Lock()

    def slow(html: str) -> bytes:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        release.wait(30)
        with lock:
            running[0] -= 1
        return html.encode()

    pool = PrintPool(2, slow, processes=False)

    async def five() -> list[bytes]:
        jobs = [asyncio.ensure_future(pool.print(f"doc {n}")) for n in range(5)]
        await asyncio.to_thread(wait_until, lambda: running[0] == 2, 10, "two renders")
        # Had the bound been missing, the other three would have started by now too.
        await asyncio.sleep(0.2)
        assert running[1] == 2
        release.set()
        return list(await asyncio.gather(*jobs))

    try:
        assert asyncio.run(five()) == [f"doc {n}".encode() for n in range(5)]
    finally:
        release.set()
        pool.shutdown()
    assert running[1] == 2


@pytest.mark.timeout(180)
def test_the_process_pool_prints_a_real_class_pdf(class_a: ClassWorld) -> None:
    pytest.importorskip("weasyprint")
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    pool = PrintPool(1)
    previous = printing.use_pool(pool)
    try:
        response = teacher_client(class_a.teacher).get(_class_pdf(class_a))
    finally:
        printing.use_pool(previous)
        pool.shutdown()
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    assert response.content.rstrip().endswith(b"%%EOF")


def test_the_class_page_offers_the_class_pdf(class_a: ClassWorld) -> None:
    url = reverse("classroom_detail", args=[class_a.classroom.pk])
    page = teacher_client(class_a.teacher).get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'href="{_class_pdf(class_a)}"' in page
    assert "Imprimer tous les bilans (PDF)" in page
