"""Plain factories for the models of the lessons app, shared by every test package.

Each factory makes a valid object with sensible unique defaults; pass keywords to override.
Students come back with their plain PIN so tests can sign them in.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from django.test import Client

from lessons.classrooms import services
from lessons.classrooms.pins import pin_hash
from lessons.models import Classroom, Student, User

TEACHER_PASSWORD = "correct-horse-battery-42"
_counter = itertools.count(1)


@dataclass(frozen=True)
class StudentLogin:
    """A student with the plain PIN they sign in with."""

    student: Student
    pin: str

    @property
    def user(self) -> User:
        """Return the student's Django user."""
        return self.student.user


def make_teacher(*, username: str | None = None, password: str = TEACHER_PASSWORD) -> User:
    """Create a teacher who can sign in with `password`."""
    return services.teacher_create(
        username=username or f"teacher{next(_counter)}", password=password
    )


def make_classroom(
    *,
    teacher: User | None = None,
    name: str | None = None,
    grade: str = "CM2",
    language: str = "fr",
) -> Classroom:
    """Create a classroom (and a teacher when none is given)."""
    return services.classroom_create(
        teacher=teacher or make_teacher(),
        name=name or f"Classe {next(_counter)}",
        grade=grade,
        language=language,
    )


def make_student(
    *, classroom: Classroom | None = None, display_name: str | None = None, pin: str = "1234"
) -> StudentLogin:
    """Add one student with a known PIN to a classroom (and a classroom when none is given)."""
    classroom = classroom or make_classroom()
    name = display_name or f"Élève {next(_counter)}"
    (issued,) = services.roster_add(classroom=classroom, text=name)
    issued.student.pin_hash = pin_hash(pin)
    issued.student.save(update_fields=["pin_hash"])
    return StudentLogin(student=issued.student, pin=pin)


def make_students(*, classroom: Classroom, names: list[str]) -> list[StudentLogin]:
    """Add several students through the roster service; each keeps the PIN it was given."""
    issued = services.roster_add(classroom=classroom, text="\n".join(names))
    return [StudentLogin(student=item.student, pin=item.pin) for item in issued]


def signed_in_client(user: User, language: str | None = None, **defaults: Any) -> Client:
    """Return a test client signed in as the user; its browser asks for `language` if given."""
    if language is not None:
        defaults["HTTP_ACCEPT_LANGUAGE"] = language
    client = Client(**defaults)
    client.force_login(user)
    return client


def teacher_client(teacher: User, *, password: str = TEACHER_PASSWORD) -> Client:
    """Return a test client signed in as the teacher."""
    return signed_in_client(teacher)


def student_client(student: Student) -> Client:
    """Return a test client signed in as the student (without going through /join)."""
    return signed_in_client(student.user)
