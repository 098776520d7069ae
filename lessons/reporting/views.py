"""Dashboard, report and export views (teachers see their own classes, students themselves),
and the public "How we diagnose" page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_GET

from lessons.classrooms import selectors
from lessons.classrooms.access import SignedInRequest, student_required, teacher_required
from lessons.diagnosis import (
    BASIS_LABELS,
    CONFIDENCE_LABELS,
    REASON_LABELS,
    REASONS,
    RULES,
    RULES_VERSION,
    SKILL_CUTOFFS_TEXT,
)
from lessons.diagnosis.learning_curve import TREND_ALPHA, TREND_MIN_PUPILS
from lessons.diagnosis.model import HABIT_FLOOR, HELD_MIN_DAYS, UNTESTED_RULES
from lessons.evidence.loading import SOURCES, WINDOW_DAYS
from lessons.models import Classroom, ClassSession, Student
from lessons.reporting import exports, words
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.learning import class_curves, learning_context
from lessons.reporting.present import (
    class_context,
    legend,
    session_context,
    student_context,
)
from lessons.reporting.reader import reader_lang
from lessons.reporting.session_report import session_report
from lessons.reporting.student_report import student_report
from lessons.warmup.progress import session_warmup

current_lang = reader_lang


def _classroom(request: SignedInRequest, classroom_id: int) -> Classroom:
    classroom = selectors.classroom_for_teacher(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    return classroom


def _source(request: HttpRequest) -> str:
    """Return the plays asked for (?source=sessions|practice|both, default both); 404 else."""
    source = request.GET.get("source") or SOURCES[0]
    if source not in SOURCES:
        raise Http404
    return source


def _student_of(classroom: Classroom, student_id: int) -> Student:
    student = classroom.students.filter(pk=student_id).first()
    if student is None:
        raise Http404
    student.classroom = classroom  # spares a query: the classroom is already loaded
    return student


@teacher_required
@require_GET
def dashboard_class(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Show the class dashboard."""
    classroom = _classroom(request, classroom_id)
    source = _source(request)
    lang = current_lang()
    dash = class_dashboard(classroom, source=source)
    context = class_context(dash, lang)
    learning = learning_context(class_curves(classroom, source=source, window=dash.window), lang)
    return render(
        request,
        "lessons/dashboards/class.html",
        {**context, **learning, "classroom": classroom, "source": source},
    )


@teacher_required
@require_GET
def dashboard_student(request: SignedInRequest, classroom_id: int, student_id: int) -> HttpResponse:
    """Show one student's page to their teacher."""
    classroom = _classroom(request, classroom_id)
    student = _student_of(classroom, student_id)
    lang = current_lang()
    source = _source(request)
    context = student_context(student_report(student, lang=lang, source=source), lang)
    return render(request, "lessons/dashboards/student.html", {**context, "source": source})


@teacher_required
@require_GET
def dashboard_session(request: SignedInRequest, classroom_id: int, session_id: int) -> HttpResponse:
    """Show what happened in one lesson."""
    classroom = _classroom(request, classroom_id)
    session = ClassSession.objects.filter(classroom=classroom, pk=session_id).first()
    if session is None:
        raise Http404
    session.classroom = classroom
    context = session_context(session_report(session), current_lang())
    return render(
        request,
        "lessons/dashboards/session.html",
        {**context, "classroom": classroom, "warmup": session_warmup(session=session)},
    )


def _report(request: HttpRequest, student: Student, *, for_student: bool) -> HttpResponse:
    """Render the progress report in the reader's language, as a page or as a PDF."""
    wants_pdf = request.GET.get("format") == "pdf"
    if request.GET.get("format") not in (None, "", "html", "pdf"):
        raise Http404
    if wants_pdf:
        # PDFs are printed off this thread, by the views of lessons/reporting/pdf_views.py.
        if for_student:
            return redirect("report_me_pdf")
        return redirect("report_student_pdf", student.classroom_id, student.pk)
    lang = reader_lang()  # the reader's choice (the switcher's), never the class's for them
    with translation.override(lang):
        context = {
            **student_context(student_report(student, lang=lang), lang),
            "for_student": for_student,
            "report_lang": lang,
        }
        return render(request, "lessons/reports/report.html", context)


@teacher_required
@require_GET
def report_student(request: SignedInRequest, classroom_id: int, student_id: int) -> HttpResponse:
    """Show a student's printable progress report to their teacher (?format=pdf for a PDF)."""
    classroom = _classroom(request, classroom_id)
    return _report(request, _student_of(classroom, student_id), for_student=False)


@student_required
@require_GET
def report_me(request: SignedInRequest) -> HttpResponse:
    """Show the signed-in student their own progress report (?format=pdf for a PDF)."""
    student = selectors.student_for_user(user=request.user)
    if student is None:
        raise Http404
    return _report(request, student, for_student=True)


def _flavour(request: HttpRequest, classroom: Classroom) -> exports.Flavour:
    """Return the export flavour asked for (?for=spreadsheet), 404 for an unknown one."""
    try:
        return exports.flavour_for(request.GET.get("for") or exports.MACHINE, classroom)
    except ValueError:
        raise Http404 from None


def _export(request: SignedInRequest, classroom_id: int, kind: str) -> StreamingHttpResponse:
    classroom = _classroom(request, classroom_id)
    flavour = _flavour(request, classroom)
    lines = exports.attempt_lines if kind == "attempts" else exports.student_lines
    suffix = "" if flavour.name == exports.MACHINE else f"-{flavour.name}"
    name = f"{kind}-{exports.pseudonym('class', classroom.pk)}{suffix}.csv"
    return exports.csv_response(lines(classroom, flavour), name, flavour)


@teacher_required
@require_GET
def export_attempts(request: SignedInRequest, classroom_id: int) -> StreamingHttpResponse:
    """Download one row per attempt of the class (pseudonymous ids; ?for=spreadsheet)."""
    return _export(request, classroom_id, "attempts")


@teacher_required
@require_GET
def export_students(request: SignedInRequest, classroom_id: int) -> StreamingHttpResponse:
    """Download one row per student of the class (pseudonymous ids; ?for=spreadsheet)."""
    return _export(request, classroom_id, "students")


@teacher_required
@require_GET
def export_dictionary(request: SignedInRequest) -> HttpResponse:
    """Describe every column of both exports."""
    lang = current_lang()
    return render(
        request,
        "lessons/reports/data_dictionary.html",
        {
            "attempt_columns": exports.attempt_dictionary(lang),
            "student_columns": exports.student_dictionary(lang),
            "legend": legend(lang),
            "window_days": WINDOW_DAYS,
            "rediagnose_code": exports.REDIAGNOSE_CODE,
        },
    )


def diagnosis(request: HttpRequest) -> HttpResponse:
    """Explain, for a teacher, what each status means (with the model's figures) and each rule."""
    language = "en" if translation.get_language() == "en" else "fr"
    deck = words.deck_figures()
    rules = [
        {
            "id": rule.id,
            "name": rule.name[language],
            "teacher": rule.teacher[language],
            "detection": rule.detection,
            "claim": rule.claim,
            "examples": [f"{r[0]}/{r[1]} → {p[0]}/{p[1]}" for r, p in rule.examples],
            "basis": [BASIS_LABELS[b][language] for b in rule.basis],
            "confidence": CONFIDENCE_LABELS[rule.confidence][language],
            "part_of": rule.part_of,
            "chance": words.percent(deck.chance[rule.id]) if rule.id in deck.chance else None,
            "possible": rule.id not in deck.impossible,
            "untested": rule.id in UNTESTED_RULES,
        }
        for rule in RULES
    ]
    meanings = words.status_meanings()
    return render(
        request,
        "lessons/diagnosis.html",
        {
            "rules": rules,
            "rules_version": RULES_VERSION,
            "meanings": meanings,
            "impossible": [rule for rule in rules if not rule["possible"]],
            "deck_values": deck.values,
            "reasons": [
                {"label": REASON_LABELS[code][language], "rule": rule or ""}
                for code, rule in REASONS.items()
            ],
            "skill_text": SKILL_CUTOFFS_TEXT[language],
            "residual": words.residual_table(),
            "held_days": HELD_MIN_DAYS,
            "floor": words.percent(HABIT_FLOOR, 0),
            "trend_level": words.percent(TREND_ALPHA, 0),
            "trend_pupils": TREND_MIN_PUPILS,
        },
    )
