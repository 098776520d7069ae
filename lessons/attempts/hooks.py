"""What lessons tells the games app, as its table host (games.host): names, watchers, table
places, practice, reasons, and the attempt log of every move."""

from __future__ import annotations

from typing import Any

from games import host
from games.listeners import JudgedPlay, PlayerAction, Write
from lessons.attempts.log import log_draw, log_judged_play
from lessons.models import SeatStudent


def student_name(user: Any) -> str | None:
    """Name a student by their display name in the class."""
    student = getattr(user, "student", None) if getattr(user, "is_student", False) else None
    return student.display_name if student is not None else None


def teacher_may_watch(user: Any, table: Any) -> bool:
    """Let a teacher watch the tables of a class they teach (its seats: teacher_may_act_on_seat).

    The table's class decides: a class session's table belongs to the session's class, an
    assigned practice table to its assignment's class. Only a table of neither (a pupil's own
    aimed practice) goes by its seated pupils' class. A pupil seated at a class's table never
    opens it to the teachers of another class (a pupil moved away, a co-teacher removed).
    """
    from lessons.classrooms.selectors import classrooms_taught

    if not getattr(user, "is_teacher", False):
        return False
    taught = classrooms_taught(teacher=user)
    owner_class = _owner_class(table)
    if owner_class is not None:
        return taught.filter(pk=owner_class).exists()
    # A table of no class: its spectator view shows no hand, so a teacher of one pupil seated
    # there watches it; acting on a seat asks for that seat's pupil (teacher_may_act_on_seat).
    return bool(table.seats.filter(user__student__classroom__in=taught).exists())


def teacher_may_act_on_seat(user: Any, table: Any, seat_index: int) -> bool:
    """Let a watching teacher hand a seat to a robot (or pause it) only for their own pupil's.

    At a class's table, the table's class decides (teacher_may_watch); at a table of no class,
    the class of that seat's pupil does, never another pupil's at the table (a co-teacher
    removed from a class keeps no hold on its pupils through a pupil moved into their own
    class). A robot's seat is no one's to hand over.
    """
    from lessons.classrooms.selectors import classrooms_taught
    from lessons.models import Student

    if not teacher_may_watch(user, table):
        return False
    seat = table.seats.filter(index=seat_index).values_list("user_id", flat=True).first()
    if _owner_class(table) is not None:
        return seat is not None
    if seat is None:
        return False  # a robot's seat, or no such seat: nothing to hand over
    classroom_id = Student.objects.filter(user_id=seat).values_list("classroom_id", flat=True)
    return classrooms_taught(teacher=user).filter(pk__in=classroom_id).exists()


def _owner_class(table: Any) -> int | None:
    """Return the class a table belongs to (its session's, its assignment's), or None."""
    from lessons.models import PracticeTable, SessionTable

    owner: int | None = (
        SessionTable.objects.filter(table_id=table.pk)
        .values_list("session__classroom_id", flat=True)
        .first()
    ) or (
        PracticeTable.objects.filter(table_id=table.pk)
        .values_list("assignment__classroom_id", flat=True)
        .first()
    )
    return owner


def practice_allowed(user: Any) -> None:
    """Refuse free practice to a pupil of an archived class (read-only, however they came in)."""
    from games.errors import TableError
    from lessons.classrooms.services import CLASSROOM_ARCHIVED
    from lessons.models import Classroom

    if not getattr(user, "is_student", False):
        return
    if Classroom.objects.filter(students__user_id=user.pk, archived_at__isnull=False).exists():
        raise TableError("archived", CLASSROOM_ARCHIVED)


def session_place(table: Any) -> host.TablePlace | None:
    """Place a lesson table in its class session: its number and the way to the next game."""
    from django.urls import reverse

    from lessons.models import ClassSession, SessionTable

    seated = SessionTable.objects.select_related("session").filter(table_id=table.pk).first()
    if seated is None:
        return None
    ended = seated.session.status == ClassSession.Status.ENDED
    # The session's POST way in: it deals the finished table's students a new game together.
    join = None if ended else reverse("session_join", args=[seated.session_id])
    return host.TablePlace(number=seated.number, ended=ended, next_game_url=join)


# The kind of games.driver step that deals a class session (lessons.sessions.services runs it).
SESSION_STEP = "session"


def session_table_over(table_id: int) -> None:
    """Plan the deal of a class session whose table's game is over: its students' new game."""
    from games import driver
    from lessons.models import SessionTable

    session_id = SessionTable.objects.filter(table_id=table_id).values_list("session_id", flat=True)
    for key in session_id[:1]:
        driver.plan_on_commit(driver.HostStep(SESSION_STEP, key, 0.0))


def practice_again_url(table: Any) -> str | None:
    """Send "Play again" at an assigned practice table to its assignment's way in."""
    from django.urls import reverse

    from lessons.models import PracticeTable

    owned = PracticeTable.objects.filter(table_id=table.pk).values_list("assignment_id", flat=True)
    assignment = owned.first()
    return None if assignment is None else reverse("practice_play", args=[assignment])


class LessonsHost:
    """The table host of lessons (games.host.TableHost): its rules and its attempt log."""

    seat_row = SeatStudent

    def display_name(self, user: Any) -> str | None:
        return student_name(user)

    def may_watch(self, user: Any, table: Any) -> bool:
        return teacher_may_watch(user, table)

    def may_act_on_seat(self, user: Any, table: Any, seat_index: int) -> bool:
        return teacher_may_act_on_seat(user, table, seat_index)

    def table_place(self, table: Any) -> host.TablePlace | None:
        return session_place(table)

    def replay_url(self, table: Any) -> str | None:
        return practice_again_url(table)

    def practice_options(self, user: Any, deck_level: str) -> dict[str, Any]:
        from lessons.aiming.rules import aimed_options

        return aimed_options(user, deck_level)

    def practice_check(self, user: Any) -> None:
        practice_allowed(user)

    def picture_seats(self, table: Any) -> frozenset[int]:
        from lessons.attempts.pictures import picture_seats

        return picture_seats(table)

    def reason_prompt(self, table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
        from lessons.attempts.reason_prompt import reason_prompt

        return reason_prompt(table_id, user, lang)

    def reason_answer(self, table_id: int, user: Any, code: object) -> None:
        from lessons.attempts.reason_prompt import reason_answer

        reason_answer(table_id, user, code)

    def compare_prompt(
        self, table_id: int, user: Any, example: dict[str, Any], lang: str
    ) -> dict[str, Any] | None:
        from lessons.attempts.compare_prompt import compare_prompt

        return compare_prompt(table_id, user, example, lang)

    def compare_answer(self, table_id: int, user: Any, choice: object) -> None:
        from lessons.attempts.compare_prompt import compare_answer

        compare_answer(table_id, user, choice)

    def judged_play(self, play: JudgedPlay) -> list[Write]:
        return log_judged_play(play)

    def player_action(self, record: PlayerAction) -> list[Write]:
        return log_draw(record)

    def table_over(self, table_id: int) -> None:
        session_table_over(table_id)


def register() -> None:
    """Make lessons the games app's table host (once, at start-up)."""
    if not isinstance(host.registered(), LessonsHost):
        host.register(LessonsHost())
