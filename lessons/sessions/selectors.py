"""Read queries on class sessions, always scoped to who is asking."""

from __future__ import annotations

from typing import Any

from lessons.classrooms.selectors import classrooms_taught
from lessons.models import ClassSession, SessionMember, Student, User


def session_for_teacher(*, teacher: User, session_id: int) -> ClassSession | None:
    """Return a session of a class the teacher owns or co-teaches, or None."""
    return (
        ClassSession.objects.select_related("classroom")
        .filter(pk=session_id, classroom__in=classrooms_taught(teacher=teacher))
        .first()
    )


def session_for_student(*, user: Any, session_id: int) -> tuple[ClassSession, Student] | None:
    """Return a session of the student's own class with the student, or None."""
    student = Student.objects.filter(user=user).select_related("classroom").first()
    if student is None:
        return None
    session = ClassSession.objects.filter(pk=session_id, classroom_id=student.classroom_id).first()
    return (session, student) if session is not None else None


def session_open_for_classroom(*, classroom: Any) -> ClassSession | None:
    """Return the classroom's session in progress (open or paused), if any."""
    return (
        ClassSession.objects.filter(classroom=classroom)
        .exclude(status=ClassSession.Status.ENDED)
        .first()
    )


def session_card_for_student(*, student: Student | None) -> dict[str, Any]:
    """Say what the home's "class game" card shows: the session in progress and the membership.

    A read: it joins nobody (a student joins when signing in, or with the card's button).
    """
    if student is None:
        return {}
    session = session_open_for_classroom(classroom=student.classroom)
    if session is None:
        return {}
    return {"class_session": session, "session_member": member_of(session=session, student=student)}


def member_of(*, session: ClassSession, student: Student) -> SessionMember | None:
    """Return the student's membership in the session, if they joined."""
    return (
        SessionMember.objects.filter(session=session, student=student)
        .select_related("table__table")
        .first()
    )


def sessions_of_classroom(*, classroom: Any) -> Any:
    """Return a classroom's sessions, newest first."""
    return ClassSession.objects.filter(classroom=classroom).order_by("-started_at", "-id")
