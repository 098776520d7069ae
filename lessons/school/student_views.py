"""A teacher's answer to a family's request: download all of a pupil's data, or erase them."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.lookups import student_or_404
from lessons.school.erasure import student_erase
from lessons.school.student_export import student_csv, student_json

EXPORT_FORMATS = {
    "json": ("application/json; charset=utf-8", student_json),
    "csv": ("text/csv; charset=utf-8", student_csv),
}


CONFIRM_MISSING = gettext_lazy("Tick the box to confirm the erasure.")


class StudentEraseForm(forms.Form):
    """The teacher confirms that everything about the pupil goes, for good."""

    confirm = forms.BooleanField(
        label=gettext_lazy("I understand: this student's data are erased for good."),
        error_messages={"required": CONFIRM_MISSING},
    )

    def clean_confirm(self) -> bool:
        """Accept only the ticked box's own value: "no" or "0" is no consent."""
        if self.data.get("confirm") not in {"on", "true", "True"}:
            raise forms.ValidationError(CONFIRM_MISSING, code="required")
        return True


@teacher_required
@require_safe
def student_export(request: SignedInRequest, student_id: int, fmt: str) -> HttpResponse:
    """Download everything stored about a pupil (no PIN), as JSON or CSV."""
    student = student_or_404(request, student_id)
    if fmt not in EXPORT_FORMATS:
        raise Http404
    content_type, build = EXPORT_FORMATS[fmt]
    response = HttpResponse(build(student=student), content_type=content_type)
    # The id, not the name: the file name shows in download lists and logs.
    filename = f"student-{student.pk}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@teacher_required
@require_http_methods(["GET", "POST"])
def student_erase_view(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Ask for confirmation, then erase a pupil: name, PIN, sign-in and every play."""
    student = student_or_404(request, student_id)
    form = StudentEraseForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        classroom_id = student.classroom_id
        student_erase(student=student)
        messages.success(request, _("The student's data were erased."))
        return redirect("classroom_detail", classroom_id=classroom_id)
    context = {"student": student, "classroom": student.classroom, "form": form}
    return render(request, "school/student_erase.html", context, status=200)
