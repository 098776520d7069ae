"""Thin views of class sessions: start, live overview and controls, the student's way in.

Every GET is a read: joining and seating happen on POST (or at sign-in, see join_pin).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import driver
from games.forms import RULESET_CHOICES
from games.models import Table
from lessons.classrooms import selectors
from lessons.classrooms.access import SignedInRequest, student_required, teacher_required
from lessons.classrooms.grade_decks import deck_for_grade
from lessons.models import ClassSession, Student
from lessons.sessions import services
from lessons.sessions.consumers import post_overview_frame
from lessons.sessions.forms import MoveForm, SessionStartForm
from lessons.sessions.overview import session_overview
from lessons.sessions.present import overview_context
from lessons.sessions.selectors import (
    member_of,
    session_for_student,
    session_for_teacher,
    session_open_for_classroom,
)
from lessons.warmup.selectors import session_round

WAITING_REFRESH_SECONDS = 5


def _teacher_session(request: SignedInRequest, session_id: int) -> ClassSession:
    session = session_for_teacher(teacher=request.user, session_id=session_id)
    if session is None:
        raise Http404
    return session


def _error_message(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


@teacher_required
@require_http_methods(["GET", "POST"])
def session_new(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Start a class session, or go to the one in progress."""
    classroom = selectors.classroom_for_teacher(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    current = session_open_for_classroom(classroom=classroom)
    # The deck suits the class's grade (a CM1 class does not start on the 2-48 deck).
    form = SessionStartForm(request.POST or None, initial={"deck": deck_for_grade(classroom.grade)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.session_start(
                teacher=request.user,
                classroom=classroom,
                ruleset=data["ruleset"],
                table_size=data["table_size"],
                options=form.options(),
                turn_timer=data["turn_timer"],
                accessible=data["accessible"],
                animations=not data["animations_off"],
                sound=not data["mute"],
                ask_reason=bool(data.get("ask_reason")),
                warmup=bool(data.get("warmup")),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The session is open: students who sign in now join it."))
            return redirect("session_overview", session_id=session.pk)
    return render(
        request,
        "lessons/sessions/new.html",
        {"classroom": classroom, "form": form, "current": current},
    )


@teacher_required
def session_detail(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Show the teacher's live overview of a session, with its controls."""
    session = _teacher_session(request, session_id)
    overview = session_overview(session=session)
    return render(
        request,
        "lessons/sessions/overview.html",
        {
            **overview_context(overview),
            "ruleset_label": dict(RULESET_CHOICES).get(session.ruleset, session.ruleset),
            "settle_seconds": services.SETTLE_SECONDS,
            "lone_wait_seconds": services.LONE_WAIT_SECONDS,
            "lone_table_seats": services.LONE_TABLE_SEATS,
        },
    )


def _control(
    request: SignedInRequest,
    session_id: int,
    action: Callable[[ClassSession], object],
    done: str,
) -> HttpResponse:
    session = _teacher_session(request, session_id)
    try:
        action(session)
    except ValidationError as error:
        messages.error(request, _error_message(error))
    else:
        messages.success(request, done)
    return redirect("session_overview", session_id=session.pk)


@teacher_required
@require_POST
def session_pause(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Pause (paused=on) or resume every table of the session."""
    paused = request.POST.get("paused") == "on"
    return _control(
        request,
        session_id,
        lambda s: services.session_set_paused(session=s, teacher=request.user, paused=paused),
        _("Every table is paused.") if paused else _("Every table plays again."),
    )


@teacher_required
@require_POST
def session_end(request: SignedInRequest, session_id: int) -> HttpResponse:
    """End the session: every game stops."""
    return _control(
        request,
        session_id,
        lambda s: services.session_end(session=s, teacher=request.user),
        _("The session has ended."),
    )


@teacher_required
@require_POST
def session_seat(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Seat every waiting student now (by_need=on: students sharing a need play together)."""
    by_need = request.POST.get("by_need") == "on"
    return _control(
        request,
        session_id,
        lambda s: services.session_seat_now(session=s, teacher=request.user, by_need=by_need),
        _("The students are seated by need.") if by_need else _("The waiting students are seated."),
    )


@teacher_required
@require_POST
def session_move(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Move a student to another table, or back to the waiting list."""
    session = _teacher_session(request, session_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a student and a table."))
        return redirect("session_overview", session_id=session.pk)
    return _control(
        request,
        session_id,
        lambda s: services.session_move(
            session=s,
            teacher=request.user,
            student_id=form.cleaned_data["student"],
            table_number=form.cleaned_data["table"],
        ),
        _("The student has moved."),
    )


def _student_session(request: SignedInRequest, session_id: int) -> tuple[ClassSession, Student]:
    found = session_for_student(user=request.user, session_id=session_id)
    if found is None:
        raise Http404
    return found


@student_required
@require_http_methods(["GET", "HEAD"])
def session_play(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Take a student to their table, or show that they wait for one (or have not joined)."""
    session, student = _student_session(request, session_id)
    if session.status == ClassSession.Status.ENDED:
        messages.info(request, _("This class session has ended."))
        return redirect("home")
    member = member_of(session=session, student=student)
    seated = member.table if member is not None else None
    if seated is not None and seated.table.status != Table.Status.FINISHED:
        return redirect("games:play", table_id=seated.table_id)
    # A session without a warm-up has no rounds: the page polls, so it does not ask.
    warmed = member is not None and session.warmup
    warmup = session_round(session=session, student=student) if warmed else None
    if warmup is not None and warmup.finished_at is None:
        return redirect("warmup_page", warmup_id=warmup.pk)
    # Not joined yet, waiting, or their game is over (the next deal gives them a new one). The
    # deal is a server step: the page only plans the pending one (a restarted server), as a
    # table's socket does on connecting, and changes nothing.
    if member is not None:
        driver.plan_soon(services.session_pending_step(session=session))
    return render(
        request,
        "lessons/sessions/waiting.html",
        {
            "session": session,
            "joined": member is not None,
            "refresh": WAITING_REFRESH_SECONDS,
            "warmed_up": warmup is not None,
        },
    )


@student_required
@require_POST
def session_join(request: SignedInRequest, session_id: int) -> HttpResponse:
    """Join the class session (once) and ask for a table: seated if a deal is due."""
    session, student = _student_session(request, session_id)
    try:
        services.session_join(session=session, student=student)
    except ValidationError as error:
        messages.error(request, _error_message(error))
        return redirect("home")
    return redirect("session_play", session_id=session.pk)


@require_POST
async def session_frames(request: HttpRequest, session_id: int) -> HttpResponse:
    """Take one frame of the overview's fallback link (a `sync`): the JSON answer.

    Not signed in: 401; not the session's teacher: 403 (the socket's 4401 and 4403).
    """
    return await post_overview_frame(request, session_id)
