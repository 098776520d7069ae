"""Read queries on classrooms and students, always scoped to who is asking."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from lessons.classrooms.names import by_name
from lessons.classrooms.services import join_code_normalise
from lessons.models import Classroom, Student, User


def teaches(*, teacher: User, prefix: str = "") -> Q:
    """Return the filter "the teacher owns or co-teaches this class" (`prefix`: a path to it).

    Every teacher-side lookup of a class, a student, a session or a table goes through it.
    """
    return Q(**{f"{prefix}teacher": teacher}) | Q(**{f"{prefix}co_teachers": teacher})


def classrooms_taught(*, teacher: User) -> QuerySet[Classroom]:
    """Return every classroom the teacher owns or co-teaches (archived ones too)."""
    if not getattr(teacher, "is_teacher", False) or not teacher.is_active:
        return Classroom.objects.none()
    return Classroom.objects.filter(
        pk__in=Classroom.objects.filter(teaches(teacher=teacher)).values("pk")
    )


def classrooms_for_teacher(*, teacher: User, archived: bool = False) -> QuerySet[Classroom]:
    """Return the teacher's current (or archived) classrooms, each with `student_count`."""
    return (
        classrooms_taught(teacher=teacher)
        .filter(archived_at__isnull=not archived)
        .annotate(
            student_count=Count("students", filter=Q(students__pseudonymised_at__isnull=True))
        )
        .order_by("-archived_at" if archived else "name", "name", "id")
    )


def classroom_for_teacher(*, teacher: User, classroom_id: int) -> Classroom | None:
    """Return a classroom the teacher owns or co-teaches, or None."""
    return classrooms_taught(teacher=teacher).filter(pk=classroom_id).first()


def teacher_teaches(*, teacher: User, classroom: Classroom) -> bool:
    """Tell whether the teacher owns or co-teaches the classroom."""
    return classrooms_taught(teacher=teacher).filter(pk=classroom.pk).exists()


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
        .filter(
            classroom__in=classrooms_taught(teacher=teacher),
            pk=student_id,
            pseudonymised_at__isnull=True,
        )
        .first()
    )


def student_for_user(*, user: User) -> Student | None:
    """Return the student record of a signed-in student user, or None for anyone else."""
    if not user.is_authenticated or not getattr(user, "is_student", False):
        return None
    return Student.objects.select_related("classroom").filter(user=user).first()
