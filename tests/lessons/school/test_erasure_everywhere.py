"""An erased (or pseudonymised, or purged) pupil's name is found nowhere afterwards.

Before the erasure the name is put everywhere the app keeps things: the database (seats,
table states and logs, attempts, session places), the cache (the pupil's and the class's
report PDFs), a teacher's session (a roster file waiting for confirmation) and the logs. After
it, every text and JSON column of every table, every decoded session, every value of every
cache (the local memory caches and a real Redis), every file the teacher can download and
every log line are searched for the name: nothing. The search first proves it finds the name
where it is, so a search that cannot see would not pass.

Also: the seat of a pupil whose turn it is goes to a robot, which plays that turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import driver
from games.models import Seat, Table, TableEvent
from games.services import next_step_for, table_step
from lessons.classrooms.fresh_pins import SESSION_KEY as FRESH_PINS_KEY
from lessons.classrooms.pending_import import PENDING_IMPORT_KEY
from lessons.ent.presets import PRESETS
from lessons.models import (
    Attempt,
    EntConnector,
    EntIdentity,
    EntLinkEvent,
    EntSeenPupil,
    SchoolPolicy,
    Student,
)
from lessons.printing import printing
from lessons.printing.printing import PrintPool
from lessons.school.copies import sessions_forget
from lessons.school.erasure import student_erase, student_pseudonymise
from lessons.school.purge import purge_expired
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table, receive_until, socket
from tests.lessons.school.helpers import plays_make, texts_with
from tests.support.factories import student_client, teacher_client
from tests.support.responses import body_of
from tests.support.servers import RedisServer, redis_server

pytestmark = pytest.mark.django_db
__all__ = ["redis_server"]

NAME = "Zébulon Quartzberg"


def _html_as_pdf(html: str) -> bytes:
    # The report's HTML as the "PDF": a real PDF compresses its text, which a search of the
    # cache's bytes would then not see.
    return html.encode()


@pytest.fixture
def printer() -> Iterator[None]:
    previous = printing.use_pool(PrintPool(1, _html_as_pdf, processes=False))
    yield
    printing.use_pool(previous)


def _use_redis(settings: Settings, server: RedisServer) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "unoclass.cache_fallback.RedisCacheWithLocalFallback",
            "LOCATION": server.url,
        }
    }
    cache.clear()


def _in_sessions() -> list[str]:
    needle = NAME.casefold()
    return [
        session.session_key
        for session in Session.objects.all()
        if needle in json.dumps(session.get_decoded(), ensure_ascii=False).casefold()
    ]


def _in_caches(redis_url: str | None) -> list[str]:
    """Return where the name is in any cache: every local memory cache, and Redis."""
    needle = NAME.encode()
    found = []
    # Django's local memory caches keep pickled values in a module-level dict by name; the
    # assertion fails (rather than searching nothing) should that private layout change.
    caches = locmem._caches  # type: ignore[attr-defined]  # private: not in the stubs
    assert isinstance(caches, dict)
    for name, entries in caches.items():
        for key, value in entries.items():
            if needle in value or needle in key.encode():
                found.append(f"locmem:{name}:{key}")
    if redis_url is not None:
        from redis import Redis

        client = Redis.from_url(redis_url)
        for key in client.scan_iter():
            value = client.get(key) if client.type(key) == b"string" else b""
            if needle in key or (value is not None and needle in value):
                found.append(f"redis:{key!r}")
    return found


def _in_downloads(world: ClassWorld, others: list[Student]) -> list[str]:
    """Return which of the teacher's downloads (CSV, JSON, PDF) still hold the name."""
    client = teacher_client(world.teacher)
    urls = [
        reverse("export_attempts", args=[world.classroom.pk]),
        reverse("export_students", args=[world.classroom.pk]),
        reverse("report_class_pdf", args=[world.classroom.pk]),
    ]
    for other in others:
        urls += [reverse("student_export", args=[other.pk, fmt]) for fmt in ("json", "csv")]
    found = []
    for url in urls:
        response = client.get(url)
        body = body_of(response)
        if NAME in body.decode("utf-8-sig"):
            found.append(url)
    return found


def _everywhere(world: ClassWorld) -> Student:
    """Name the pupil NAME and put the name in every store the app keeps."""
    student = world.other_student.student
    Student.objects.filter(pk=student.pk).update(display_name=NAME)
    student.refresh_from_db()
    plays_make(world)
    teacher = teacher_client(world.teacher)
    pdfs = [
        reverse("report_student_pdf", args=[world.classroom.pk, student.pk]),
        reverse("report_class_pdf", args=[world.classroom.pk]),
    ]
    for url in pdfs:
        assert teacher.get(url).status_code == 200
    assert student_client(student).get(reverse("report_me_pdf")).status_code == 200
    # Linked to the ENT (by the teacher, an audited event), and the same ENT account waiting on
    # the matching screen under the ENT's name for the pupil (it signed in once unlinked).
    connector = EntConnector.objects.create(
        name="ENT", server_url="https://ent.example/cas/", **PRESETS["edifice"]
    )
    EntIdentity.objects.create(connector=connector, external_id=NAME, user=student.user)
    EntSeenPupil.objects.create(
        connector=connector, external_id=NAME, display_name=NAME, classes=[NAME]
    )
    EntLinkEvent.objects.create(
        classroom=world.classroom, student=student, by=world.teacher, action="linked"
    )
    # A roster file naming the pupil, read and waiting for the teacher's confirmation.
    roster = SimpleUploadedFile("liste.csv", f"Prénom\n{NAME}\nNina\n".encode())
    url = reverse("classroom_import", args=[world.classroom.pk])
    assert teacher.post(url, {"file": roster}).status_code == 200
    return student


def _search(redis_url: str | None) -> dict[str, list[str]]:
    return {
        "database": texts_with(NAME),
        "sessions": _in_sessions(),
        "cache": _in_caches(redis_url),
    }


def _erase_view(world: ClassWorld, student: Student) -> None:
    url = reverse("student_erase", args=[student.pk])
    assert teacher_client(world.teacher).post(url, {"confirm": "on"}).status_code == 302


def _pseudonymise(world: ClassWorld, student: Student) -> None:
    student_pseudonymise(student=student)


def _purge(world: ClassWorld, student: Student) -> None:
    purge_expired(apply=True, now=timezone.now() + timedelta(days=3 * 365))


def _purge_pseudonymising(world: ClassWorld, student: Student) -> None:
    SchoolPolicy.objects.create(retention_months=12, keep_pseudonymised=True)
    _purge(world, student)


ERASURES: dict[str, Callable[[ClassWorld, Student], None]] = {
    "erase": _erase_view,
    "pseudonymise": _pseudonymise,
    "purge_expired (erase)": _purge,
    "purge_expired (pseudonymise)": _purge_pseudonymising,
}


@pytest.mark.parametrize("backend", ["locmem", "redis"])
@pytest.mark.parametrize("how", list(ERASURES))
def test_after_erasure_the_name_is_nowhere(  # noqa: PLR0913
    class_a: ClassWorld,
    printer: None,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
    django_capture_on_commit_callbacks: Any,
    backend: str,
    how: str,
) -> None:
    caplog.set_level(logging.DEBUG)
    redis_url = None
    if backend == "redis":
        server = request.getfixturevalue("redis_server")
        _use_redis(settings, server)
        redis_url = server.url
    student = _everywhere(class_a)
    before = _search(redis_url)
    # The search sees the name where it is (else it would find nothing after, whatever).
    assert (
        "games.Seat.name" in before["database"]
        and "lessons.Student.display_name" in (before["database"])
    )
    assert before["sessions"] and before["cache"], before
    others = [class_a.student.student]
    assert _in_downloads(class_a, [student]) != []
    with django_capture_on_commit_callbacks(execute=True):
        ERASURES[how](class_a, student)
    assert _search(redis_url) == {"database": [], "sessions": [], "cache": []}
    assert _in_downloads(class_a, others) == []
    assert NAME not in caplog.text
    assert all(NAME not in str(record.args) for record in caplog.records)
    if "pseudonymise" in how:
        # The plays stay, under the pseudonym.
        assert Attempt.objects.filter(student=student).exists()
    cache.clear()


def test_the_copies_of_a_pupil_of_another_class_stay(
    class_a: ClassWorld, class_b: ClassWorld, printer: None
) -> None:
    """An erasure empties its own pupil's and classes' copies, not another class's."""
    other_pdf = reverse("report_class_pdf", args=[class_b.classroom.pk])
    assert teacher_client(class_b.teacher).get(other_pdf).status_code == 200
    kept = printing.class_slot(class_b.classroom.pk)
    assert cache.get(kept) is not None
    student_erase(student=class_a.other_student.student)
    assert cache.get(kept) is not None


def test_the_pdfs_of_a_co_teachers_own_classes_go_too(
    class_a: ClassWorld, class_b: ClassWorld, printer: None
) -> None:
    """A co-teacher may have moved the pupil out of one of their own classes: its PDF goes."""
    class_a.classroom.co_teachers.add(class_b.teacher)
    other_pdf = reverse("report_class_pdf", args=[class_b.classroom.pk])
    assert teacher_client(class_b.teacher).get(other_pdf).status_code == 200
    slot = printing.class_slot(class_b.classroom.pk)
    assert cache.get(slot) is not None
    student_erase(student=class_a.other_student.student)
    assert cache.get(slot) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["erase", "pseudonymise"])
def test_the_seat_of_the_pupil_whose_turn_it_is_goes_to_a_robot_that_plays(
    class_a: ClassWorld, settings: Settings, how: str
) -> None:
    settings.GAMES_BOT_DELAY = 0.01
    # Two pupils, no turn timer; seat 1 (the pupil erased) is to play.
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    assert next_step_for(table) is None  # nobody but the pupil can move the game on

    async def erase_while_the_other_watches() -> dict[str, Any]:
        comm = await socket(table.pk, users[0])
        assert (await comm.connect())[0]
        await receive_until(comm, "state")
        remove = student_erase if how == "erase" else student_pseudonymise
        await database_sync_to_async(remove)(student=class_a.other_student.student)
        # The robot's move reaches the other player as an ordinary state with its events.
        for _ in range(10):
            frame = await receive_until(comm, "state", timeout=10)
            if frame["state_id"] >= 1:
                break
        await comm.disconnect()
        return frame

    try:
        frame = asyncio.run(erase_while_the_other_watches())
    finally:
        driver.cancel_all()
    assert frame["state_id"] == 1
    assert any(item["event"].get("seat") == 1 for item in frame["events"]), frame["events"]
    seat = Seat.objects.get(table=table, index=1)
    assert seat.user_id is None and seat.bot and seat.name == "Robot 1"
    assert TableEvent.objects.get(table=table, seq=1).actor == TableEvent.Actor.BOT
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_without_a_socket_the_robots_step_is_due_at_once(class_a: ClassWorld) -> None:
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    student_erase(student=class_a.other_student.student)
    table.refresh_from_db()
    step = next_step_for(table)
    assert step is not None and step.table_id == table.pk
    outcome = table_step(table_id=table.pk, state_id=step.state_id)
    assert outcome is not None
    table.refresh_from_db()
    assert table.state_id == 1 and table.moves >= 1


def test_only_waiting_roster_files_of_the_pupils_classes_that_name_them_are_dropped(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    student = class_a.other_student.student
    stores = {}
    for label, classroom, names in [
        ("names them", class_a.classroom, ["Nina", student.display_name.upper()]),
        ("another class", class_b.classroom, [student.display_name]),
        ("not them", class_a.classroom, ["Nina"]),
    ]:
        store = SessionStore()
        store[PENDING_IMPORT_KEY] = {"classroom": classroom.pk, "names": names}
        store[FRESH_PINS_KEY] = {str(student.pk): ["1234", 0.0], "999": ["5678", 0.0]}
        store.create()
        stores[label] = store.session_key
    changed = sessions_forget(
        student_id=student.pk, name=student.display_name, classroom_ids={class_a.classroom.pk}
    )
    assert changed == 3  # each held the pupil's fresh PIN
    after = {label: SessionStore(session_key=key).load() for label, key in stores.items()}
    assert PENDING_IMPORT_KEY not in after["names them"]
    assert after["another class"][PENDING_IMPORT_KEY]["names"] == [student.display_name]
    assert after["not them"][PENDING_IMPORT_KEY]["names"] == ["Nina"]
    for data in after.values():
        assert data[FRESH_PINS_KEY] == {"999": ["5678", 0.0]}


# What a teacher's file may hold for "Basile…": a Cyrillic а (the class's name rule takes it
# for the same name), fullwidth capitals, other spacing and case.
LOOK_ALIKES: dict[str, Callable[[str], str]] = {
    "cyrillic": lambda name: name.replace("a", "\u0430", 1),
    "fullwidth": lambda name: "".join(chr(ord(c) + 0xFEE0) for c in name.upper()),
    "spaced": lambda name: f"  {name.lower()} ",
}


@pytest.mark.parametrize("kind", sorted(LOOK_ALIKES))
def test_a_waiting_roster_file_naming_a_look_alike_of_the_pupil_is_dropped(
    class_a: ClassWorld, kind: str
) -> None:
    student = class_a.other_student.student
    written = LOOK_ALIKES[kind](student.display_name)
    assert written != student.display_name
    store = SessionStore()
    store[PENDING_IMPORT_KEY] = {"classroom": class_a.classroom.pk, "names": ["Nina", written]}
    store.create()
    changed = sessions_forget(
        student_id=student.pk, name=student.display_name, classroom_ids={class_a.classroom.pk}
    )
    assert changed == 1
    assert PENDING_IMPORT_KEY not in SessionStore(session_key=store.session_key).load()


@pytest.mark.parametrize("remove", [student_erase, student_pseudonymise])
def test_a_pdf_kept_while_the_erasure_commits_is_dropped_after_commit(
    class_a: ClassWorld,
    django_capture_on_commit_callbacks: Any,
    remove: Callable[..., Any],
) -> None:
    student = class_a.student.student
    slots = [
        printing.student_slot(student.pk, "student"),
        printing.class_slot(class_a.classroom.pk),
    ]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        remove(student=student)
        # A print that began before the erasure ends now, before the commit: it keeps its PDF.
        for slot in slots:
            cache.set(slot, {"version": "old", "pdf": NAME.encode()})
    for callback in callbacks:
        callback()
    assert cache.get_many(slots) == {}
