"""Read queries on classrooms and students, always scoped to who is asking."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from lessons.classrooms.names import by_name
from lessons.classrooms.services import join_code_normalise
from lessons.models import Classroom, Student, User


def classrooms_for_teacher(*, teacher: User, archived: bool = False) -> QuerySet[Classroom]:
    """Return a teacher's current (or archived) classrooms, each with `student_count`."""
    return (
        Classroom.objects.filter(teacher=teacher, archived_at__isnull=not archived)
        .annotate(
            student_count=Count("students", filter=Q(students__pseudonymised_at__isnull=True))
        )
        .order_by("-archived_at" if archived else "name", "name", "id")
    )


def classroom_for_teacher(*, teacher: User, classroom_id: int) -> Classroom | None:
    """Return one of the teacher's classrooms, or None when it is not theirs."""
    return Classroom.objects.filter(teacher=teacher, pk=classroom_id).first()


def classroom_by_join_code(*, code: str) -> Classroom | None:
    """Return the classroom with this join code (any spelling a student may type)."""
    return Classroom.objects.filter(join_code=join_code_normalise(code)).first()


def students_of_classroom(*, classroom: Classroom) -> list[Student]:
    """Return a classroom's present students (not the pseudonymised removed) in name order.

    A list, sorted by names.by_name: the database's order puts "Léa" after "Lucas".
    """
    return by_name(classroom.students.filter(pseudonymised_at__isnull=True))


def student_for_teacher(*, teacher: User, student_id: int) -> Student | None:
    """Return a present student of one of the teacher's classrooms, or None."""
    return (
        Student.objects.select_related("classroom")
        .filter(classroom__teacher=teacher, pk=student_id, pseudonymised_at__isnull=True)
        .first()
    )


def student_for_user(*, user: User) -> Student | None:
    """Return the student record of a signed-in student user, or None for anyone else."""
    if not user.is_authenticated or not getattr(user, "is_student", False):
        return None
    return Student.objects.select_related("classroom").filter(user=user).first()
