"""Thin views of assigned practice: the teacher assigns and follows, the student plays."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from lessons.classrooms import selectors as classroom_selectors
from lessons.classrooms.access import SignedInRequest, student_required, teacher_required
from lessons.models import Classroom, PracticeAssignment
from lessons.practice import selectors, services
from lessons.practice.forms import AssignmentForm
from lessons.warmup.services import warmup_for_assignment


def _classroom(request: SignedInRequest, classroom_id: int) -> Classroom:
    classroom = classroom_selectors.classroom_for_teacher(
        teacher=request.user, classroom_id=classroom_id
    )
    if classroom is None:
        raise Http404
    return classroom


def _assignment(
    request: SignedInRequest, classroom_id: int, assignment_id: int
) -> PracticeAssignment:
    assignment = selectors.assignment_for_teacher(
        teacher=request.user, classroom_id=classroom_id, assignment_id=assignment_id
    )
    if assignment is None:
        raise Http404
    return assignment


def _error_message(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


@teacher_required
@require_http_methods(["GET", "POST"])
def assignment_new(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Assign practice to the class or to chosen students."""
    classroom = _classroom(request, classroom_id)
    form = AssignmentForm(request.POST or None, classroom=classroom)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            assignment = services.assignment_create(
                teacher=request.user,
                classroom=classroom,
                games=data["games"],
                deck=data["deck"],
                due_on=data["due_on"],
                students=form.chosen_students(),
                warmup=bool(data.get("warmup")),
                pictures=data.get("pictures") or "",
            )
        except ValidationError as error:
            fields = {"games": "games", "deck": "deck", "past": "due_on", "pictures": "pictures"}
            field = fields.get(str(error.code))
            form.add_error(field, _error_message(error))
        else:
            messages.success(request, _("Practice assigned."))
            return redirect("practice_assignment", classroom.pk, assignment.pk)
    return render(
        request, "lessons/practice/assignment_form.html", {"classroom": classroom, "form": form}
    )


@teacher_required
@require_GET
def assignment_detail(
    request: SignedInRequest, classroom_id: int, assignment_id: int
) -> HttpResponse:
    """Show who has played the assigned games, student by student."""
    assignment = _assignment(request, classroom_id, assignment_id)
    progress = selectors.assignment_progress(assignment)
    return render(
        request,
        "lessons/practice/assignment_detail.html",
        {
            "classroom": assignment.classroom,
            "assignment": assignment,
            "progress": progress,
            "done": sum(1 for line in progress if line.done),
            "deck_label": selectors.deck_label(assignment.deck),
            "whole_class": not assignment.students.exists(),
        },
    )


@teacher_required
@require_POST
def assignment_delete(
    request: SignedInRequest, classroom_id: int, assignment_id: int
) -> HttpResponse:
    """Withdraw an assignment; the games already played stay in the log."""
    assignment = _assignment(request, classroom_id, assignment_id)
    services.assignment_delete(teacher=request.user, assignment=assignment)
    messages.success(request, _("Practice withdrawn."))
    return redirect("classroom_detail", classroom_id)


@student_required
@require_POST
def practice_play(request: SignedInRequest, assignment_id: int) -> HttpResponse:
    """Start (or carry on) the student's game of an assignment, then open its table."""
    student = classroom_selectors.student_for_user(user=request.user)
    assignment = PracticeAssignment.objects.filter(pk=assignment_id).first()
    if student is None or assignment is None or not services.is_assigned_to(assignment, student):
        raise Http404
    try:
        if assignment.due_on >= services.today():
            warmup = warmup_for_assignment(student=student, assignment=assignment)
            if warmup is not None:
                return redirect("warmup_page", warmup_id=warmup.pk)
        table = services.practice_table_start(student=student, assignment=assignment)
    except ValidationError as error:
        messages.error(request, _error_message(error))
        return redirect("home")
    return redirect("games:play", table_id=table.pk)
