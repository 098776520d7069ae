"""Thin views of sharing a class: add or remove a co-teacher, hand the class over."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.co_teachers import classroom_transfer, co_teacher_add, co_teacher_remove
from lessons.classrooms.lookups import classroom_or_404


def _back(request: SignedInRequest, classroom_id: int, error: ValidationError) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return redirect("classroom_detail", classroom_id=classroom_id)


@teacher_required
@require_POST
def co_teacher_add_view(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Add a co-teacher by username (owner only)."""
    classroom = classroom_or_404(request, classroom_id)
    try:
        teacher = co_teacher_add(
            classroom=classroom, by=request.user, username=str(request.POST.get("username", ""))
        )
    except ValidationError as error:
        return _back(request, classroom.pk, error)
    messages.success(
        request, _("%(name)s now co-teaches this class.") % {"name": teacher.get_username()}
    )
    return redirect("classroom_detail", classroom_id=classroom.pk)


@teacher_required
@require_POST
def co_teacher_remove_view(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Remove a co-teacher (owner), or leave the class (the co-teacher themself)."""
    classroom = classroom_or_404(request, classroom_id)
    raw = str(request.POST.get("teacher", ""))
    # isdigit() alone accepts "²" and other digits int() refuses: ASCII digits only.
    teacher_id = int(raw) if raw.isascii() and raw.isdigit() else -1
    try:
        co_teacher_remove(classroom=classroom, by=request.user, teacher_id=teacher_id)
    except ValidationError as error:
        return _back(request, classroom.pk, error)
    messages.success(request, _("The class is no longer shared with this teacher."))
    if request.user.pk == teacher_id:
        return redirect("home")
    return redirect("classroom_detail", classroom_id=classroom.pk)


@teacher_required
@require_POST
def classroom_transfer_view(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Hand the class over to another teacher (owner only); the owner stays as co-teacher."""
    classroom = classroom_or_404(request, classroom_id)
    try:
        teacher = classroom_transfer(
            classroom=classroom, by=request.user, username=str(request.POST.get("username", ""))
        )
    except ValidationError as error:
        return _back(request, classroom.pk, error)
    messages.success(request, _("%(name)s now owns this class.") % {"name": teacher.get_username()})
    return redirect("classroom_detail", classroom_id=classroom.pk)
