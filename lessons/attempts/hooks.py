"""What lessons tells the games app: names, watchers, table places, attempts, practice, reasons."""

from __future__ import annotations

from typing import Any

from games import hooks


def student_name(user: Any) -> str | None:
    """Name a student by their display name in the class."""
    student = getattr(user, "student", None) if getattr(user, "is_student", False) else None
    return student.display_name if student is not None else None


def teacher_may_watch(user: Any, table: Any) -> bool:
    """Let a teacher watch (pause, hand seats to robots) the tables of a class they teach.

    The table's class decides: a class session's table belongs to the session's class, an
    assigned practice table to its assignment's class. Only a table of neither (a pupil's own
    aimed practice) goes by its seated pupils' class. A pupil seated at a class's table never
    opens it to the teachers of another class (a pupil moved away, a co-teacher removed).
    """
    from lessons.classrooms.selectors import classrooms_taught
    from lessons.models import PracticeTable, SessionTable

    if not getattr(user, "is_teacher", False):
        return False
    taught = classrooms_taught(teacher=user)
    owner_class = (
        SessionTable.objects.filter(table_id=table.pk)
        .values_list("session__classroom_id", flat=True)
        .first()
    ) or (
        PracticeTable.objects.filter(table_id=table.pk)
        .values_list("assignment__classroom_id", flat=True)
        .first()
    )
    if owner_class is not None:
        return taught.filter(pk=owner_class).exists()
    return bool(table.seats.filter(user__student__classroom__in=taught).exists())


def practice_allowed(user: Any) -> None:
    """Refuse free practice to a pupil of an archived class (read-only, however they came in)."""
    from games.errors import TableError
    from lessons.classrooms.services import CLASSROOM_ARCHIVED
    from lessons.models import Classroom

    if not getattr(user, "is_student", False):
        return
    if Classroom.objects.filter(students__user_id=user.pk, archived_at__isnull=False).exists():
        raise TableError("archived", CLASSROOM_ARCHIVED)


def session_place(table: Any) -> hooks.TablePlace | None:
    """Place a lesson table in its class session: its number and the way to the next game."""
    from django.urls import reverse

    from lessons.models import ClassSession, SessionTable

    seated = SessionTable.objects.select_related("session").filter(table_id=table.pk).first()
    if seated is None:
        return None
    ended = seated.session.status == ClassSession.Status.ENDED
    # The session's POST way in: it deals the finished table's students a new game together.
    join = None if ended else reverse("session_join", args=[seated.session_id])
    return hooks.TablePlace(number=seated.number, ended=ended, next_game_url=join)


def register() -> None:
    """Plug the lessons rules and the attempt log into the games app (once, at start-up)."""
    from games import listeners
    from lessons.attempts.log import AttemptLog
    from lessons.attempts.reason_prompt import reason_answer, reason_prompt
    from lessons.practice.aiming import aimed_options

    if not isinstance(listeners.registered(), AttemptLog):
        listeners.register(AttemptLog())
    if student_name not in hooks.name_rules:
        hooks.name_rules.append(student_name)
    if teacher_may_watch not in hooks.watch_rules:
        hooks.watch_rules.append(teacher_may_watch)
    if session_place not in hooks.place_rules:
        hooks.place_rules.append(session_place)
    if practice_allowed not in hooks.practice_checks:
        hooks.practice_checks.append(practice_allowed)
    if aimed_options not in hooks.practice_rules:
        hooks.practice_rules.append(aimed_options)
    if reason_prompt not in hooks.reason_prompt_rules:
        hooks.reason_prompt_rules.append(reason_prompt)
    if reason_answer not in hooks.reason_answer_rules:
        hooks.reason_answer_rules.append(reason_answer)
