"""The demo teacher and classroom that `make run` loads (idempotent)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from lessons.classrooms import services
from lessons.classrooms.pins import pin_hash
from lessons.demo.history import PlannedSession, insert_rows, session_rows
from lessons.models import (
    Attempt,
    Classroom,
    ClassSession,
    MissedEquivalence,
    SessionMember,
    Student,
    User,
)

DEMO_TEACHER_USERNAME = "demo-prof"
DEMO_TEACHER_PASSWORD = "fractions-en-classe"
DEMO_CLASSROOM_NAME = "CM2 Les Tilleuls"
DEMO_STUDENT_NAMES = (
    "Adam", "Alice", "Ambre", "Arthur", "Camille", "Chloé", "Emma", "Éloïse", "Gabriel",
    "Hugo", "Inès", "Jade", "Jules", "Léa", "Léo", "Louis", "Louise", "Lucas", "Manon",
    "Maël", "Nathan", "Noah", "Rose", "Zoé",
)  # fmt: skip
# Fixed PINs so the printed logins stay valid from one `make run` to the next.
_PIN_SEED = 2026


@dataclass(frozen=True)
class DemoClassroom:
    """The demo objects and the plain PINs of its students, by display name."""

    teacher: User
    classroom: Classroom
    pins: dict[str, str]


def demo_pins() -> dict[str, str]:
    """Return the fixed demo PIN of every demo student."""
    rng = random.Random(_PIN_SEED)
    return {name: f"{rng.randrange(10_000):04d}" for name in DEMO_STUDENT_NAMES}


@transaction.atomic
def demo_classroom_ensure() -> DemoClassroom:
    """Create or restore the demo teacher, classroom and students with their known logins."""
    teacher, _created = User.objects.get_or_create(
        username=DEMO_TEACHER_USERNAME, defaults={"role": User.Role.TEACHER}
    )
    teacher.role = User.Role.TEACHER
    teacher.set_password(DEMO_TEACHER_PASSWORD)
    teacher.save()
    classroom = Classroom.objects.filter(teacher=teacher, name=DEMO_CLASSROOM_NAME).first()
    if classroom is None:
        classroom = services.classroom_create(
            teacher=teacher, name=DEMO_CLASSROOM_NAME, grade="CM2", language="fr"
        )
    pins = demo_pins()
    existing = {s.display_name: s for s in classroom.students.all()}
    missing = [name for name in DEMO_STUDENT_NAMES if name not in existing]
    if missing:
        for item in services.roster_add(classroom=classroom, text="\n".join(missing)):
            existing[item.student.display_name] = item.student
    for name in DEMO_STUDENT_NAMES:
        student: Student = existing[name]
        student.pin_hash = pin_hash(pins[name])
        student.failed_attempts = 0
        student.locked_until = None
        student.save(update_fields=["pin_hash", "failed_attempts", "locked_until"])
    return DemoClassroom(teacher=teacher, classroom=classroom, pins=pins)


# Past lessons of the demo class: days ago, and the error profile of each student (by name
# order), so the dashboards show likely, emerging and resolved misconceptions on first run.
DEMO_SESSION_DAYS_AGO = (9, 6, 2)
DEMO_TURNS_PER_STUDENT = 22
DEMO_PROFILES = (
    "secure", "additive", "numerators", "rules_mixup", "scaling", "improving",
    "guessing", "secure", "additive", "struggling", "secure", "improving",
)  # fmt: skip
_HISTORY_SEED = 5
DEMO_MARK = "demo_history"


@transaction.atomic
def demo_history_ensure(demo: DemoClassroom) -> list[ClassSession]:
    """Replace the demo class's past sessions with three freshly simulated ones (idempotent).

    Only sessions marked as demo history are replaced; lessons really played are kept.
    """
    classroom = demo.classroom
    old = ClassSession.objects.filter(
        pk__in=[
            s.pk
            for s in ClassSession.objects.filter(classroom=classroom)
            if (s.play_settings or {}).get(DEMO_MARK)
        ]
    )
    Attempt.objects.filter(session__in=old).delete()
    MissedEquivalence.objects.filter(session__in=old).delete()
    old.delete()
    rng = random.Random(_HISTORY_SEED)
    students = list(classroom.students.order_by("display_name", "id"))
    cast = [
        (student, DEMO_PROFILES[index % len(DEMO_PROFILES)])
        for index, student in enumerate(students)
    ]
    today = timezone.localtime()
    sessions = []
    for index, days_ago in enumerate(DEMO_SESSION_DAYS_AGO):
        start = (today - timedelta(days=days_ago)).replace(
            hour=10, minute=0, second=0, microsecond=0
        )
        session = ClassSession.objects.create(
            classroom=classroom,
            status=ClassSession.Status.ENDED,
            started_at=start,
            ended_at=start + timedelta(minutes=40),
            play_settings={DEMO_MARK: True},
        )
        # One or two students are away from each lesson.
        present = [pair for pair in cast if rng.random() > 0.06]
        SessionMember.objects.bulk_create(
            SessionMember(session=session, student=student, joined_at=start)
            for student, _profile in present
        )
        plan = PlannedSession(
            session, present, DEMO_TURNS_PER_STUDENT, progress=index / len(DEMO_SESSION_DAYS_AGO)
        )
        attempts, misses = session_rows(plan, rng)
        insert_rows(Attempt, attempts)
        insert_rows(MissedEquivalence, misses)
        sessions.append(session)
    return sessions
