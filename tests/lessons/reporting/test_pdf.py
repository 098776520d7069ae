"""PDF reports: printed in a bounded pool off the request's thread, cached per report version,
and a whole class's reports as one PDF.

Most tests swap the print pool for a thread pool whose renderer is a fake that records what it
is given (fast, and visible to the test), and whose merger joins the fake parts with a mark; a
few print for real in the process pool. A class prints in one part a worker (two by default).
"""

from __future__ import annotations

import asyncio
import functools
import io
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import ThreadSensitiveContext
from django.core.cache import cache
from django.db import connection
from django.test import AsyncClient, Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from pytest_django.fixtures import Settings

from lessons.attempts.reasons import attempt_set_reason
from lessons.models import Attempt, Student
from lessons.printing import printing
from lessons.printing.pdf_render import PdfUnavailable, warm_up
from lessons.printing.printing import PrintPool
from lessons.reporting import pdf_views
from tests.conftest import ClassWorld
from tests.lessons.reporting import print_jobs
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import make_students, student_client, teacher_client
from tests.support.responses import redirect_url
from tests.support.servers import redis_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db
__all__ = ["redis_server"]


PART_MARK = b"\n--next part--\n"


def fake_merge(parts: Sequence[bytes]) -> bytes:
    """Stand in for the PDF merger: the parts in order, between marks."""
    return PART_MARK.join(parts)


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
    previous = printing.use_pool(PrintPool(2, fake, processes=False, merge=fake_merge))
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


def _parts_in_order(printer: FakePrinter, merged: bytes) -> list[str]:
    """Return the HTML of each part of a merged fake PDF, in the merged document's order."""
    return [printer.documents[int(n) - 1] for n in re.findall(rb"%PDF-fake-(\d+)", merged)]


def test_the_class_pdf_holds_every_report_sorted_by_name(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    make_students(classroom=class_a.classroom, names=["Zoé", "émile", "Léo", "Lucas", "Éloïse"])
    make_students(classroom=class_a.classroom, names=["Léa"])
    response = teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    # One part a worker, printed side by side, joined in the class's order.
    parts = _parts_in_order(printer, response.content)
    assert len(parts) == 2 and sorted(parts) == sorted(printer.documents)
    names = [re.findall(r"Bilan de progrès · ([^<]+)</h1>", html) for html in parts]
    assert names == [["AnaïsA", "BasileA", "Éloïse", "émile"], ["Léa", "Léo", "Lucas", "Zoé"]]
    # Each part a whole document: the class's title, the reader's language; the class page
    # opens the first (issue 31 §7).
    for index, html in enumerate(parts):
        assert html.count('class="pdf-report"') == 4 + (index == 0)
        assert ("La classe · Classe A" in html) == (index == 0)
        assert "<title>Bilans de progrès · Classe A</title>" in html and 'lang="fr"' in html
    # Cached until any report of the class changes.
    teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert len(printer.documents) == 2
    log_plays(class_a.other_student.student, M1_PLAYS)
    teacher_client(class_a.teacher).get(_class_pdf(class_a))
    assert len(printer.documents) == 4


@pytest.mark.parametrize(
    ("pupils", "workers", "sizes"),
    [(30, 2, [15, 15]), (7, 2, [4, 3]), (1, 2, [1]), (5, 3, [2, 2, 1]), (4, 1, [4])],
)
def test_a_class_is_cut_in_even_runs_in_order(pupils: int, workers: int, sizes: list[int]) -> None:
    students = [Student(pk=n, display_name=str(n)) for n in range(pupils)]
    runs = pdf_views.in_parts(students, workers)
    assert [len(run) for run in runs] == sizes
    assert [s for run in runs for s in run] == students


def test_the_old_pdf_links_lead_to_the_pdf_views(class_a: ClassWorld, printer: FakePrinter) -> None:
    teacher = teacher_client(class_a.teacher)
    url = reverse("report_student", args=[class_a.classroom.pk, class_a.student.student.pk])
    assert redirect_url(teacher.get(url, {"format": "pdf"})) == _student_pdf(class_a)
    student = student_client(class_a.student.student)
    pdf = reverse("report_me_pdf")
    assert redirect_url(student.get(reverse("report_me"), {"format": "pdf"})) == pdf


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
    assert anonymous.status_code == 302 and "/login" in redirect_url(anonymous)
    # A class without students has nothing to print.
    class_a.classroom.students.all().delete()
    assert teacher.get(_class_pdf(class_a)).status_code == 404
    assert printer.documents == []


def test_a_print_that_finds_weasyprint_missing_answers_the_page_to_print(
    class_a: ClassWorld,
) -> None:
    def missing(html: str) -> bytes:
        raise PdfUnavailable("no pango")

    previous = printing.use_pool(PrintPool(1, missing, processes=False))
    try:
        response = teacher_client(class_a.teacher).get(_student_pdf(class_a))
    finally:
        printing.use_pool(previous)
    _assert_page_to_print(response, class_a.student.student.display_name)
    assert cache.get(printing.student_slot(class_a.student.student.pk, "teacher")) is None


NOTE = "Cet ordinateur ne peut pas faire de PDF"


def _assert_page_to_print(response: Any, *names: str) -> None:
    """The report as an HTML page for the browser to print: the note says why, styled by nonce."""
    page = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "Content-Disposition" not in response
    assert NOTE in page and "Ctrl+P" in page
    for name in names:
        assert f"Bilan de progrès · {name}<" in page
    # The page's own styles carry the response's nonce (the CSP refuses any other <style>).
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
    assert nonce is not None
    assert page.count("<style") == page.count(f'<style nonce="{nonce.group(1)}"') >= 2


def test_with_pdf_printing_off_every_report_opens_as_a_page_to_print(
    class_a: ClassWorld, settings: Settings, printer: FakePrinter
) -> None:
    settings.PDF_PRINTING = False
    teacher = teacher_client(class_a.teacher)
    _assert_page_to_print(teacher.get(_student_pdf(class_a)), class_a.student.student.display_name)
    _assert_page_to_print(
        teacher.get(_class_pdf(class_a)),
        class_a.student.student.display_name,
        class_a.other_student.student.display_name,
    )
    pupil = student_client(class_a.student.student)
    _assert_page_to_print(pupil.get(reverse("report_me_pdf")), class_a.student.student.display_name)
    assert printer.documents == []
    # The refusals come first, as with PDFs: a pupil never gets the class's page.
    assert pupil.get(_class_pdf(class_a)).status_code == 403


def test_the_pdf_buttons_say_why_there_is_no_pdf(class_a: ClassWorld, settings: Settings) -> None:
    student = class_a.student.student
    teacher = teacher_client(class_a.teacher)
    pages = [
        reverse("report_student", args=[class_a.classroom.pk, student.pk]),
        reverse("classroom_detail", args=[class_a.classroom.pk]),
        reverse("dashboard_student", args=[class_a.classroom.pk, student.pk]),
    ]
    for url in pages:
        page = teacher.get(url).content.decode()
        assert 'id="no-pdf-why"' not in page and "Page à imprimer" not in page, url
    settings.PDF_PRINTING = False
    for url in pages:
        page = teacher.get(url).content.decode()
        assert 'aria-describedby="no-pdf-why"' in page, url
        assert page.count('id="no-pdf-why"') == 1, url
        assert "Pourquoi pas de PDF" in page and "WeasyPrint" in page, url
        assert "(PDF)" not in page and ">PDF<" not in page, url


def test_weasyprint_counts_as_missing_when_it_cannot_be_found(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    from lessons.printing import pdf_render

    pdf_render.weasyprint_installed.cache_clear()
    try:
        assert pdf_render.weasyprint_installed() and printing.pdf_available()
        pdf_render.weasyprint_installed.cache_clear()
        monkeypatch.setitem(sys.modules, "weasyprint", None)
        assert not pdf_render.weasyprint_installed() and not printing.pdf_available()
        monkeypatch.undo()
        pdf_render.weasyprint_installed.cache_clear()
        monkeypatch.setattr(pdf_render, "PANGO_NAMES", ("libno-such-pango.so.0",))
        assert not pdf_render.weasyprint_installed()
    finally:
        pdf_render.weasyprint_installed.cache_clear()
    settings.PDF_PRINTING = False
    assert not printing.pdf_available()


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


def _real_class_pdf(world: ClassWorld, workers: int) -> bytes:
    pool = PrintPool(workers, warm=warm_up)
    previous = printing.use_pool(pool)
    try:
        cache.clear()
        response = teacher_client(world.teacher).get(_class_pdf(world))
    finally:
        printing.use_pool(previous)
        pool.shutdown()
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    assert response.content.rstrip().endswith(b"%%EOF")
    return response.content


def _outline(reader: PdfReader) -> list[tuple[str | None, int | None]]:
    """Return the outline's top entries (a report each) with the page each leads to."""
    return [
        (entry.title, reader.get_destination_page_number(entry))
        for entry in reader.outline
        if not isinstance(entry, list)
    ]


@pytest.mark.timeout(240)
def test_the_process_pool_prints_a_class_in_parts_like_in_one(class_a: ClassWorld) -> None:
    """Printed by two workers and joined: the same pages, reports, outline, title and
    language as printed whole by one."""
    pytest.importorskip("weasyprint")
    make_students(classroom=class_a.classroom, names=["Zoé", "Léo", "Éloïse", "Lucas", "Inès"])
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    whole = PdfReader(io.BytesIO(_real_class_pdf(class_a, 1)))
    joined = PdfReader(io.BytesIO(_real_class_pdf(class_a, 2)))
    names = ["AnaïsA", "BasileA", "Éloïse", "Inès", "Léo", "Lucas", "Zoé"]
    assert len(joined.pages) == len(whole.pages) >= len(names)
    for reader in (whole, joined):
        text = "\n".join(page.extract_text() for page in reader.pages)
        found = [text.index(f"Bilan de progrès · {name}") for name in names]
        assert found == sorted(found)  # every pupil's report, in the class's order
        assert reader.metadata is not None
        assert reader.metadata.title == "Bilans de progrès · Classe A"
        lang: object = reader.root_object["/Lang"]
        assert lang == "fr"
    reports = [f"Bilan de progrès · {n}" for n in names]
    assert [title for title, _ in _outline(joined)] == ["La classe · Classe A", *reports]
    assert _outline(joined) == _outline(whole)  # each report's bookmark leads to its page
    for number, (page, again) in enumerate(zip(whole.pages, joined.pages, strict=True)):
        assert page.extract_text() == again.extract_text(), f"page {number + 1}"


def test_a_class_version_reads_four_queries_however_many_pupils(class_a: ClassWorld) -> None:
    """Read before and after each print: a query set for the class, not three a pupil."""
    log_plays(class_a.student.student, M1_PLAYS)

    def version() -> tuple[str, int]:
        students = pdf_views._class_students(class_a.classroom)
        with CaptureQueriesContext(connection) as queries:
            digest = pdf_views._class_version(class_a.classroom, students, "fr")
        return digest, len(queries)

    before, two = version()
    make_students(classroom=class_a.classroom, names=["Zoé", "Léo", "Inès", "Lucas"])
    after, six = version()
    assert two == six == 4 and before != after  # three for the pupils, one for the plans
    # Each pupil's part is their own report's version, as the pupil's own PDF reads it.
    students = pdf_views._class_students(class_a.classroom)
    each = printing.report_versions(students, "fr")
    assert each == [printing.report_version(student, "fr") for student in students]
    # A play changes its pupil's version alone.
    log_plays(class_a.other_student.student, RIGHT_PLAYS)
    again = printing.report_versions(students, "fr")
    changed = [s.display_name for s, a, b in zip(students, each, again, strict=True) if a != b]
    assert changed == ["BasileA"]


def _failing_on(name: str, error: Exception) -> Callable[[str], bytes]:
    def render(html: str) -> bytes:
        if f"Bilan de progrès · {name}<" in html:
            raise error
        return b"%PDF-part"

    return render


def test_a_part_that_fails_fails_the_whole_pdf_and_leaves_nothing(class_a: ClassWorld) -> None:
    """No half PDF: the request fails, nothing is kept, and the next request prints anew."""
    slot = printing.class_slot(class_a.classroom.pk)
    failing = PrintPool(2, _failing_on("BasileA", RuntimeError("layout")), processes=False)
    previous = printing.use_pool(failing)
    try:
        with pytest.raises(RuntimeError, match="layout"):
            teacher_client(class_a.teacher).get(_class_pdf(class_a))
        assert cache.get(slot) is None
        assert cache.get(f"{slot}:printing:{_class_job(class_a).version}") is None  # no lock
        printer = FakePrinter()
        printing.use_pool(PrintPool(2, printer, processes=False, merge=fake_merge))
        response = teacher_client(class_a.teacher).get(_class_pdf(class_a))
    finally:
        printing.use_pool(previous)
        failing.shutdown()
    assert response.status_code == 200 and len(printer.documents) == 2
    assert cache.get(slot)["pdf"] == response.content


def test_a_part_without_weasyprint_answers_the_class_s_page_to_print(
    class_a: ClassWorld,
) -> None:
    broken = _failing_on("AnaïsA", PdfUnavailable("no pango"))
    previous = printing.use_pool(PrintPool(2, broken, processes=False, merge=fake_merge))
    try:
        response = teacher_client(class_a.teacher).get(_class_pdf(class_a))
    finally:
        printing.use_pool(previous)
    _assert_page_to_print(
        response,
        class_a.student.student.display_name,
        class_a.other_student.student.display_name,
    )
    assert cache.get(printing.class_slot(class_a.classroom.pk)) is None


def _class_job(world: ClassWorld) -> pdf_views.PrintJob:
    request = RequestFactory().get(_class_pdf(world))
    with translation.override("fr"):
        return pdf_views._prepare_class(request, world.teacher, world.classroom.pk)


@pytest.mark.timeout(120)
def test_a_worker_that_dies_fails_its_print_and_the_next_print_starts_new_workers() -> None:
    pool = PrintPool(2, print_jobs.die_on_request, merge=fake_merge)

    async def prints() -> bytes:
        with pytest.raises(BrokenProcessPool):
            await pool.print("die")
        return await pool.print("alive")

    try:
        assert asyncio.run(prints()) == b"alive"
    finally:
        pool.shutdown()


@pytest.mark.timeout(120)
def test_the_workers_start_and_warm_up_before_the_first_print(tmp_path: Path) -> None:
    """The pool's start (a request's first step) starts every worker and warms it, with no
    print asked yet: they import WeasyPrint while the request builds the HTML."""
    pool = PrintPool(2, warm=functools.partial(print_jobs.mark_started, str(tmp_path)))
    try:
        pool.start()
        wait_until(lambda: len(list(tmp_path.iterdir())) == 2, 60, "both workers warmed up")
    finally:
        pool.shutdown()


def test_the_class_page_offers_the_class_pdf(class_a: ClassWorld) -> None:
    url = reverse("classroom_detail", args=[class_a.classroom.pk])
    page = teacher_client(class_a.teacher).get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'href="{_class_pdf(class_a)}"' in page
    assert "Imprimer tous les bilans (PDF)" in page


def test_a_reason_or_a_draw_after_the_last_play_is_a_new_version(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    student = class_a.student.student
    log_plays(student, M1_PLAYS)
    client = teacher_client(class_a.teacher)
    client.get(_student_pdf(class_a))
    client.get(_class_pdf(class_a))
    assert len(printer.documents) == 3  # the class in two parts
    last_wrong = Attempt.objects.filter(student=student, outcome="wrong").latest("id")
    # The reason comes after the last play: no new attempt, and yet a new report.
    attempt_set_reason(student=student, attempt_id=last_wrong.pk, reason="same_bottom")
    client.get(_student_pdf(class_a))
    client.get(_class_pdf(class_a))
    assert len(printer.documents) == 6
    # So does a draw later in the same turn.
    Attempt.objects.filter(pk=last_wrong.pk).update(drew=True)
    client.get(_student_pdf(class_a))
    client.get(_class_pdf(class_a))
    assert len(printer.documents) == 9
    # Nothing new: answered from the cache.
    client.get(_student_pdf(class_a))
    client.get(_class_pdf(class_a))
    assert len(printer.documents) == 9


class GatedPrinter(FakePrinter):
    """A printer that holds every render until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.entered = 0

    def __call__(self, html: str) -> bytes:
        with self.lock:
            self.entered += 1
        self.gate.wait(30)
        return super().__call__(html)


def _concurrent_class_pdfs(
    world: ClassWorld, count: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[bytes], GatedPrinter]:
    """Ask for the same class PDF `count` times at once; return the answers and the printer.

    The gate opens once every request has its job (checks, version) and the renders that
    would start have started: without a lock, each request would be printing by then.
    """
    gated = GatedPrinter()
    prepared = [0]
    prepare = pdf_views._prepare_class

    def counted(*args: Any) -> Any:
        job = prepare(*args)
        prepared[0] += 1
        return job

    monkeypatch.setattr(pdf_views, "_prepare_class", counted)
    locks = LockWatch(cache)
    monkeypatch.setattr(printing, "cache", locks)
    previous = printing.use_pool(PrintPool(count, gated, processes=False, merge=fake_merge))

    async def ask() -> list[bytes]:
        client = AsyncClient()
        await client.aforce_login(world.teacher)

        async def one() -> Any:
            # Each request in its own thread for synchronous code, as daphne runs them
            # (Django's ASGIHandler; the test client would share one thread among them).
            async with ThreadSensitiveContext():
                return await client.get(_class_pdf(world))

        requests = [asyncio.ensure_future(one()) for _ in range(count)]
        await asyncio.to_thread(wait_until, lambda: prepared[0] == count, 20, "every job")
        # Until each request either prints (its two parts entered the printer) or was refused
        # the lock (it then waits for the lock's holder): without the lock, each request's two
        # parts would be printing by then. At most 30 s (a loaded machine), either is fine:
        # the counts below judge.
        await asyncio.to_thread(
            _wait_quietly, lambda: gated.entered // 2 + locks.refused >= count, 30
        )
        gated.gate.set()
        responses = await asyncio.gather(*requests)
        assert all(r.status_code == 200 for r in responses)
        return [r.content for r in responses]

    try:
        return asyncio.run(ask()), gated
    finally:
        gated.gate.set()
        printing.use_pool(previous)
        monkeypatch.setattr(pdf_views, "_prepare_class", prepare)
        monkeypatch.setattr(printing, "cache", cache)


class LockWatch:
    """The cache as `printing` sees it, counting the render locks it was refused (`add`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.refused = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def aadd(self, key: str, *args: Any, **kwargs: Any) -> bool:
        added = bool(await self.inner.aadd(key, *args, **kwargs))
        if not added and ":printing:" in key:
            self.refused += 1
        return added


def _wait_quietly(condition: Callable[[], bool], seconds: float) -> None:
    """Wait until `condition` holds or `seconds` pass (either is fine)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("backend", ["locmem", "redis"])
def test_identical_requests_render_once_and_the_others_wait_for_it(
    class_a: ClassWorld,
    settings: Settings,
    backend: str,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if backend == "redis":
        server = request.getfixturevalue("redis_server")
        settings.CACHES = {
            "default": {
                "BACKEND": "unoclass.cache_fallback.RedisCacheWithLocalFallback",
                "LOCATION": server.url,
            }
        }
    cache.clear()
    log_plays(class_a.student.student, M1_PLAYS)
    answers, gated = _concurrent_class_pdfs(class_a, 4, monkeypatch)
    assert len(gated.documents) == 2  # one print, in two parts
    assert answers == [answers[0]] * 4
    # No lock is left behind: the next version prints at once.
    log_plays(class_a.other_student.student, RIGHT_PLAYS)
    answers, gated = _concurrent_class_pdfs(class_a, 2, monkeypatch)
    assert len(gated.documents) == 2
    cache.clear()


async def test_a_lock_whose_holder_died_expires(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printing, "RENDER_LOCK_SECONDS", 1)
    slot, version = printing.class_slot(class_a.classroom.pk), "v1"
    # A lock taken by a process that died: it never prints nor lets go.
    await cache.aadd(f"{slot}:printing:{version}", "dead", 1)
    previous = printing.use_pool(PrintPool(1, FakePrinter(), processes=False))
    try:
        document = await asyncio.wait_for(
            printing.cached_pdf(slot, version, (lambda: "<html>",), lambda: version), 10
        )
    finally:
        printing.use_pool(previous)
    assert document == b"%PDF-fake-1"
    assert (await cache.aget(slot))["pdf"] == document
