"""Erase a pupil, or keep their plays under a pseudonym: the one place that does either.

Erasing deletes the student, their sign-in account, their plays (attempts, missed
equivalences) and session places; the seats they held at game tables stay (the other players'
games need them) but lose the name and the account. Pseudonymising keeps the plays for the
class's statistics under a name like "Élève retiré 3" and removes the name everywhere else,
the PIN and the sign-in account.

Either way, a seat at a game still being played goes to a robot, which plays on (a two-player
table waiting on the pupil's turn would otherwise wait for ever), and the copies outside the
pupil's rows go too: cached report PDFs and what teachers' sessions hold of the pupil
(lessons.school.copies), at once and again once the erasure is committed (a PDF printed
meanwhile is not kept: its version is no longer current).
"""

from __future__ import annotations

import contextlib
import uuid

from django.db import transaction
from django.utils import timezone

from games.errors import TableError
from games.models import Seat, Table
from games.services import player_name_replace, seat_give_to_bot
from lessons.ent.links import links_forget
from lessons.models import EntIdentity, Student, User
from lessons.school.copies import classrooms_showing, pupil_copies_forget

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
    # The ENT id is personal data: a closed account keeps no link to the ENT.
    EntIdentity.objects.filter(user=user).delete()
    user.username = f"removed-{uuid.uuid4().hex[:16]}"
    user.first_name = user.last_name = user.email = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()


def _seats_to_robots(user_id: int) -> None:
    """Hand the pupil's seats at games still being played to robots, which play on."""
    playing = Seat.objects.filter(user_id=user_id).exclude(table__status=Table.Status.FINISHED)
    for table_id in list(playing.values_list("table_id", flat=True).order_by("table_id")):
        # Finished meanwhile: the seat stays as the record, like every finished table's.
        with contextlib.suppress(TableError):
            seat_give_to_bot(table_id=table_id, user_id=user_id)


def _copies_forget(student: Student) -> None:
    """Drop the pupil's copies now and again after commit (see the module's docstring)."""
    # Values, not the row: the row is gone (and its pk None) when the erasure commits.
    student_id, name, classroom_ids = student.pk, student.display_name, classrooms_showing(student)

    def forget() -> None:
        pupil_copies_forget(student_id=student_id, name=name, classroom_ids=classroom_ids)

    forget()
    transaction.on_commit(forget)


def student_erase(*, student: Student) -> None:
    """Delete a student and all their data; table seats keep a blank name and no account.

    Seats at games still being played go to robots that play on.
    """
    with transaction.atomic():
        user = student.user
        _copies_forget(student)
        player_name_replace(user_id=user.pk, old=student.display_name, new=ERASED_SEAT_NAME)
        _seats_to_robots(user.pk)
        links_forget(user.pk)  # the ENT link and any waiting record of the same ENT account
        student.delete()  # cascades to attempts, missed equivalences and session places
        user.delete()  # seats and table events keep no link (SET_NULL)


def student_pseudonymise(*, student: Student) -> Student:
    """Replace a student's name by a pseudonym and close their sign-in; keep their plays."""
    if student.pseudonymised_at is not None:
        return student
    with transaction.atomic():
        pseudonym = _pseudonym_for(student)
        _copies_forget(student)
        player_name_replace(user_id=student.user_id, old=student.display_name, new=pseudonym)
        _seats_to_robots(student.user_id)
        student.display_name = pseudonym
        student.pin_hash = ""
        student.failed_attempts = 0
        student.locked_until = None
        student.pseudonymised_at = timezone.now()
        student.save()
        links_forget(student.user_id)  # no sign-in of any kind is left
        _account_close(student.user)
        # Sign-in sessions of the account end with it (its session hash no longer matches).
    return student
