"""Thin views of a school export's import (ONDE, SIECLE): the file, then the class picker.

A school export names a whole school: reading it keeps, in the teacher's session, only the
display names of each class (never the INE, the date of birth nor any other column), under the
ordinary pending import's key, so an erasure drops it like any waiting file. The teacher picks
the classes; their names go to the ordinary preview and confirmation.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.lookups import classroom_or_404
from lessons.classrooms.name_rule import name_identity
from lessons.classrooms.pending_import import PENDING_IMPORT_KEY
from lessons.classrooms.roster_csv import roster_preview
from lessons.classrooms.roster_files import (
    KIND_AUTO,
    SchoolClass,
    school_file_read,
    school_names_pick,
)
from lessons.classrooms.roster_files.naming import names_maybe_same
from lessons.classrooms.student_forms import RosterFileForm, SchoolClassesForm
from lessons.models import Classroom

SCHOOL_KEY = "school"


def school_file_upload(
    request: SignedInRequest, classroom: Classroom, form: RosterFileForm, data: bytes
) -> HttpResponse | None:
    """Read a school export and send the teacher to the class picker.

    Return None when the file is not a school export (the ordinary import reads it) or when it
    is refused (the error is on the form, and nothing is kept).
    """
    try:
        school = school_file_read(
            data=data,
            kind=form.cleaned_data.get("kind") or KIND_AUTO,
            whole_last_name=form.cleaned_data.get("last_names") == "whole",
        )
    except ValidationError as error:
        form.add_error("file", error)
        return None
    if school is None:
        return None
    request.session[PENDING_IMPORT_KEY] = {
        "classroom": classroom.pk,
        # Every name of the file, for an erasure to find (lessons.school.copies).
        "names": [name for school_class in school.classes for name in school_class.names],
        SCHOOL_KEY: {
            "kind": school.kind,
            "left": school.left,
            "classes": [[c.label, c.names] for c in school.classes],
        },
    }
    return redirect("classroom_import_classes", classroom_id=classroom.pk)


def school_pending(request: SignedInRequest, classroom: Classroom) -> dict[str, Any] | None:
    """Return the session's school export waiting for this class's picker, if there is one."""
    pending = request.session.get(PENDING_IMPORT_KEY)
    if not isinstance(pending, dict) or pending.get("classroom") != classroom.pk:
        return None
    school = pending.get(SCHOOL_KEY)
    return school if isinstance(school, dict) else None


def _maybe_same(missing: list[str], new: list[str]) -> list[str]:
    """Return, in words, each pupil of the class the file may name again under another name."""
    return [
        _("“%(old)s”, in the class, may be %(names)s in the file.")
        % {"old": old, "names": ", ".join(_("“%(name)s”") % {"name": n} for n in names)}
        for old, names in names_maybe_same(missing, new)
    ]


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_import_classes(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Show a school export's classes with their counts; preview the chosen ones' pupils."""
    classroom = classroom_or_404(request, classroom_id)
    school = school_pending(request, classroom)
    if classroom.archived_at is not None or school is None:
        messages.error(request, _("Nothing to import: choose the file again."))
        return redirect("classroom_import", classroom_id=classroom.pk)
    classes = [
        SchoolClass(label=str(label), names=list(names)) for label, names in school["classes"]
    ]
    counts = [(c.label, len(c.names)) for c in classes]
    # A class named like one of the file's ("CM1 A") has it ticked already.
    same = [
        str(i)
        for i, c in enumerate(classes)
        if name_identity(c.label) == name_identity(classroom.name)
    ]
    form = (
        SchoolClassesForm(request.POST, counts=counts)
        if request.method == "POST"
        else SchoolClassesForm(counts=counts, initial={"classes": same} if same else None)
    )
    if request.method == "POST" and form.is_valid():
        chosen = [classes[int(index)] for index in form.cleaned_data["classes"]]
        try:
            names = school_names_pick(chosen)
            preview = roster_preview(classroom=classroom, names=names)
        except ValidationError as error:
            form.add_error("classes", error)
        else:
            # From here on, the ordinary waiting file: the confirmation adds these names.
            request.session[PENDING_IMPORT_KEY] = {
                "classroom": classroom.pk,
                "names": names,
                "ent_ids": {},
                "ent": None,
            }
            return render(
                request,
                "lessons/classroom_import_preview.html",
                {
                    "classroom": classroom,
                    "preview": preview,
                    "ent_links": 0,
                    "maybe_same": _maybe_same(preview.missing, preview.new),
                },
            )
    context = {
        "classroom": classroom,
        "form": form,
        "kind": school.get("kind"),
        "left": int(school.get("left") or 0),
        "pupils": sum(count for _label, count in counts),
        "class_count": len(counts),
    }
    return render(request, "lessons/classroom_import_classes.html", context)
