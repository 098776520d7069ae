"""Thin views of group plans: the teacher plans, changes, marks done and prints; a child starts
the plan's re-check."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import BadRequest, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from lessons.classrooms import selectors as classroom_selectors
from lessons.classrooms.access import SignedInRequest, student_required, teacher_required
from lessons.diagnosis.rulebook import RULES_BY_ID
from lessons.models import Classroom, GroupPlan, PlanMember
from lessons.plans import selectors, services
from lessons.plans.activities import activity_for
from lessons.plans.family import LANGUAGES, FamilyNote, family_note, family_notes, plan_member
from lessons.plans.forms import ERROR_FIELDS, DoneForm, PlanForm
from lessons.plans.sheet import sheet_context
from lessons.printing.pdf_render import PdfUnavailable, html_to_pdf
from lessons.printing.printing import pdf_available


def _lang() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def _classroom(request: SignedInRequest, classroom_id: int) -> Classroom:
    classroom = classroom_selectors.classroom_for_teacher(
        teacher=request.user, classroom_id=classroom_id
    )
    if classroom is None:
        raise Http404
    return classroom


def _plan(request: SignedInRequest, classroom_id: int, plan_id: int) -> GroupPlan:
    plan = selectors.plan_for_teacher(
        teacher=request.user, classroom_id=classroom_id, plan_id=plan_id
    )
    if plan is None:
        raise Http404
    return plan


def _refusal(request: SignedInRequest, form: PlanForm, error: ValidationError) -> bool:
    """Show a refusal on the form; tell whether to send the teacher back (archived class)."""
    text = " ".join(str(message) for message in error.messages)
    if error.code == "archived":
        messages.error(request, text)
        return True
    form.add_error(ERROR_FIELDS.get(str(error.code)), text)
    return False


@teacher_required
@require_http_methods(["GET", "POST"])
def plan_new(request: SignedInRequest, classroom_id: int, rule: str) -> HttpResponse:
    """Plan a misconception group: the days and children proposed, the teacher adjusts."""
    classroom = _classroom(request, classroom_id)
    if rule not in RULES_BY_ID:
        raise Http404
    *games, recheck = services.default_dates(services.today())
    initial = {
        "activity": activity_for(rule).key,
        "students": [s.pk for s in selectors.likely_students(classroom, rule)],
        "game1_on": games[0],
        "game2_on": games[1],
        "game3_on": games[2],
        "recheck_on": recheck,
    }
    form = PlanForm(request.POST or None, classroom=classroom, lang=_lang(), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            plan = services.plan_create(
                teacher=request.user,
                classroom=classroom,
                rule=rule,
                students=form.cleaned_data["students"],
                activity=form.cleaned_data["activity"],
                games=form.games(),
                recheck_on=form.cleaned_data["recheck_on"],
            )
        except ValidationError as error:
            if _refusal(request, form, error):
                return redirect("dashboard_class", classroom.pk)
        else:
            messages.success(request, _("Plan saved."))
            return redirect("plan_detail", classroom.pk, plan.pk)
    rule_name = RULES_BY_ID[rule].name[_lang()]
    return render(
        request,
        "lessons/plans/plan_form.html",
        {"classroom": classroom, "form": form, "rule_id": rule, "rule_name": rule_name},
    )


@teacher_required
@require_GET
def plan_detail(request: SignedInRequest, classroom_id: int, plan_id: int) -> HttpResponse:
    """Show the plan: the activity, the group's pairs to scale, the days, the loop so far."""
    plan = _plan(request, classroom_id, plan_id)
    context: dict[str, Any] = {
        **sheet_context(plan, _lang()),
        "classroom": plan.classroom,
        "loop": selectors.plan_loop(plan),
        "done_form": DoneForm(),
    }
    return render(request, "lessons/plans/plan_detail.html", context)


@teacher_required
@require_http_methods(["GET", "POST"])
def plan_edit(request: SignedInRequest, classroom_id: int, plan_id: int) -> HttpResponse:
    """Change the plan's activity, children or days."""
    plan = _plan(request, classroom_id, plan_id)
    form = PlanForm(
        request.POST or None,
        classroom=plan.classroom,
        lang=_lang(),
        initial=PlanForm.initial_of(plan),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.plan_update(
                teacher=request.user,
                plan=plan,
                students=form.cleaned_data["students"],
                activity=form.cleaned_data["activity"],
                games=form.games(),
                recheck_on=form.cleaned_data["recheck_on"],
            )
        except ValidationError as error:
            if _refusal(request, form, error):
                return redirect("plan_detail", plan.classroom_id, plan.pk)
        else:
            messages.success(request, _("Plan changed."))
            return redirect("plan_detail", plan.classroom_id, plan.pk)
    return render(
        request,
        "lessons/plans/plan_form.html",
        {
            "classroom": plan.classroom,
            "form": form,
            "plan": plan,
            "rule_id": plan.rule,
            "rule_name": RULES_BY_ID[plan.rule].name[_lang()],
        },
    )


@teacher_required
@require_POST
def plan_done(request: SignedInRequest, classroom_id: int, plan_id: int) -> HttpResponse:
    """Mark the activity done with the group (today, or the day given)."""
    plan = _plan(request, classroom_id, plan_id)
    form = DoneForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(services.DONE_BAD_DAY, code="done_bad_day")
        services.plan_mark_done(teacher=request.user, plan=plan, on=form.cleaned_data["on"])
    except ValidationError as error:
        messages.error(request, " ".join(str(message) for message in error.messages))
    else:
        messages.success(request, _("Activity marked as done."))
    return redirect("plan_detail", plan.classroom_id, plan.pk)


def plan_sheet_html(request: SignedInRequest, plan: GroupPlan, *, print_page: bool = False) -> str:
    """Return the plan's A4 sheet as a self-contained HTML document (`print_page`: for the
    browser to print, on a server that makes no PDF)."""
    context = {**sheet_context(plan, _lang()), "lang": _lang(), "print_page": print_page}
    return render_to_string("lessons/plans/plan_pdf.html", context, request=request)


@teacher_required
@require_GET
def plan_pdf(request: SignedInRequest, classroom_id: int, plan_id: int) -> HttpResponse:
    """Return the plan's sheet as one A4 page (PDF) to print for the group (a page to print
    from the browser on a server that makes no PDF)."""
    plan = _plan(request, classroom_id, plan_id)
    if not pdf_available():
        return HttpResponse(plan_sheet_html(request, plan, print_page=True))
    try:
        document = html_to_pdf(plan_sheet_html(request, plan))
    except PdfUnavailable:
        return HttpResponse(plan_sheet_html(request, plan, print_page=True))
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="plan-{plan.rule}-{plan.pk}.pdf"'
    return response


def _note_lang(request: SignedInRequest) -> str:
    """Return the note's language: the one the teacher chose (?lang=), else the page's."""
    lang = request.GET.get("lang")
    if lang is None:
        return _lang()
    if lang not in LANGUAGES:
        raise BadRequest("unknown language")
    return lang


def _note(
    request: SignedInRequest, classroom_id: int, plan_id: int, student_id: int
) -> tuple[GroupPlan, PlanMember]:
    """Return the plan and its child's membership (404: not the teacher's, not in the plan)."""
    plan = _plan(request, classroom_id, plan_id)
    member = plan_member(plan, student_id)
    if member is None:
        raise Http404  # not of the plan, moved to another class, or removed
    return plan, member


def _notes_pdf(
    request: SignedInRequest, notes: list[FamilyNote], lang: str, name: str
) -> HttpResponse:
    """Return the notes as a PDF, one A4 page each, in the notes' language."""
    with translation.override(lang):
        html = render_to_string(
            "lessons/plans/family_pdf.html", {"notes": notes, "lang": lang}, request=request
        )
        try:
            document = html_to_pdf(html)
        except PdfUnavailable:
            return HttpResponse(_("PDF printing is not available on this server."), status=503)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@teacher_required
@require_GET
def family_note_page(
    request: SignedInRequest, classroom_id: int, plan_id: int, student_id: int
) -> HttpResponse:
    """Show a child's note for the family, in the family's language (?lang=fr|en)."""
    plan, member = _note(request, classroom_id, plan_id, student_id)
    lang = _note_lang(request)
    context = {
        "classroom": plan.classroom,
        "plan": plan,
        "note": family_note(plan, member, lang),
        "other_lang": "en" if lang == "fr" else "fr",
    }
    return render(request, "lessons/plans/family_note.html", context)


@teacher_required
@require_GET
def family_note_pdf(
    request: SignedInRequest, classroom_id: int, plan_id: int, student_id: int
) -> HttpResponse:
    """Return a child's note for the family as one A4 page (PDF)."""
    plan, member = _note(request, classroom_id, plan_id, student_id)
    lang = _note_lang(request)
    name = f"family-{plan.rule}-{plan.pk}-{member.student_id}-{lang}.pdf"
    return _notes_pdf(request, [family_note(plan, member, lang)], lang, name)


@teacher_required
@require_GET
def family_notes_pdf(request: SignedInRequest, classroom_id: int, plan_id: int) -> HttpResponse:
    """Return the notes of every child of the plan, one A4 page each (PDF)."""
    plan = _plan(request, classroom_id, plan_id)
    lang = _note_lang(request)
    notes = family_notes(plan, lang)
    if not notes:
        raise Http404  # nobody of the plan is in the class any more
    return _notes_pdf(request, notes, lang, f"family-{plan.rule}-{plan.pk}-{lang}.pdf")


@student_required
@require_POST
def plan_recheck(request: SignedInRequest, plan_id: int) -> HttpResponse:
    """Open the child's re-check warm-up of a plan (from its day), then show it."""
    student = classroom_selectors.student_for_user(user=request.user)
    plan = GroupPlan.objects.filter(pk=plan_id).select_related("classroom").first()
    if (
        student is None
        or plan is None
        or student.classroom_id != plan.classroom_id
        or not plan.memberships.filter(student=student).exists()
    ):
        raise Http404  # another's plan, or a class the child has left
    try:
        round_ = services.plan_recheck_start(student=student, plan=plan)
    except ValidationError as error:
        messages.error(request, " ".join(str(message) for message in error.messages))
        return redirect("home")
    return redirect("warmup_page", warmup_id=round_.pk)
