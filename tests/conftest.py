"""Fixtures shared by the whole suite: a cheap PIN hash, a clean cache, two classes, a pair.

Two teachers each own one classroom with two students, so access tests can check that
nobody reaches another class's data. Factories live in tests/support/factories.py.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from pytest_django.fixtures import Settings

from lessons.models import Classroom, User
from tests.support.factories import StudentLogin, make_classroom, make_student, make_teacher


@pytest.fixture(autouse=True)
def _fast_pin_hash(settings: Settings) -> None:
    # The production cost (lessons.classrooms.pins) would make roster tests slow; same scheme.
    settings.PIN_HASH_ITERATIONS = 1_000


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # The per-address sign-in limit lives in the cache: every test starts from zero.
    cache.clear()
    yield
    cache.clear()


@dataclass(frozen=True)
class ClassWorld:
    """One teacher, their classroom and two of its students."""

    teacher: User
    classroom: Classroom
    student: StudentLogin
    other_student: StudentLogin


def _class_world(suffix: str, language: str) -> ClassWorld:
    teacher = make_teacher(username=f"teacher_{suffix}")
    classroom = make_classroom(teacher=teacher, name=f"Classe {suffix}", language=language)
    return ClassWorld(
        teacher=teacher,
        classroom=classroom,
        student=make_student(classroom=classroom, display_name=f"Anaïs{suffix}", pin="1357"),
        other_student=make_student(classroom=classroom, display_name=f"Basile{suffix}", pin="2468"),
    )


@pytest.fixture
def class_a(db: None) -> ClassWorld:
    """Teacher A's French classroom with students AnaïsA and BasileA."""
    return _class_world("A", "fr")


@pytest.fixture
def class_b(db: None) -> ClassWorld:
    """Teacher B's English classroom with students AnaïsB and BasileB."""
    return _class_world("B", "en")


@pytest.fixture
def pair(class_a: ClassWorld) -> tuple[User, User]:
    """Class A's two students, as the users of a two-seat table."""
    return class_a.student.user, class_a.other_student.user


def pytest_configure(config: pytest.Config) -> None:
    """Silence whitenoise's notice that collectstatic has not run (tests never need it)."""
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")


# A file of more tests than this is dealt to the workers test by test (the matrices); a smaller
# one goes whole to one worker.
WHOLE_FILE_TESTS = 60


def _by_file(items: list[pytest.Item]) -> dict[str, list[pytest.Item]]:
    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    return by_file


def _uses_test_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(
        fixtures & {"db", "transactional_db", "live_server", "django_db_reset_sequences"}
    )


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Share the tests out between xdist's workers (`make test`: `-n 2 --dist loadgroup`).

    Before the other plugins' hooks: each small test file is marked to stay on one worker
    (xdist reads the `xdist_group` marks in its own hook), so its module and package fixtures
    (daphne, chromium, a CAS or Redis server) start once and its tests run in the file's order;
    the big parametrized matrices are shared out test by test.

    After them (pytest-django sorts the tests without a database last): the end-to-end files
    that never touch the test database (daphne, chromium, Redis, PostgreSQL in processes of
    their own), and the other such files with a test marked `slow` (tests/unoclass's deploy,
    backup and compression tests start servers too), go first. They are the long ones, a few to
    90 s each: begun first, they share the two workers with the many short tests instead of
    ending the run on one worker. The rest keeps pytest-django's order (plain database tests
    before transactional ones, the short tests without a database last).
    """
    by_file = _by_file(items)
    for file_items in by_file.values():
        if len(file_items) <= WHOLE_FILE_TESTS:
            for item in file_items:
                if item.get_closest_marker("xdist_group") is None:
                    item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    first = {
        path
        for path, file_items in by_file.items()
        if (path.startswith("tests/e2e/") or any(i.get_closest_marker("slow") for i in file_items))
        and not any(map(_uses_test_database, file_items))
    }
    yield
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in first)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Note in each test's report which worker ran it and when it began (the clock's seconds).

    `--junitxml` writes them as the test's properties; bench/suite_balance.py reads them back
    into each worker's busy time and idle tail (docs/testing.md, "The suite's time").
    """
    item.user_properties.append(("worker", os.environ.get("PYTEST_XDIST_WORKER", "main")))
    item.user_properties.append(("start", f"{time.time():.3f}"))
