"""Thin views of the roster file import and of one student's page (rename, move, remove)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from lessons.classrooms import selectors, services
from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.fresh_pins import fresh_pins_to_cards
from lessons.classrooms.lookups import classroom_or_404, student_or_404
from lessons.classrooms.pending_import import PENDING_IMPORT_KEY
from lessons.classrooms.roster_csv import roster_file_entries, roster_preview
from lessons.classrooms.roster_files import SCHOOL_FILE_MAX_BYTES
from lessons.classrooms.school_file_views import SCHOOL_KEY, school_file_upload
from lessons.classrooms.student_forms import (
    RosterFileForm,
    StudentMoveForm,
    StudentRemoveForm,
    StudentRenameForm,
)
from lessons.ent.links import links_made_message
from lessons.ent.pupils import pupil_connectors
from lessons.ent.roster_links import import_connector, import_links_check, import_links_make
from lessons.models import Classroom, EntConnector, Student
from lessons.pupils.changes import student_move, student_remove, student_rename


def _archived_refusal(request: SignedInRequest, classroom: Classroom) -> HttpResponse | None:
    if classroom.archived_at is None:
        return None
    messages.error(request, str(services.CLASSROOM_ARCHIVED))
    return redirect("classroom_detail", classroom_id=classroom.pk)


@teacher_required
@require_http_methods(["GET", "POST"])
def classroom_import(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Read a class list file and show what confirming would change (nothing changes yet)."""
    classroom = classroom_or_404(request, classroom_id)
    if (refusal := _archived_refusal(request, classroom)) is not None:
        return refusal
    connectors = pupil_connectors()
    form = (
        RosterFileForm(request.POST, request.FILES, connectors=connectors)
        if request.method == "POST"
        else RosterFileForm(connectors=connectors)
    )
    data = b""
    if request.method == "POST" and form.is_valid():
        # One byte past the limit is enough for the readers to refuse a big file.
        data = form.cleaned_data["file"].read(SCHOOL_FILE_MAX_BYTES + 1)
        if (school := school_file_upload(request, classroom, form, data)) is not None:
            return school  # an ONDE or SIECLE export: the class picker comes first
    if request.method == "POST" and form.is_valid():
        try:
            entries = roster_file_entries(data=data)
            names = [entry.name for entry in entries]
            preview = roster_preview(classroom=classroom, names=names)
            ent_ids = {entry.name: entry.ent_id for entry in entries if entry.ent_id}
            connector, ent_links = None, 0
            if ent_ids:
                connector = import_connector(connectors, form.cleaned_data.get("ent"))
                ent_links = import_links_check(
                    classroom=classroom, connector=connector, ent_ids=ent_ids, by=request.user
                )
        except ValidationError as error:
            form.add_error("file", error)
        else:
            request.session[PENDING_IMPORT_KEY] = {
                "classroom": classroom.pk,
                "names": names,
                "ent_ids": ent_ids,
                "ent": connector.pk if connector else None,
            }
            return render(
                request,
                "lessons/classroom_import_preview.html",
                {"classroom": classroom, "preview": preview, "ent_links": ent_links},
            )
    return render(request, "lessons/classroom_import.html", {"classroom": classroom, "form": form})


@teacher_required
@require_POST
def classroom_import_confirm(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Add the new students of the previewed file, each with a PIN."""
    classroom = classroom_or_404(request, classroom_id)
    pending = request.session.get(PENDING_IMPORT_KEY) or {}
    if pending.get("classroom") != classroom.pk:
        messages.error(request, _("Nothing to import: choose the file again."))
        return redirect("classroom_import", classroom_id=classroom.pk)
    if pending.get(SCHOOL_KEY):
        messages.error(request, _("Choose the classes to take from the school's file first."))
        return redirect("classroom_import_classes", classroom_id=classroom.pk)
    try:
        with transaction.atomic():
            preview = roster_preview(classroom=classroom, names=list(pending["names"]))
            issued = services.roster_add_names(classroom=classroom, names=preview.new)
            connector = EntConnector.objects.filter(
                pk=pending.get("ent") or 0, enabled=True
            ).first()
            linked = []
            if pending.get("ent_ids") and connector is not None:
                linked = import_links_make(
                    classroom=classroom,
                    connector=connector,
                    ent_ids=dict(pending["ent_ids"]),
                    by=request.user,
                )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("classroom_import", classroom_id=classroom.pk)
    request.session.pop(PENDING_IMPORT_KEY, None)
    if linked and not issued:
        messages.success(request, links_made_message(len(linked)))
        return redirect("ent_matching", classroom_id=classroom.pk)
    return fresh_pins_to_cards(request, classroom_id=classroom.pk, issued=issued)


def _other_classrooms(request: SignedInRequest, student: Student) -> QuerySet[Classroom]:
    return (
        selectors.classrooms_for_teacher(teacher=request.user)
        .filter(archived_at__isnull=True)
        .exclude(pk=student.classroom_id)
    )


def _student_page(
    request: SignedInRequest,
    student: Student,
    *,
    rename: StudentRenameForm | None = None,
    move: StudentMoveForm | None = None,
    remove: StudentRemoveForm | None = None,
    status: int = 200,
) -> HttpResponse:
    others = _other_classrooms(request, student)
    context = {
        "student": student,
        "classroom": student.classroom,
        "rename_form": rename or StudentRenameForm(initial={"name": student.display_name}),
        "move_form": move or StudentMoveForm(classrooms=others),
        "remove_form": remove or StudentRemoveForm(),
        "can_move": others.exists(),
    }
    return render(request, "lessons/student_manage.html", context, status=status)


@teacher_required
@require_http_methods(["GET"])
def student_manage(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Show a student's page: rename, move to another class, remove."""
    student = student_or_404(request, student_id)
    return _student_page(request, student)


@teacher_required
@require_POST
def student_rename_view(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Rename a student."""
    student = student_or_404(request, student_id)
    form = StudentRenameForm(request.POST)
    if form.is_valid():
        old = student.display_name
        try:
            student_rename(student=student, name=form.cleaned_data["name"])
        except ValidationError as error:
            student.display_name = old
            form.add_error("name", error)
        else:
            messages.success(request, _("Renamed."))
            return redirect("classroom_detail", classroom_id=student.classroom_id)
    return _student_page(request, student, rename=form)


@teacher_required
@require_POST
def student_move_view(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Move a student to another of the teacher's classes."""
    student = student_or_404(request, student_id)
    origin = student.classroom_id
    form = StudentMoveForm(request.POST, classrooms=_other_classrooms(request, student))
    if form.is_valid():
        try:
            student_move(student=student, to=form.cleaned_data["to"])
        except ValidationError as error:
            form.add_error("to", error)
        else:
            messages.success(
                request,
                _("%(name)s is now in %(classroom)s.")
                % {"name": student.display_name, "classroom": student.classroom.name},
            )
            return redirect("classroom_detail", classroom_id=origin)
    return _student_page(request, student, move=form)


@teacher_required
@require_POST
def student_remove_view(request: SignedInRequest, student_id: int) -> HttpResponse:
    """Remove a student: erase their data, or keep their plays under a pseudonym."""
    student = student_or_404(request, student_id)
    classroom_id = student.classroom_id
    form = StudentRemoveForm(request.POST)
    if form.is_valid():
        try:
            student_remove(student=student, mode=form.cleaned_data["mode"])
        except ValidationError as error:
            form.add_error("mode", error)
        else:
            messages.success(request, _("The student was removed from the class."))
            return redirect("classroom_detail", classroom_id=classroom_id)
    return _student_page(request, student, remove=form)
