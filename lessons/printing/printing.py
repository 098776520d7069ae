"""Print reports as PDF away from the request's thread: a bounded pool and a cache per version.

Daphne runs every synchronous view on one shared thread, so a PDF rendered inside a view (seconds
of WeasyPrint each) held every other page behind it. The PDF views are asynchronous: they build
the HTML (a few queries), then wait for the print pool, whose workers are separate processes
(WeasyPrint is CPU-bound Python: threads would still share the GIL with the pages). The pool
has PDF_RENDER_WORKERS workers (2 by default): more requests wait their turn in its queue.

The first print of a process starts every worker at once; each imports WeasyPrint and loads
the fonts while the request builds its HTML. A class's PDF prints in one part a worker, side
by side, each part's HTML handed over as soon as it is built; the parts are then joined into
one PDF (lessons/printing/pdf_merge.py). A part that fails fails the whole print: no PDF with
a pupil missing is ever answered or kept.

A finished PDF is cached (the Django cache: Redis with several processes) in one slot per
report (a student's, for the teacher or for the student) or per class, with the version it was
printed from: the student, their attempts (the latest, the reasons given and the draws after a
play, which change after the attempt is written), missed equivalences, sessions, name and
class, the diagnosis rules' version and the language. A newer version replaces the slot's PDF;
erasing a pupil empties every slot that may show their name (`pdf_forget`).

One render per version: the first request takes a lock in the cache (`cache.add`, atomic in
Redis and in the local memory cache) with a deadline (RENDER_LOCK_SECONDS: a crashed
holder's lock expires); identical requests meanwhile wait for its PDF instead of printing it
again. A PDF is kept only if its version is still the current one once printed (a pupil
erased meanwhile, or a play: the next request prints the newer one).
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet

from lessons.diagnosis import RULES_VERSION
from lessons.evidence import loading
from lessons.models import Attempt, MissedEquivalence, SessionMember, Student
from lessons.printing.pdf_merge import merge_pdfs
from lessons.printing.pdf_render import html_to_pdf, nothing, warm_up, weasyprint_installed

CACHE_SECONDS = 7 * 24 * 3600
DEFAULT_WORKERS = 2
# The longest a render may hold its lock: a class PDF waits for a free worker, then renders.
RENDER_LOCK_SECONDS = 600
# How often a request waiting for another's render looks for its PDF.
WAIT_POLL_SECONDS = 0.2
AUDIENCES = ("teacher", "student")


class PrintPool:
    """Run `render` on at most `workers` documents at once, in processes (or threads).

    `merge` joins a document printed in parts; `warm` runs in each worker as it starts.
    """

    def __init__(
        self,
        workers: int,
        render: Callable[[str], bytes] = html_to_pdf,
        *,
        processes: bool = True,
        merge: Callable[[Sequence[bytes]], bytes] = merge_pdfs,
        warm: Callable[[], None] | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("a print pool needs at least one worker")
        self.workers = workers
        self.render = render
        self.processes = processes
        self.merge = merge
        self.warm = warm
        self._executor: Executor | None = None
        self._lock = threading.Lock()

    def _start(self) -> Executor:
        if self.processes:
            # spawn, not fork: the server process has threads and open sockets.
            executor: Executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=self.warm,
            )
        else:
            executor = ThreadPoolExecutor(
                max_workers=self.workers, thread_name_prefix="print", initializer=self.warm
            )
        # A pool starts a worker for each job given while none is idle: one empty job a
        # worker starts them all now, each warming up while the request builds its HTML.
        for _ in range(self.workers):
            executor.submit(nothing)
        return executor

    def executor(self) -> Executor:
        """Return the pool's executor, its workers started on first use."""
        with self._lock:
            if self._executor is None:
                self._executor = self._start()
            return self._executor

    def start(self) -> None:
        """Start the workers if they are not running yet (a print starts them anyway)."""
        self.executor()

    def _submit(self, job: Callable[..., bytes], *args: Any) -> asyncio.Future[bytes]:
        executor = self.executor()
        try:
            future = executor.submit(job, *args)
        except BrokenExecutor:
            self._forget(executor)
            raise
        future.add_done_callback(lambda done: self._after(executor, done))
        return asyncio.wrap_future(future)

    def _after(self, executor: Executor, done: Future[bytes]) -> None:
        # A worker that died (killed, out of memory) breaks its whole pool: the next print
        # starts a new one instead of failing for ever.
        if not done.cancelled() and isinstance(done.exception(), BrokenExecutor):
            self._forget(executor)

    def _forget(self, executor: Executor) -> None:
        with self._lock:
            if self._executor is executor:
                self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    def submit(self, html: str) -> asyncio.Future[bytes]:
        """Start printing one document in the pool; its PDF when done."""
        return self._submit(self.render, html)

    async def print(self, html: str) -> bytes:
        """Render one document in the pool; wait without holding any thread."""
        return await self.submit(html)

    async def join(self, parts: Sequence[bytes]) -> bytes:
        """Return the PDFs of a document printed in parts as one (merged in the pool)."""
        if len(parts) == 1:
            return parts[0]
        return await self._submit(self.merge, list(parts))

    def shutdown(self) -> None:
        """Stop the workers (a later print starts new ones)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


_pool: PrintPool | None = None
_pool_lock = threading.Lock()


def pdf_available() -> bool:
    """Tell whether this server prints PDFs: PDF_PRINTING on, and WeasyPrint's libraries there.

    Without them the reports open as pages to print from the browser (pdf_views.py).
    """
    return bool(getattr(settings, "PDF_PRINTING", True)) and weasyprint_installed()


def pool() -> PrintPool:
    """Return the process's print pool (PDF_RENDER_WORKERS workers)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            workers = int(getattr(settings, "PDF_RENDER_WORKERS", DEFAULT_WORKERS))
            _pool = PrintPool(workers, warm=warm_up)
        return _pool


def use_pool(replacement: PrintPool | None) -> PrintPool | None:
    """Replace the process's print pool (tests); return the previous one."""
    global _pool
    with _pool_lock:
        previous, _pool = _pool, replacement
    return previous


def _per_student(query: QuerySet[Any], student_ids: list[int], **figures: Any) -> dict[int, Any]:
    """Return `figures` of `query`'s rows for each student (one grouped query for all)."""
    rows = query.filter(student_id__in=student_ids).order_by().values("student_id")
    found = {row.pop("student_id"): row for row in rows.annotate(**figures)}
    return {pk: sorted(found.get(pk, {}).items()) for pk in student_ids}


def report_versions(students: Sequence[Student], lang: str) -> list[str]:
    """Return, for each student, a string that changes whenever their report would.

    Three queries however many students (a class's PDF reads them twice a print).
    """
    ids = [student.pk for student in students]
    attempts = _per_student(
        Attempt.objects.all(),
        ids,
        n=Count("id"),
        last=Max("id"),
        at=Max("created_at"),
        # Written after the attempt: a reason answered, a draw later in the turn.
        reasons=Count("reason"),
        last_reason=Max("id", filter=Q(reason__isnull=False)),
        draws=Count("id", filter=Q(drew=True)),
        last_draw=Max("id", filter=Q(drew=True)),
    )
    missed = _per_student(MissedEquivalence.objects.all(), ids, n=Count("id"), last=Max("id"))
    sessions = _per_student(
        SessionMember.objects.all(),
        ids,
        n=Count("id"),
        last=Max("session_id"),
        ended=Max("session__ended_at"),
    )
    return [
        repr(
            [
                "report",
                student.pk,
                student.display_name,
                student.classroom.name,
                student.classroom.grade,
                attempts[student.pk],
                missed[student.pk],
                sessions[student.pk],
                RULES_VERSION,
                # The status model's version: a new reading of the same attempts ("held")
                # prints a new PDF.
                loading.STATUS_CACHE_VERSION,
                lang,
            ]
        )
        for student in students
    ]


def report_version(student: Student, lang: str) -> str:
    """Return a string that changes whenever the student's report would."""
    return report_versions([student], lang)[0]


def version_digest(versions: Iterable[str]) -> str:
    """Return the short name of a PDF's version, made from its reports' versions."""
    return hashlib.sha256("\n".join(versions).encode()).hexdigest()


def student_slot(student_id: int, audience: str) -> str:
    """Return the cache key of a student's latest report PDF, for `audience` (AUDIENCES)."""
    return f"lessons:pdf:student:{student_id}:{audience}"


def class_slot(classroom_id: int) -> str:
    """Return the cache key of a class's latest PDF of every report."""
    return f"lessons:pdf:class:{classroom_id}"


def pdf_forget(*, student_ids: Iterable[int] = (), classroom_ids: Iterable[int] = ()) -> None:
    """Drop the cached PDFs of these students and classes (an erasure: no copy of a name)."""
    keys = [student_slot(pk, audience) for pk in student_ids for audience in AUDIENCES]
    keys += [class_slot(pk) for pk in classroom_ids]
    if keys:
        cache.delete_many(keys)


def _kept(entry: Any, version: str) -> bytes | None:
    if isinstance(entry, dict) and entry.get("version") == version:
        document = entry.get("pdf")
        return document if isinstance(document, bytes) else None
    return None


async def _print_and_keep(
    slot: str,
    version: str,
    parts: Sequence[Callable[[], str]],
    version_now: Callable[[], str | None],
) -> bytes:
    printer = pool()
    # The workers start (and import WeasyPrint) while the first part's HTML is built; each
    # part prints as soon as its HTML is ready, beside the next one's HTML.
    await sync_to_async(printer.start, thread_sensitive=False)()
    renders: list[asyncio.Future[bytes]] = []
    try:
        for make_html in parts:
            renders.append(printer.submit(await sync_to_async(make_html)()))
        document = await printer.join(await asyncio.gather(*renders))
    finally:
        for part in renders:
            part.cancel()  # one part failed: the others' PDFs are of no use (no half PDF)
    # Kept only while still current: a pupil erased while it printed leaves no copy behind.
    if await sync_to_async(version_now)() == version:
        await cache.aset(slot, {"version": version, "pdf": document}, CACHE_SECONDS)
    return document


async def cached_pdf(
    slot: str,
    version: str,
    parts: Sequence[Callable[[], str]],
    version_now: Callable[[], str | None],
) -> bytes:
    """Return the PDF of `version` from `slot`, printing it once however many ask at once.

    `parts` build the HTML of the document's parts, printed side by side and joined in
    order; `version_now` reads the version again (None: the report is gone), after printing.
    """
    lock = f"{slot}:printing:{version}"
    give_up = time.monotonic() + RENDER_LOCK_SECONDS
    while True:
        document = _kept(await cache.aget(slot), version)
        if document is not None:
            return document
        token = uuid.uuid4().hex
        if await cache.aadd(lock, token, RENDER_LOCK_SECONDS):
            try:
                # Printed by another between the look and the lock?
                document = _kept(await cache.aget(slot), version)
                if document is not None:
                    return document
                return await _print_and_keep(slot, version, parts, version_now)
            finally:
                if await cache.aget(lock) == token:
                    await cache.adelete(lock)
        # Another request prints it: watch its lock (a few bytes), not the slot (a PDF).
        while await cache.aget(lock) is not None:
            if time.monotonic() >= give_up:
                # The lock's holder never finished, nor did its lock expire: print it here.
                return await _print_and_keep(slot, version, parts, version_now)
            await asyncio.sleep(WAIT_POLL_SECONDS)
