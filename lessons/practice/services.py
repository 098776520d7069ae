"""Assigned practice: a teacher assigns games against robots, a student plays them.

Every function takes keyword-only arguments and raises ValidationError with a translated
message when the request cannot be honoured; nothing changes then.

A game counts for an assignment when its practice table, started from the assignment, has
reached game over (someone played their last card: games.Table.Status.FINISHED). Practice
tables have no turn timer and no robot plays the student's seat, so a finished game is one the
student played to its end. Its plays are logged like every other (lessons.attempts.log), with
no class session: a session-less attempt is practice.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time
from typing import Any, Final

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.forms import DECK_CHOICES
from games.models import Table
from games.players import robot_name
from games.services import SeatSpec, table_create
from lessons.aiming.rules import aimed_options
from lessons.classrooms.selectors import classrooms_taught
from lessons.classrooms.services import CLASSROOM_ARCHIVED
from lessons.models import Classroom, PracticeAssignment, PracticeTable, Student, User

MAX_GAMES: Final = 20
ROBOTS: Final = 3
ROBOT_KIND: Final = "heuristic"
# Practice asks "why did you think they were equal?" after every refused claim (as games' own
# practice page does).
ASK_REASON: Final = 100
DECKS: Final = tuple(level for level, _label in DECK_CHOICES)

NOT_YOUR_CLASS = _("You do not teach this class.")
BAD_GAMES = _("Choose between 1 and %(most)d games.")
BAD_DECK = _("Choose one of the deck levels.")
BAD_PICTURES = _("Choose no pictures, a bar or the number line.")
# Pictures of the fractions on the cards (lessons.attempts.pictures); "": none.
PICTURE_KINDS: Final = ("", "bar", "line")
DUE_IN_THE_PAST = _("The date is already past: choose today or a later day.")
NOT_IN_CLASS = _("Choose students of this class only.")
NOT_FOR_YOU = _("This practice is not for you.")
DUE_DATE_PASSED = _("This practice was due on an earlier day.")
PLAYED_TODAY = _("You have played today's game: come back tomorrow for the next one.")


def today() -> date:
    """Return today's date in the school's time zone."""
    return timezone.localdate()


def assignment_create(
    *,
    teacher: User,
    classroom: Classroom,
    games: int,
    deck: str,
    due_on: date,
    students: Iterable[Student] = (),
    warmup: bool = False,
    pictures: str = "",
) -> PracticeAssignment:
    """Assign `games` practice games on the `deck` level before `due_on` (inclusive).

    `warmup`: each student first answers a warm-up round (lessons.warmup), then plays.
    `pictures`: "bar" or "line" shows that picture under each fraction card's value until a
    few right plays in a row (lessons.attempts.pictures); "": none.

    No students chosen: the whole class. Only a teacher of the class, of a class not archived,
    for its own present students.
    """
    if not classrooms_taught(teacher=teacher).filter(pk=classroom.pk).exists():
        raise ValidationError(NOT_YOUR_CLASS, code="not_teacher")
    if classroom.is_archived:
        raise ValidationError(CLASSROOM_ARCHIVED, code="archived")
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise ValidationError(BAD_GAMES, code="games", params={"most": MAX_GAMES})
    if deck not in DECKS:
        raise ValidationError(BAD_DECK, code="deck")
    if pictures not in PICTURE_KINDS:
        raise ValidationError(BAD_PICTURES, code="pictures")
    if not isinstance(due_on, date) or due_on < today():
        raise ValidationError(DUE_IN_THE_PAST, code="past")
    chosen = list(students)
    present = set(
        classroom.students.filter(pseudonymised_at__isnull=True).values_list("pk", flat=True)
    )
    if any(student.pk not in present for student in chosen):
        raise ValidationError(NOT_IN_CLASS, code="other_class")
    with transaction.atomic():
        assignment = PracticeAssignment.objects.create(
            classroom=classroom,
            games=games,
            deck=deck,
            due_on=due_on,
            created_by=teacher,
            warmup=bool(warmup),
            pictures=pictures,
        )
        if chosen:
            assignment.students.set(chosen)
    return assignment


def assignment_delete(*, teacher: User, assignment: PracticeAssignment) -> None:
    """Withdraw an assignment (its tables' plays stay in the attempt log)."""
    if not classrooms_taught(teacher=teacher).filter(pk=assignment.classroom_id).exists():
        raise ValidationError(NOT_YOUR_CLASS, code="not_teacher")
    assignment.delete()


def is_assigned_to(assignment: PracticeAssignment, student: Student) -> bool:
    """Tell whether the assignment is the student's (their class's, and them or everyone)."""
    if student.classroom_id != assignment.classroom_id or student.pseudonymised_at is not None:
        return False
    chosen = assignment.students.all()
    return not chosen.exists() or chosen.filter(pk=student.pk).exists()


def _finished_today(assignment: PracticeAssignment, student: Student) -> bool:
    """Tell whether the student began a game of the assignment today that is over."""
    start = timezone.make_aware(datetime.combine(today(), time.min))
    return PracticeTable.objects.filter(
        assignment=assignment,
        student=student,
        created_at__gte=start,
        table__status=Table.Status.FINISHED,
    ).exists()


def practice_table_start(
    *,
    student: Student,
    assignment: PracticeAssignment,
    setup: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Table:
    """Return the student's unfinished table of the assignment, or start one against robots.

    A started game is carried on rather than a second one dealt: leaving the page and coming
    back finds the same game. `setup` and `seed` script the deal (tests).
    """
    if not is_assigned_to(assignment, student):
        raise ValidationError(NOT_FOR_YOU, code="not_assigned")
    if Classroom.objects.filter(pk=assignment.classroom_id, archived_at__isnull=False).exists():
        raise ValidationError(CLASSROOM_ARCHIVED, code="archived")  # read-only for its pupils
    if assignment.due_on < today():
        raise ValidationError(DUE_DATE_PASSED, code="past")
    with transaction.atomic():
        # Lock the student's row: two clicks at once start one game, not two.
        Student.objects.select_for_update().filter(pk=student.pk).first()
        ongoing = (
            PracticeTable.objects.filter(assignment=assignment, student=student)
            .exclude(table__status=Table.Status.FINISHED)
            .select_related("table")
            .order_by("-created_at", "-id")
            .first()
        )
        if ongoing is not None:
            return ongoing.table
        if assignment.one_a_day and _finished_today(assignment, student):
            raise ValidationError(PLAYED_TODAY, code="played_today")
        seats = [SeatSpec(name=student.display_name, user_id=student.user_id)]
        seats += [SeatSpec(name=robot_name(n), bot=ROBOT_KIND) for n in range(1, ROBOTS + 1)]
        table = table_create(
            ruleset="fractions",
            seats=seats,
            # Aimed at the student's misconception, as their own practice is (aiming.py).
            options={"deck": assignment.deck, **aimed_options(student.user, assignment.deck)},
            table_settings={"ask_reason": ASK_REASON, "pictures": assignment.pictures},
            created_by=student.user,
            seed=seed,
            setup=setup,
        )
        PracticeTable.objects.create(assignment=assignment, student=student, table=table)
    return table
