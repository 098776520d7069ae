"""Print reports as PDF away from the request's thread: a bounded pool and a cache per version.

Daphne runs every synchronous view on one shared thread, so a PDF rendered inside a view (1-2 s
of WeasyPrint each) held every other page behind it. The PDF views are asynchronous: they build
the HTML (a few queries), then wait for the print pool, whose workers are separate processes
(WeasyPrint is CPU-bound Python: threads would still share the GIL with the pages). The pool
has PDF_RENDER_WORKERS workers (2 by default): more requests wait their turn in its queue.

A finished PDF is cached (the Django cache) under a key naming the report's version: the
student, their latest attempt and missed equivalence, their sessions, their name and class,
the diagnosis rules' version and the language. A new attempt makes a new key.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max

from lessons.diagnosis import RULES_VERSION
from lessons.models import Attempt, MissedEquivalence, SessionMember, Student
from lessons.reporting.pdf_render import html_to_pdf

CACHE_SECONDS = 7 * 24 * 3600
DEFAULT_WORKERS = 2


class PrintPool:
    """Run `render` on at most `workers` documents at once, in processes (or threads)."""

    def __init__(
        self,
        workers: int,
        render: Callable[[str], bytes] = html_to_pdf,
        *,
        processes: bool = True,
    ) -> None:
        if workers < 1:
            raise ValueError("a print pool needs at least one worker")
        self.workers = workers
        self.render = render
        self.processes = processes
        self._executor: Executor | None = None
        self._lock = threading.Lock()

    def executor(self) -> Executor:
        """Return the pool's executor, started on first use."""
        with self._lock:
            if self._executor is None:
                if self.processes:
                    # spawn, not fork: the server process has threads and open sockets.
                    self._executor = ProcessPoolExecutor(
                        max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
                    )
                else:
                    self._executor = ThreadPoolExecutor(
                        max_workers=self.workers, thread_name_prefix="print"
                    )
            return self._executor

    async def print(self, html: str) -> bytes:
        """Render one document in the pool; wait without holding any thread."""
        return await asyncio.wrap_future(self.executor().submit(self.render, html))

    def shutdown(self) -> None:
        """Stop the workers (a later print starts new ones)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


_pool: PrintPool | None = None
_pool_lock = threading.Lock()


def pool() -> PrintPool:
    """Return the process's print pool (PDF_RENDER_WORKERS workers)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            workers = int(getattr(settings, "PDF_RENDER_WORKERS", DEFAULT_WORKERS))
            _pool = PrintPool(workers)
        return _pool


def use_pool(replacement: PrintPool | None) -> PrintPool | None:
    """Replace the process's print pool (tests); return the previous one."""
    global _pool
    with _pool_lock:
        previous, _pool = _pool, replacement
    return previous


def report_version(student: Student, lang: str) -> str:
    """Return a string that changes whenever the student's report would."""
    attempts = Attempt.objects.filter(student=student).aggregate(
        n=Count("id"), last=Max("id"), at=Max("created_at")
    )
    missed = MissedEquivalence.objects.filter(student=student).aggregate(
        n=Count("id"), last=Max("id")
    )
    sessions = SessionMember.objects.filter(student=student).aggregate(
        n=Count("id"), last=Max("session_id"), ended=Max("session__ended_at")
    )
    classroom = student.classroom
    parts = [
        "report",
        student.pk,
        student.display_name,
        classroom.name,
        classroom.grade,
        attempts,
        missed,
        sessions,
        RULES_VERSION,
        lang,
    ]
    return repr(parts)


def cache_key(kind: str, versions: Iterable[str]) -> str:
    """Return the cache key of a PDF made from these report versions."""
    digest = hashlib.sha256("\n".join(versions).encode()).hexdigest()
    return f"lessons:pdf:{kind}:{digest}"


async def cached_pdf(key: str, make_html: Callable[[], str]) -> bytes:
    """Return the cached PDF under `key`, or build the HTML, print it and cache it."""
    cached = await cache.aget(key)
    if isinstance(cached, bytes):
        return cached
    html = await sync_to_async(make_html)()
    document = await pool().print(html)
    await cache.aset(key, document, CACHE_SECONDS)
    return document
