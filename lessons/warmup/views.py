"""Thin views of the warm-up: the student's page and its three POSTs, the teacher's re-check.

Every GET is a read; answering, giving a reason and starting are POSTs that redirect back to
the page (so a reload never answers twice). A student reaches only their own rounds: another
student's round is a 404, like a missing one.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from lessons.classrooms import selectors as classroom_selectors
from lessons.classrooms.access import SignedInRequest, student_required, teacher_required
from lessons.diagnosis import REASON_LABELS
from lessons.models import Student, WarmupRound
from lessons.warmup import selectors, services
from lessons.warmup.forms import AnswerForm, ReasonForm, RecheckForm


def _student(request: SignedInRequest) -> Student:
    student = classroom_selectors.student_for_user(user=request.user)
    if student is None:
        raise Http404
    return student


def _own(request: SignedInRequest, warmup_id: int) -> tuple[Student, WarmupRound]:
    student = _student(request)
    round_ = selectors.round_for_student(student=student, warmup_id=warmup_id)
    if round_ is None:
        raise Http404
    return student, round_


def _lang() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def reason_label(code: str, lang: str) -> str:
    """Return a prompt answer as the child reads it."""
    if code == services.REASON_SAME_FACTOR:
        return _("I multiplied or divided the top and the bottom by the same number")
    return REASON_LABELS[code][lang]


def _refused(request: SignedInRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(str(message) for message in error.messages))


@student_required
@require_http_methods(["GET", "HEAD"])
def warmup_page(request: SignedInRequest, warmup_id: int) -> HttpResponse:
    """Show the round where the student is: an item, the question after it, the start or end."""
    _student_, round_ = _own(request, warmup_id)
    state = selectors.page_state(round_)
    lang = _lang()
    if state["step"] == "reason":
        state["choices"] = [
            {"code": code, "label": reason_label(code, lang), "key": index + 1}
            for index, code in enumerate(state["choices"])
        ]
    example = selectors.example_for(round_, lang) if state["step"] == "done" else None
    return render(
        request,
        "lessons/warmup/round.html",
        {"round": round_, "state": state, "example": example},
    )


@student_required
@require_POST
def warmup_answer(request: SignedInRequest, warmup_id: int) -> HttpResponse:
    """Store the chosen card (before anything else is shown), then ask why."""
    student, round_ = _own(request, warmup_id)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the cards shown."))
        return redirect("warmup_page", warmup_id=round_.pk)
    try:
        services.warmup_answer(
            student=student,
            warmup_id=round_.pk,
            item_number=form.cleaned_data["item"],
            choice=form.cleaned_data["choice"],
        )
    except ValidationError as error:
        _refused(request, error)
    return redirect("warmup_page", warmup_id=round_.pk)


@student_required
@require_POST
def warmup_reason(request: SignedInRequest, warmup_id: int) -> HttpResponse:
    """Store the reason (or the skip), then show the next item or the end."""
    student, round_ = _own(request, warmup_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("This answer is not one of the choices."))
        return redirect("warmup_page", warmup_id=round_.pk)
    try:
        services.warmup_reason(
            student=student, warmup_id=round_.pk, reason=form.cleaned_data["reason"] or None
        )
    except ValidationError as error:
        _refused(request, error)
    return redirect("warmup_page", warmup_id=round_.pk)


@student_required
@require_POST
def warmup_begin(request: SignedInRequest, warmup_id: int) -> HttpResponse:
    """Start a round that waits for the student (assigned, or a re-check)."""
    student, round_ = _own(request, warmup_id)
    try:
        services.warmup_begin(student=student, warmup_id=round_.pk)
    except ValidationError as error:
        _refused(request, error)
    return redirect("warmup_page", warmup_id=round_.pk)


@teacher_required
@require_http_methods(["GET", "POST"])
def warmup_recheck(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Ask chosen students for a warm-up round: a re-check, or a warm-up before a date."""
    classroom = classroom_selectors.classroom_for_teacher(
        teacher=request.user, classroom_id=classroom_id
    )
    if classroom is None:
        raise Http404
    choices = [(s.pk, s.display_name) for s in classroom.students.order_by("display_name", "pk")]
    initial = [int(v) for v in request.GET.getlist("student") if v.isdigit()]
    form = RecheckForm(request.POST or None, students=choices, initial={"students": initial})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = services.warmup_recheck(
                teacher=request.user,
                classroom=classroom,
                students=data["students"],
                level=data["deck"],
                due_on=data["due_on"],
                kind=WarmupRound.Kind.PRACTICE if data["practice"] else WarmupRound.Kind.RECHECK,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)d student will find the warm-up on their page.",
                    "%(count)d students will find the warm-up on their page.",
                    len(made),
                )
                % {"count": len(made)},
            )
            return redirect("warmup_recheck", classroom_id=classroom.pk)
    return render(
        request,
        "lessons/warmup/recheck.html",
        {
            "classroom": classroom,
            "form": form,
            "sent": selectors.sent_rounds(classroom=classroom),
        },
    )
