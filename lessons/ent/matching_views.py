"""Thin views of a class's ENT matching screen (the class's teachers and co-teachers only)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.lookups import classroom_or_404
from lessons.ent.links import (
    class_names_free,
    class_names_set,
    links_made_message,
    pupil_unlink,
    seen_class_names,
    seen_link,
)
from lessons.ent.matching import class_name_fits
from lessons.ent.matching_forms import ClassNamesForm, LinkForm, UnlinkForm
from lessons.ent.matching_screen import matching_screen
from lessons.models import Classroom, User


def _page(
    request: SignedInRequest,
    classroom: Classroom,
    *,
    link_form: LinkForm | None = None,
    unlink_form: UnlinkForm | None = None,
    names_form: ClassNamesForm | None = None,
) -> HttpResponse:
    screen = matching_screen(classroom, request.user)
    chosen = list(classroom.ent_class_names.values_list("name", flat=True))
    context: dict[str, Any] = {
        "classroom": classroom,
        "screen": screen,
        "link_form": link_form or LinkForm(waiting=screen.waiting, unlinked=screen.unlinked),
        "unlink_form": unlink_form or UnlinkForm(linked=[row.student for row in screen.linked]),
        "names_form": names_form
        or ClassNamesForm(
            names=class_name_choices(classroom, chosen, request.user), initial={"names": chosen}
        ),
    }
    # A refused form is shown again with its errors (200), as every form of the app.
    return render(request, "ent/classroom_matching.html", context)


def _refused(
    request: SignedInRequest, classroom: Classroom, error: ValidationError
) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return redirect("ent_matching", classroom_id=classroom.pk)


def class_name_choices(classroom: Classroom, chosen: list[str], teacher: User) -> list[str]:
    """Return the ENT class names a teacher may tick: those seen, but not the class's own nor
    those another teacher's class takes (the school admin gives those); and those chosen.
    """
    seen = [name for name in seen_class_names() if not class_name_fits([name], [classroom.name])]
    return sorted({*class_names_free(classroom, teacher, seen), *chosen})


@teacher_required
@require_safe
def ent_matching(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Show the ENT pupils waiting against the class list, the links and who made them."""
    return _page(request, classroom_or_404(request, classroom_id))


@teacher_required
@require_POST
def ent_matching_link(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Link the ticked ENT pupils to the chosen pupils of the list, all or none."""
    classroom = classroom_or_404(request, classroom_id)
    screen = matching_screen(classroom, request.user)
    form = LinkForm(request.POST, waiting=screen.waiting, unlinked=screen.unlinked)
    if not form.is_valid():
        return _page(request, classroom, link_form=form)
    try:
        made = seen_link(classroom=classroom, choices=form.cleaned_data["choices"], by=request.user)
    except ValidationError as error:
        return _refused(request, classroom, error)
    messages.success(request, links_made_message(len(made)))
    return redirect("ent_matching", classroom_id=classroom.pk)


@teacher_required
@require_POST
def ent_matching_unlink(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Remove one pupil's ENT link."""
    classroom = classroom_or_404(request, classroom_id)
    screen = matching_screen(classroom, request.user)
    form = UnlinkForm(request.POST, linked=[row.student for row in screen.linked])
    if not form.is_valid():
        return _page(request, classroom, unlink_form=form)
    student = form.by_pk[form.cleaned_data["student"]]
    try:
        pupil_unlink(classroom=classroom, student=student, by=request.user)
    except ValidationError as error:
        return _refused(request, classroom, error)
    messages.success(
        request,
        _("%(name)s is no longer linked to an ENT account.") % {"name": student.display_name},
    )
    return redirect("ent_matching", classroom_id=classroom.pk)


@teacher_required
@require_POST
def ent_matching_classes(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Set which ENT classes are this class."""
    classroom = classroom_or_404(request, classroom_id)
    chosen = list(classroom.ent_class_names.values_list("name", flat=True))
    form = ClassNamesForm(request.POST, names=class_name_choices(classroom, chosen, request.user))
    if not form.is_valid():
        return _page(request, classroom, names_form=form)
    try:
        class_names_set(classroom=classroom, names=form.cleaned_data["names"], by=request.user)
    except ValidationError as error:
        return _refused(request, classroom, error)
    messages.success(request, _("The class's ENT classes are saved."))
    return redirect("ent_matching", classroom_id=classroom.pk)
