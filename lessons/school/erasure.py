"""Erase a pupil, or keep their plays under a pseudonym: the one place that does either.

Erasing deletes the student, their sign-in account, their plays (attempts, missed
equivalences) and session places; the seats they held at game tables stay (the other players'
games need them) but lose the name and the account. Pseudonymising keeps the plays for the
class's statistics under a name like "Élève retiré 3" and removes the name everywhere else,
the PIN and the sign-in account.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table, TableEvent
from lessons.models import Student, User

# Said the same in both languages: it is stored, and every teacher of the class sees it.
PSEUDONYM_PREFIX = "Élève retiré"
ERASED_SEAT_NAME = "—"


def _replace_strings(value: Any, old: str, new: str) -> Any:
    """Return a JSON value with every string equal to `old` replaced by `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_strings(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replace_strings(item, old, new) for key, item in value.items()}
    return value


def _rename_at_tables(*, user: User, old: str, new: str) -> None:
    """Replace a player's name in their seats, the tables' states and the tables' logs."""
    seats = list(Seat.objects.filter(user=user))
    table_ids = {seat.table_id for seat in seats}
    for seat in seats:
        seat.name = new
        seat.save(update_fields=["name"])
    for table in Table.objects.select_for_update().filter(pk__in=table_ids):
        table.state = _replace_strings(table.state, old, new)
        table.save(update_fields=["state"])
    for event in TableEvent.objects.filter(table_id__in=table_ids):
        action = _replace_strings(event.action, old, new)
        result = _replace_strings(event.result, old, new)
        if action != event.action or result != event.result:
            event.action, event.result = action, result
            event.save(update_fields=["action", "result"])


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
        _rename_at_tables(user=user, old=student.display_name, new=ERASED_SEAT_NAME)
        student.delete()  # cascades to attempts, missed equivalences and session places
        user.delete()  # seats and table events keep no link (SET_NULL)


def student_pseudonymise(*, student: Student) -> Student:
    """Replace a student's name by a pseudonym and close their sign-in; keep their plays."""
    if student.pseudonymised_at is not None:
        return student
    with transaction.atomic():
        pseudonym = _pseudonym_for(student)
        _rename_at_tables(user=student.user, old=student.display_name, new=pseudonym)
        student.display_name = pseudonym
        student.pin_hash = ""
        student.failed_attempts = 0
        student.locked_until = None
        student.pseudonymised_at = timezone.now()
        student.save()
        _account_close(student.user)
        # Sign-in sessions of the account end with it (its session hash no longer matches).
    return student
