"""The demo teacher and classroom that `make run` loads (idempotent)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction

from lessons import services
from lessons.models import Classroom, Student, User
from lessons.pins import pin_hash

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
