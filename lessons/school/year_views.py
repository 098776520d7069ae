"""Thin views of archiving a class and starting a new school year from it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lessons.classrooms import selectors
from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.fresh_pins import fresh_pins_remember
from lessons.classrooms.lookups import classroom_or_404
from lessons.classrooms.student_forms import NewYearForm
from lessons.school.class_years import classroom_archive, classroom_new_year


@teacher_required
@require_POST
def classroom_archive_view(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Archive a class (owner only): read-only, off the home page, reports still readable."""
    classroom = classroom_or_404(request, classroom_id)
    try:
        classroom_archive(classroom=classroom, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("classroom_detail", classroom_id=classroom.pk)
    messages.success(request, _("The class is archived. Its dashboards stay readable."))
    return redirect("classrooms_archived")


@teacher_required
@require_safe
def classrooms_archived(request: SignedInRequest) -> HttpResponse:
    """List the teacher's archived classes."""
    classrooms = selectors.classrooms_for_teacher(teacher=request.user, archived=True)
    return render(request, "lessons/classrooms_archived.html", {"classrooms": classrooms})


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_new_year_view(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Start a new class from an archived class's roster: new PINs, new class code."""
    source = classroom_or_404(request, classroom_id)
    if source.archived_at is None:
        messages.error(request, _("Archive the class first; then start the new year from it."))
        return redirect("classroom_detail", classroom_id=source.pk)
    initial = {"name": source.name, "grade": source.grade}
    form = NewYearForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            classroom, issued = classroom_new_year(
                source=source,
                by=request.user,
                name=form.cleaned_data["name"],
                grade=form.cleaned_data["grade"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            fresh_pins_remember(session=request.session, issued=issued)
            messages.success(request, _("New class created: print the new login cards."))
            return redirect("classroom_cards", classroom_id=classroom.pk)
    students = selectors.students_of_classroom(classroom=source)
    return render(
        request,
        "lessons/classroom_new_year.html",
        {"source": source, "form": form, "students": students},
    )
