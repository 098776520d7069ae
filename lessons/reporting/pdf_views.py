"""PDF progress reports: one student's, or a whole class's in one document to print.

These views are asynchronous so that a PDF never holds daphne's one thread for synchronous
views (which every page shares): the checks and the HTML run in short synchronous steps, the
rendering in the print pool (lessons/printing/printing.py), and a report already printed in
this version comes from the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from asgiref.sync import sync_to_async
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotAllowed,
)
from django.utils import translation
from django.utils.translation import gettext as _

from lessons.classrooms import selectors
from lessons.classrooms.names import by_name
from lessons.models import Classroom, Student, User
from lessons.printing import printing
from lessons.printing.pdf_render import PdfUnavailable
from lessons.reporting.class_page import class_page, plans_version
from lessons.reporting.pdf import document_html, report_body
from lessons.reporting.present import student_context
from lessons.reporting.reader import reader_lang
from lessons.reporting.student_report import student_report


@dataclass(frozen=True)
class PrintJob:
    """What to print: its cache slot and version, how to build the HTML of its parts (printed
    side by side, joined in order) and to read its version again (None: gone), the file's
    name, and the whole as one page for the browser to print (a server without PDFs)."""

    slot: str
    version: str
    parts: tuple[Callable[[], str], ...]
    version_now: Callable[[], str | None]
    filename: str
    page: Callable[[], str]


def _body(request: HttpRequest, student: Student, lang: str, *, for_student: bool) -> str:
    context = {
        **student_context(student_report(student, lang=lang), lang),
        "for_student": for_student,
        "report_lang": lang,
    }
    return report_body(request, context)


def _student_version(student: Student, lang: str, *, for_student: bool) -> str:
    return printing.version_digest([printing.report_version(student, lang), str(for_student)])


def _class_version(classroom: Classroom, students: list[Student], lang: str) -> str:
    versions = printing.report_versions(students, lang)
    return printing.version_digest([plans_version(classroom), *versions])


def _student_job(request: HttpRequest, student: Student, *, for_student: bool) -> PrintJob:
    lang = reader_lang()  # the reader's language, as the report page's

    def make_html(print_page: bool = False) -> str:
        with translation.override(lang):
            body = _body(request, student, lang, for_student=for_student)
            title = _("Progress report · %(name)s") % {"name": student.display_name}
            return document_html(request, [body], lang=lang, title=title, print_page=print_page)

    def version_now() -> str | None:
        again = Student.objects.select_related("classroom").filter(pk=student.pk).first()
        return None if again is None else _student_version(again, lang, for_student=for_student)

    audience = "student" if for_student else "teacher"
    return PrintJob(
        printing.student_slot(student.pk, audience),
        _student_version(student, lang, for_student=for_student),
        (make_html,),
        version_now,
        f"report-{student.pk}.pdf",
        lambda: make_html(print_page=True),
    )


def _class_students(classroom: Classroom) -> list[Student]:
    students = by_name(selectors.students_of_classroom(classroom=classroom))
    for student in students:
        student.classroom = classroom  # spares a query per student
    return students


def in_parts(students: list[Student], count: int) -> list[list[Student]]:
    """Cut `students` into at most `count` runs in order, as even as can be (first ones longer)."""
    count = max(1, min(count, len(students)))
    size, longer = divmod(len(students), count)
    cuts = [n * size + min(n, longer) for n in range(count + 1)]
    return [students[start:end] for start, end in pairwise(cuts)]


def _class_job(request: HttpRequest, classroom: Classroom) -> PrintJob:
    lang = reader_lang()  # the reader's language, as the report page's
    students = _class_students(classroom)
    if not students:
        raise Http404

    def part(run: list[Student], *, first: bool, print_page: bool = False) -> Callable[[], str]:
        def make_html() -> str:
            with translation.override(lang):
                bodies = [_body(request, s, lang, for_student=False) for s in run]
                if first:  # the class page opens the document (issue 31 §7)
                    bodies.insert(0, class_page(request, classroom, lang))
                title = _("Progress reports · %(name)s") % {"name": classroom.name}
                return document_html(request, bodies, lang=lang, title=title, print_page=print_page)

        return make_html

    def version_now() -> str | None:
        again = Classroom.objects.filter(pk=classroom.pk).first()
        return None if again is None else _class_version(again, _class_students(again), lang)

    runs = in_parts(students, printing.pool().workers)
    return PrintJob(
        printing.class_slot(classroom.pk),
        _class_version(classroom, students, lang),
        # One part a print worker: they print the class side by side.
        tuple(part(run, first=index == 0) for index, run in enumerate(runs)),
        version_now,
        f"reports-class-{classroom.pk}.pdf",
        part(students, first=True, print_page=True),
    )


def _teacher_classroom(user: User, classroom_id: int) -> Classroom:
    classroom = selectors.classroom_for_teacher(teacher=user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    return classroom


def _prepare_student(
    request: HttpRequest, user: User, classroom_id: int, student_id: int
) -> PrintJob:
    classroom = _teacher_classroom(user, classroom_id)
    student = classroom.students.filter(pk=student_id).first()
    if student is None:
        raise Http404
    student.classroom = classroom
    return _student_job(request, student, for_student=False)


def _prepare_me(request: HttpRequest, user: User) -> PrintJob:
    student = selectors.student_for_user(user=user)
    if student is None:
        raise Http404
    return _student_job(request, student, for_student=True)


def _prepare_class(request: HttpRequest, user: User, classroom_id: int) -> PrintJob:
    return _class_job(request, _teacher_classroom(user, classroom_id))


async def _print(
    request: HttpRequest, role: str, prepare: Callable[[User], PrintJob]
) -> HttpResponseBase:
    """Check the user's role, then the method, then answer the job's PDF (cached or printed).

    A server that prints no PDF (printing.pdf_available) answers the page to print instead.

    The same order as the synchronous views' decorators: sign-in, role (403), GET only (405),
    then the lookups (404).
    """
    user = await request.auser()
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not isinstance(user, User) or not getattr(user, role):
        raise PermissionDenied
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    job = await sync_to_async(prepare)(user)
    if not printing.pdf_available():
        return HttpResponse(await sync_to_async(job.page)())
    try:
        document = await printing.cached_pdf(job.slot, job.version, job.parts, job.version_now)
    except PdfUnavailable:
        # WeasyPrint looked installed but could not print: the page to print, all the same.
        return HttpResponse(await sync_to_async(job.page)())
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{job.filename}"'
    return response


async def report_student_pdf(
    request: HttpRequest, classroom_id: int, student_id: int
) -> HttpResponseBase:
    """Answer a student's progress report as a PDF, to their teacher."""
    return await _print(
        request,
        "is_teacher",
        lambda user: _prepare_student(request, user, classroom_id, student_id),
    )


async def report_me_pdf(request: HttpRequest) -> HttpResponseBase:
    """Answer the signed-in student's own progress report as a PDF."""
    return await _print(request, "is_student", lambda user: _prepare_me(request, user))


async def report_class_pdf(request: HttpRequest, classroom_id: int) -> HttpResponseBase:
    """Answer every progress report of a class (by name) as one PDF to print."""
    return await _print(
        request, "is_teacher", lambda user: _prepare_class(request, user, classroom_id)
    )
