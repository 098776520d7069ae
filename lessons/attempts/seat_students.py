"""Write the attempt log's facts of the seats students hold (lessons.SeatStudent).

The services that seat and move students call these, so the table lock of a move finds a
seat's student, class and session ready; the attempt log writes a missing or stale row itself
on the seat's next judged play or draw (tables made by another path).
"""

from __future__ import annotations

from games.models import Seat
from lessons.models import Attempt, SeatStudent, SessionTable, Student


def seat_student_facts(*, seat_id: int, table_id: int, student: Student) -> SeatStudent:
    """Return (unsaved) the attempt log's facts of a student's seat, as they stand now."""
    session_id = (
        SessionTable.objects.filter(table_id=table_id)
        .order_by("pk")
        .values_list("session_id", flat=True)
        .first()
    )
    return SeatStudent(
        seat_id=seat_id,
        user_id=student.user_id,
        student_id=student.pk,
        classroom_id=student.classroom_id,
        session_id=session_id,
        open_turn=wrong_turn(last_attempt(student.pk, table_id)),
    )


def last_attempt(student_id: int, table_id: int) -> tuple[int | None, str] | None:
    """Return the (turn, outcome) of the student's last attempt at the table, or None."""
    return (
        Attempt.objects.filter(student_id=student_id, table_id=table_id)
        .order_by("-id")
        .values_list("turn", "outcome")
        .first()
    )


def wrong_turn(last: tuple[int | None, str] | None) -> int | None:
    """Return the turn of a last attempt that was refused, else None."""
    if last is None or last[0] is None or last[1] != Attempt.Outcome.WRONG:
        return None
    return int(last[0])


def seat_students_write(*, table_id: int) -> None:
    """Write the facts of every seat a student holds at the table (and forget the others)."""
    seats = Seat.objects.filter(table_id=table_id).select_related("user__student")
    for seat in seats:
        user = seat.user
        student = getattr(user, "student", None) if user is not None and user.is_student else None
        if student is None:
            SeatStudent.objects.filter(seat_id=seat.pk).delete()
            continue
        facts = seat_student_facts(seat_id=seat.pk, table_id=table_id, student=student)
        SeatStudent.objects.update_or_create(
            seat_id=seat.pk,
            defaults={
                "user_id": facts.user_id,
                "student_id": facts.student_id,
                "classroom_id": facts.classroom_id,
                "session_id": facts.session_id,
                "open_turn": facts.open_turn,
            },
        )


def seat_students_move(*, student: Student) -> None:
    """Let the seats a moved student keeps (practice tables) log under their new class."""
    SeatStudent.objects.filter(student=student).update(classroom_id=student.classroom_id)
