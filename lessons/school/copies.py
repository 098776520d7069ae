"""Copies of a pupil's data outside their rows, for erasure: cached PDFs, teachers' sessions.

A report PDF (a pupil's, or their class's) is cached for days; a teacher's session may hold a
roster file waiting for confirmation that names the pupil, and the PIN just issued to them.
`pupil_copies_forget` drops them all: the PDF slots of the pupil and of every class whose
PDF may show them (theirs, the classes of their plays and sessions, and every class of their
class's teachers, between which a pupil may have been moved), the waiting roster files of
those classes that name the pupil (the teacher chooses the file again), and the pupil's fresh
PIN. Sessions are read from the database (the session store): a few thousand rows at most.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from lessons.classrooms.fresh_pins import SESSION_KEY as FRESH_PINS_KEY
from lessons.classrooms.name_rule import name_identity
from lessons.classrooms.pending_import import PENDING_IMPORT_KEY, pending_import_names
from lessons.models import Attempt, Classroom, MissedEquivalence, SessionMember, Student
from lessons.printing.printing import pdf_forget


def classrooms_showing(student: Student) -> set[int]:
    """Return the classes whose PDF may show the pupil (see the module's docstring)."""
    own = {student.classroom_id}
    for model in (Attempt, MissedEquivalence):
        own |= set(model.objects.filter(student=student).values_list("classroom_id", flat=True))
    own |= set(
        SessionMember.objects.filter(student=student).values_list(
            "session__classroom_id", flat=True
        )
    )
    mine = Classroom.objects.filter(pk__in=own)
    teacher_ids = set(mine.values_list("teacher_id", flat=True))
    teacher_ids |= set(mine.filter(co_teachers__isnull=False).values_list("co_teachers", flat=True))
    taught = Classroom.objects.filter(
        Q(teacher_id__in=teacher_ids) | Q(co_teachers__in=teacher_ids)
    )
    return own | set(taught.values_list("pk", flat=True))


def _forget_in_session(data: dict[str, Any], student_id: int, name: str, classes: set[int]) -> bool:
    """Drop the pupil's copies from one session's data; tell whether anything changed."""
    changed = False
    # The class's own rule for "the same name": a file naming a look-alike of the pupil names them.
    identity = name_identity(name)
    if any(name_identity(other) == identity for other in pending_import_names(data, classes)):
        del data[PENDING_IMPORT_KEY]
        changed = True
    pins = data.get(FRESH_PINS_KEY)
    if isinstance(pins, dict) and str(student_id) in pins:
        data[FRESH_PINS_KEY] = {k: v for k, v in pins.items() if k != str(student_id)}
        changed = True
    return changed


def sessions_forget(*, student_id: int, name: str, classroom_ids: set[int]) -> int:
    """Drop the pupil's copies from every live session; return how many sessions changed."""
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    model = store_class.get_model_class()
    reader = store_class()
    changed = 0
    live = model.objects.filter(expire_date__gt=timezone.now()).values_list(
        "session_key", "session_data"
    )
    for key, encoded in live.iterator():
        if not _forget_in_session(reader.decode(encoded), student_id, name, classroom_ids):
            continue
        # Only the sessions that hold a copy are loaded and saved again.
        store = store_class(session_key=key)
        data = dict(store.items())
        if _forget_in_session(data, student_id, name, classroom_ids):
            for item in set(store.keys()) - set(data):
                del store[item]
            store.update(data)
            store.save(must_create=False)
            changed += 1
    return changed


def pupil_copies_forget(*, student_id: int, name: str, classroom_ids: set[int]) -> None:
    """Drop every copy of the pupil outside their rows (cached PDFs, teachers' sessions)."""
    pdf_forget(student_ids=[student_id], classroom_ids=classroom_ids)
    sessions_forget(student_id=student_id, name=name, classroom_ids=classroom_ids)
