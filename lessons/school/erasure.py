"""Erase a pupil, or keep their plays under a pseudonym: the one place that does either.

Erasing deletes the student, their sign-in account, their plays (attempts, missed
equivalences) and session places; the seats they held at game tables stay (the other players'
games need them) but lose the name and the account. Pseudonymising keeps the plays for the
class's statistics under a name like "Élève retiré 3" and removes the name everywhere else,
the PIN and the sign-in account.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from games.services import player_name_replace
from lessons.models import Student, User

# Said the same in both languages: it is stored, and every teacher of the class sees it.
PSEUDONYM_PREFIX = "Élève retiré"
ERASED_SEAT_NAME = "—"


def _pseudonym_for(student: Student) -> str:
    taken = set(student.classroom.students.values_list("display_name", flat=True))
    number = student.classroom.students.filter(pseudonymised_at__isnull=False).count() + 1
    while f"{PSEUDONYM_PREFIX} {number}" in taken:
        number += 1
    return f"{PSEUDONYM_PREFIX} {number}"


def _account_close(user: User) -> None:
    user.username = f"removed-{uuid.uuid4().hex[:16]}"
    user.first_name = user.last_name = user.email = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()


def student_erase(*, student: Student) -> None:
    """Delete a student and all their data; table seats keep a blank name and no account."""
    with transaction.atomic():
        user = student.user
        player_name_replace(user_id=user.pk, old=student.display_name, new=ERASED_SEAT_NAME)
        student.delete()  # cascades to attempts, missed equivalences and session places
        user.delete()  # seats and table events keep no link (SET_NULL)


def student_pseudonymise(*, student: Student) -> Student:
    """Replace a student's name by a pseudonym and close their sign-in; keep their plays."""
    if student.pseudonymised_at is not None:
        return student
    with transaction.atomic():
        pseudonym = _pseudonym_for(student)
        player_name_replace(user_id=student.user_id, old=student.display_name, new=pseudonym)
        student.display_name = pseudonym
        student.pin_hash = ""
        student.failed_attempts = 0
        student.locked_until = None
        student.pseudonymised_at = timezone.now()
        student.save()
        _account_close(student.user)
        # Sign-in sessions of the account end with it (its session hash no longer matches).
    return student
