"""Read queries on assigned practice: what a student has to play, who has played what.

A game counts when its table reached game over (lessons.practice.services explains why).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from games.forms import DECK_CHOICES
from games.models import Table
from lessons.classrooms.names import by_name
from lessons.classrooms.selectors import classrooms_taught
from lessons.models import Classroom, PracticeAssignment, PracticeTable, Student, User
from lessons.practice.services import today

FINISHED = Table.Status.FINISHED


def deck_label(level: str) -> str:
    """Return the deck level's name as the forms show it (the level itself if unknown)."""
    return str(dict(DECK_CHOICES).get(level, level))


@dataclass(frozen=True)
class Progress:
    """One student's progress on one assignment."""

    assignment: PracticeAssignment
    student: Student
    played: int

    @property
    def games(self) -> int:
        """Return the games the assignment asks for."""
        return self.assignment.games

    @property
    def deck_label(self) -> str:
        """Return the name of the assignment's deck level."""
        return deck_label(self.assignment.deck)

    @property
    def done(self) -> bool:
        """Tell whether the student has played every game asked for."""
        return self.played >= self.assignment.games

    @property
    def shown_played(self) -> int:
        """Return the games played, at most the games asked for ("3 of 3", never "4 of 3")."""
        return min(self.played, self.assignment.games)


@dataclass(frozen=True)
class ClassPractice:
    """A student's line in the class page's practice column: current assignments done."""

    done: int
    assigned: int


def assignment_for_teacher(
    *, teacher: User, classroom_id: int, assignment_id: int
) -> PracticeAssignment | None:
    """Return an assignment of a class the teacher teaches (URL's class and id), or None."""
    return (
        PracticeAssignment.objects.select_related("classroom")
        .filter(
            pk=assignment_id,
            classroom_id=classroom_id,
            classroom__in=classrooms_taught(teacher=teacher),
        )
        .first()
    )


def assignments_of_classroom(*, classroom: Classroom) -> QuerySet[PracticeAssignment]:
    """Return a class's assignments, the latest due first."""
    return classroom.practice_assignments.order_by("-due_on", "-id")


def _played(assignments: Iterable[int], students: Iterable[int]) -> dict[tuple[int, int], int]:
    """Return the finished games per (assignment id, student id), in one query."""
    rows = (
        PracticeTable.objects.filter(
            assignment_id__in=list(assignments),
            student_id__in=list(students),
            table__status=FINISHED,
        )
        .values_list("assignment_id", "student_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {(assignment, student): n for assignment, student, n in rows}


def assigned_students(assignment: PracticeAssignment) -> list[Student]:
    """Return the present students the assignment is for (chosen ones, else the class)."""
    chosen = assignment.students.filter(pseudonymised_at__isnull=True)
    if chosen.exists():
        return by_name(chosen)
    return by_name(assignment.classroom.students.filter(pseudonymised_at__isnull=True))


def assignment_progress(assignment: PracticeAssignment) -> list[Progress]:
    """Return each assigned student's progress, in name order."""
    students = assigned_students(assignment)
    played = _played([assignment.pk], [s.pk for s in students])
    return [Progress(assignment, s, played.get((assignment.pk, s.pk), 0)) for s in students]


def _for_student(student: Student) -> Q:
    """Return the filter "the assignment is for this student" (chosen, or nobody chosen)."""
    return Q(students=student) | Q(students__isnull=True)


def assignments_for_student(*, student: Student) -> list[Progress]:
    """Return the student's assignments still open (due today or later), soonest due first."""
    if student.pseudonymised_at is not None:
        return []
    open_ones = list(
        PracticeAssignment.objects.filter(classroom_id=student.classroom_id, due_on__gte=today())
        .filter(_for_student(student))
        .distinct()
        .order_by("due_on", "id")
    )
    played = _played([a.pk for a in open_ones], [student.pk])
    return [Progress(a, student, played.get((a.pk, student.pk), 0)) for a in open_ones]


def class_practice(
    *, classroom: Classroom, students: Sequence[Student]
) -> dict[int, ClassPractice]:
    """Return, per student id, how many of the class's open assignments they have done."""
    open_ones = list(
        PracticeAssignment.objects.filter(classroom=classroom, due_on__gte=today())
        .prefetch_related("students")
        .order_by("due_on", "id")
    )
    if not open_ones:
        return {}
    played = _played([a.pk for a in open_ones], [s.pk for s in students])
    column: dict[int, ClassPractice] = {}
    for student in students:
        done = assigned = 0
        for assignment in open_ones:
            chosen = {s.pk for s in assignment.students.all()}
            if chosen and student.pk not in chosen:
                continue
            assigned += 1
            done += played.get((assignment.pk, student.pk), 0) >= assignment.games
        column[student.pk] = ClassPractice(done, assigned)
    return column
