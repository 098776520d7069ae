"""Thin views: parse the request, call a service or selector, render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from lessons.classrooms import selectors, services
from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.forms import (
    ClassroomForm,
    RosterForm,
)
from lessons.classrooms.fresh_pins import (
    fresh_pins_forget,
    fresh_pins_recall,
    fresh_pins_remember,
    fresh_pins_to_cards,
)
from lessons.models import Classroom


def _teacher_classroom(request: SignedInRequest, classroom_id: int) -> Classroom:
    classroom = selectors.classroom_for_teacher(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    return classroom


def _archived_refusal(request: HttpRequest, classroom_id: int) -> HttpResponse:
    messages.error(request, str(services.CLASSROOM_ARCHIVED))
    return redirect("classroom_detail", classroom_id=classroom_id)


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_create(request: SignedInRequest) -> HttpResponse:
    """Create a classroom for the signed-in teacher."""
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.classroom_create(
                teacher=request.user,
                name=form.cleaned_data["name"],
                grade=form.cleaned_data["grade"],
                language=form.cleaned_data["language"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Class created. Now add your students."))
            return redirect("classroom_roster", classroom_id=classroom.pk)
    return render(request, "lessons/classroom_form.html", {"form": form})


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_roster(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Add students by pasting one name a line; each gets a PIN."""
    classroom = _teacher_classroom(request, classroom_id)
    if classroom.archived_at is not None:
        return _archived_refusal(request, classroom.pk)
    form = RosterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            issued = services.roster_add(classroom=classroom, text=form.cleaned_data["names"])
        except ValidationError as error:
            form.add_error("names", error)
        else:
            return fresh_pins_to_cards(request, classroom_id=classroom.pk, issued=issued)
    return render(request, "lessons/classroom_roster.html", {"classroom": classroom, "form": form})


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_cards(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Show printable login cards; POST gives every student a new PIN first."""
    classroom = _teacher_classroom(request, classroom_id)
    if request.method == "POST":
        if request.POST.get("action") == "hide":
            fresh_pins_forget(session=request.session)
            return redirect("classroom_detail", classroom_id=classroom.pk)
        if classroom.archived_at is not None:
            return _archived_refusal(request, classroom.pk)
        issued = services.classroom_reset_all_pins(classroom=classroom)
        fresh_pins_remember(session=request.session, issued=issued)
        messages.success(request, _("Every student has a new PIN."))
        return redirect("classroom_cards", classroom_id=classroom.pk)
    fresh_pins = fresh_pins_recall(session=request.session)
    cards = [
        (student, fresh_pins.get(student.pk))
        for student in selectors.students_of_classroom(classroom=classroom)
    ]
    return render(
        request,
        "lessons/classroom_cards.html",
        {
            "classroom": classroom,
            "cards": cards,
            "join_url": request.build_absolute_uri(reverse("join")),
        },
    )


@teacher_required
@require_POST
def student_reset_pin(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Give one student a new PIN (also unlocks them)."""
    student = selectors.student_for_teacher(teacher=request.user, student_id=student_id)
    if student is None:
        raise Http404
    if student.classroom.archived_at is not None:
        return _archived_refusal(request, student.classroom_id)
    pin = services.student_reset_pin(student=student)
    fresh_pins_remember(
        session=request.session, issued=[services.StudentWithPin(student=student, pin=pin)]
    )
    messages.success(
        request,
        _("New PIN for %(name)s: %(pin)s") % {"name": student.display_name, "pin": pin},
    )
    return redirect("classroom_detail", classroom_id=student.classroom_id)


@teacher_required
@require_POST
def student_unlock(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Let a locked student try again at once."""
    student = selectors.student_for_teacher(teacher=request.user, student_id=student_id)
    if student is None:
        raise Http404
    if student.classroom.archived_at is not None:
        return _archived_refusal(request, student.classroom_id)
    services.student_unlock(student=student)
    messages.success(request, _("%(name)s can sign in again.") % {"name": student.display_name})
    return redirect("classroom_detail", classroom_id=student.classroom_id)
