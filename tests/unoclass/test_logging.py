"""A refusal is one log line; a server error keeps its traceback (settings.LOGGING).

The tests read what the configured console handler writes, so the filter and the logger set-up
in settings.py are both under test (pytest's own log capture would bypass the handler). One test
runs a real daphne and reads its log.
"""

from __future__ import annotations

import io
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path, reverse

from tests.conftest import ClassWorld
from tests.support.live import LiveApp
from unoclass.log_filters import RefusalsWithoutTraceback


def _refuse(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def _fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("planted server error")


# The project's pages too: the error pages link to them.
urlpatterns = [path("refuse/", _refuse), path("fail/", _fail), path("", include("unoclass.urls"))]


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """Point the settings' console handler at a buffer; yield the buffer."""
    handlers = [
        h
        for h in logging.getLogger("django").handlers
        if any(isinstance(f, RefusalsWithoutTraceback) for f in h.filters)
    ]
    assert handlers, "the django logger has no console handler with the refusal filter"
    buffer = io.StringIO()
    old = [h.setStream(buffer) for h in handlers if isinstance(h, logging.StreamHandler)]
    yield buffer
    for handler, stream in zip(handlers, old, strict=True):
        if stream is not None and isinstance(handler, logging.StreamHandler):
            handler.setStream(stream)


def test_a_student_refused_a_teacher_page_logs_one_line(
    class_a: ClassWorld, console: io.StringIO
) -> None:
    client = Client()
    client.force_login(class_a.student.user)
    url = reverse("dashboard_class", kwargs={"classroom_id": class_a.classroom.pk})
    assert client.get(url).status_code == 403
    lines = console.getvalue().splitlines()
    assert lines == [f"Forbidden (Permission denied): {url}"]


@pytest.mark.urls("tests.unoclass.test_logging")
def test_refusal_and_server_error(db: None, console: io.StringIO) -> None:
    client = Client(raise_request_exception=False)
    assert client.get("/refuse/").status_code == 403
    refusal = console.getvalue()
    assert refusal.splitlines() == ["Forbidden (Permission denied): /refuse/"]
    assert client.get("/fail/").status_code == 500
    error = console.getvalue()[len(refusal) :]
    assert error.startswith("Internal Server Error: /fail/\nTraceback (most recent call last):")
    assert "RuntimeError: planted server error" in error


def test_filter_keeps_the_traceback_of_records_without_a_4xx() -> None:
    def record(**extra: object) -> logging.LogRecord:
        try:
            raise ValueError("boom")
        except ValueError:
            import sys

            made = logging.LogRecord("x", logging.ERROR, __file__, 1, "m", None, sys.exc_info())
        made.__dict__.update(extra)
        return made

    refusal_filter = RefusalsWithoutTraceback()
    for kept in (record(), record(status_code=500), record(status_code="403")):
        assert refusal_filter.filter(kept) and kept.exc_info
    for dropped in (record(status_code=403), record(status_code=400)):
        assert refusal_filter.filter(dropped) and dropped.exc_info is None


@pytest.mark.timeout(180)
def test_daphne_logs_a_refusal_as_one_line() -> None:
    app = LiveApp()
    try:
        app.migrate()
        world = app.world(students=["Léa"], table=False)
        server = app.start()
        student_key = world["students"][0]["session"]
        url = f"{server.http}/classrooms/{world['classroom']}/dashboard/"
        request = urllib.request.Request(url, headers={"Cookie": f"sessionid={student_key}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 403
        server.kill()
        log = server.log()
        assert "Forbidden (Permission denied): " in log
        assert "Traceback" not in log
        assert "PermissionDenied" not in log
    finally:
        app.close()
