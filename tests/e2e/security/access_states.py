"""The states of the authorisation matrix: every role × URL row again after a change of the
class's life (issue 22). Each state is made by the product's own services after the row's
targets exist, and each row's outcome in that state follows from its outcome before by the
rules below (a removed co-teacher is a teacher of no class; a moved, archived-away,
pseudonymised or erased pupil has no sign-in and is no target in class A), plus the few rows
whose answer the state changes otherwise (STATE_ROWS, each with its reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from lessons.classrooms.co_teachers import co_teacher_remove
from lessons.classrooms.services import other_sign_ins_end, student_reset_pin
from lessons.ent.links import class_name_give, pupil_unlink
from lessons.ent.tickets import single_sign_out
from lessons.models import (
    Classroom,
    ClassSession,
    EntConnector,
    EntIdentity,
    EntSeenPupil,
    Student,
    User,
)
from lessons.pupils.changes import student_move, student_remove
from lessons.school.admin_services import teacher_set_active
from lessons.school.class_years import classroom_archive
from lessons.school.erasure import student_erase
from lessons.sessions.services import session_end
from tests.e2e.security.access_matrix import (
    ACTORS,
    ENT_TICKETS,
    MATRIX_CONNECTOR,
    Outcome,
    Route,
    extra_actor,
)
from tests.support.factories import make_classroom

P, R, L, F, N = Outcome.OK, Outcome.REDIRECT, Outcome.LOGIN, Outcome.FORBIDDEN, Outcome.NOT_FOUND
SERVED = {P, R}


@dataclass(frozen=True)
class Made:
    """What making a state did: whether the product let it happen (an archived class's pupil
    cannot be moved or removed: then the row keeps its outcome)."""

    happened: bool


def _pupil(a: Any) -> Student:
    # A fresh copy: the services change the object they get, and the world's stays as it was
    # for the next actor (whose savepoint starts from the row's database again).
    return Student.objects.select_related("classroom", "user").get(pk=a.student.student.pk)


def _class_a(a: Any) -> Classroom:
    return Classroom.objects.get(pk=a.classroom.pk)


def _moved(a: Any, b: Any, co_teacher: User) -> Made:
    other = make_classroom(teacher=a.teacher, name="Classe A2")
    try:
        student_move(student=_pupil(a), to=other)
    except ValidationError:
        return Made(False)
    return Made(True)


def _archived(a: Any, b: Any, co_teacher: User) -> Made:
    for session in ClassSession.objects.filter(classroom=a.classroom).exclude(
        status=ClassSession.Status.ENDED
    ):
        session_end(session=session, teacher=a.teacher)
    classroom = _class_a(a)
    if classroom.archived_at is not None:  # the row archived it already (new year rows)
        return Made(False)
    classroom_archive(classroom=classroom, by=a.teacher)
    return Made(True)


def _pseudonymised(a: Any, b: Any, co_teacher: User) -> Made:
    try:
        student_remove(student=_pupil(a), mode="pseudonymise")
    except ValidationError:
        return Made(False)
    return Made(True)


def _erased(a: Any, b: Any, co_teacher: User) -> Made:
    student_erase(student=_pupil(a))
    return Made(True)


def _co_teacher_removed(a: Any, b: Any, co_teacher: User) -> Made:
    co_teacher_remove(classroom=_class_a(a), by=a.teacher, teacher_id=co_teacher.pk)
    return Made(True)


def _ent_signed_out(a: Any, b: Any, co_teacher: User) -> Made:
    # The ENT's single sign-out names the tickets of the ENT-linked teacher's and pupil's
    # sign-ins (each one's that was made: a POST row signs in one actor only).
    ended = [single_sign_out(ticket) for ticket in ENT_TICKETS.values()]
    return Made(any(ended))


def _new_pin(a: Any, b: Any, co_teacher: User) -> Made:
    # The teacher gives the pupil a new PIN: every sign-in of that account ends (the ENT one of
    # the ENT-linked pupil, the same account, too).
    student_reset_pin(student=_pupil(a))
    return Made(True)


def _ent_unlinked(a: Any, b: Any, co_teacher: User) -> Made:
    # Class A's teacher unlinks the ENT-linked pupil (a wrong link, say): the sessions its ENT
    # sign-in opened end; the pupil's own account signed in with its class code stays.
    if not EntIdentity.objects.filter(user_id=a.student.user.pk).exists():
        return Made(False)
    try:
        pupil_unlink(classroom=_class_a(a), student=_pupil(a), by=a.teacher)
    except ValidationError:
        return Made(False)
    return Made(True)


def _ent_class_given(a: Any, b: Any, co_teacher: User) -> Made:
    # The school admin gives class A's ENT class to class B: class A's teachers no longer see
    # (nor link) its pupils waiting; nobody's rights change otherwise.
    connector = EntConnector.objects.first()
    if connector is None:
        connector = EntConnector.objects.create(
            name="ENT given", server_url="https://127.0.0.1:9/cas/", **MATRIX_CONNECTOR
        )
    EntSeenPupil.objects.get_or_create(
        connector=connector,
        external_id="matrix-given",
        defaults={"display_name": "MARTIN Léa", "classes": [a.classroom.name]},
    )
    class_name_give(
        name=a.classroom.name,
        classroom=Classroom.objects.get(pk=b.classroom.pk),
        by=extra_actor("school_admin", a),
    )
    return Made(True)


STATES: dict[str, Callable[[Any, Any, User], Made]] = {
    "moved": _moved,
    "archived": _archived,
    "pseudonymised": _pseudonymised,
    "erased": _erased,
    "co_teacher_removed": _co_teacher_removed,
    "ent_signed_out": _ent_signed_out,
    "new_pin": _new_pin,
    "ent_unlinked": _ent_unlinked,
    "ent_class_given": _ent_class_given,
}

# Rows whose outcome in a state is not the rule's: (state, row id, actor) -> outcome.
STATE_ROWS: dict[tuple[str, str, str], Outcome] = {}
EVERYONE = ACTORS
TEACHERS_OF_A = ("teacher_a", "co_teacher")


def _rows(state: str, row: str, actors: tuple[str, ...], outcome: Outcome) -> None:
    for actor in actors:
        STATE_ROWS[(state, row, actor)] = outcome


# An archived class: its forms send its teachers back to the class page, or show the
# "archived, read-only" error (200, nothing changed); its code lets nobody in any more.
for _row in ("GET classroom_roster", "GET classroom_import", "POST classroom_import"):
    _rows("archived", _row, TEACHERS_OF_A, R)
for _row in ("POST student_rename", "POST student_remove", "POST practice_assignment_new",
             "POST session_new"):  # fmt: skip
    _rows("archived", _row, TEACHERS_OF_A, P)
_rows("archived", "POST student_move", ("teacher_a",), P)
_rows("archived", "POST join", EVERYONE, P)  # "no class has this code"
for _row in ("GET join_name", "GET join_pin", "POST join_pin (wrong PIN)"):
    _rows("archived", _row, EVERYONE, N)
# A re-check asked for the pupil (the row's data) once they left class A, or for an archived
# class: the form's error, nothing changed (200).
for _state in ("moved", "archived", "erased"):
    _rows(_state, "POST warmup_recheck", TEACHERS_OF_A, P)
# The ENT matching screen's forms name the pupil (the row's data): once the pupil left class A
# the form's error shows (200, nothing changed). An archived class's links cannot change: its
# teachers are sent back with the error (302, as before the state).
for _state in ("moved", "pseudonymised", "erased"):
    for _row in ("POST ent_matching_link", "POST ent_matching_unlink"):
        _rows(_state, _row, TEACHERS_OF_A, P)
# The school admin gave class A's ENT class away: the pupils the link form names no longer wait
# there (the form's error, 200, nothing linked). The pupil's link gone, the unlink form names
# nobody linked (200). An archived class is no class to give an ENT class to (400).
_rows("ent_class_given", "POST ent_matching_link", TEACHERS_OF_A, P)
_rows("ent_unlinked", "POST ent_matching_unlink", TEACHERS_OF_A, P)
_rows("archived", "POST school_ent_class_give", ("school_admin",), Outcome.BAD_REQUEST)
# A watching teacher acts only on the seats of their own pupils (lessons.attempts.hooks): once
# student_a moved into another teacher's class, class A's co-teacher may still watch the table
# (their pupil student_a's classmate plays there) but neither hand student_a's seat to a robot
# nor pause the table (a pause stops student_a too): 403.
for _row in ("POST games:pause", "POST games:seat_bot (student_a's seat)"):
    _rows("moved", _row, ("co_teacher",), F)
# A pseudonymised or erased pupil's seats went to robots (lessons.school.erasure): a robot's
# seat is no one's to hand over (403, where it used to be a server error).
for _state in ("pseudonymised", "erased"):
    _rows(_state, "POST games:seat_bot (student_a's seat)", TEACHERS_OF_A, F)
# A pupil's own warm-up rounds move with them (their answers are their evidence): a moved
# pupil still opens and answers their own round.
OWN_WARMUP_ROWS = ("GET warmup_page", "POST warmup_begin", "POST warmup_answer",
                   "POST warmup_reason")  # fmt: skip
# A pseudonymised pupil's plays stay in the class's statistics under the pseudonym: the class's
# teachers still read that pupil's dashboard and report (no name, no sign-in, no PIN).
for _row in ("GET dashboard_student", "GET report_student", "GET report_student_pdf"):
    _rows("pseudonymised", _row, TEACHERS_OF_A, P)


def _targets_pupil(kwargs: dict[str, Any], a: Any) -> bool:
    return bool(kwargs.get("student_id") == a.student.student.pk)


def _in_class_a(kwargs: dict[str, Any], a: Any) -> bool:
    return bool(
        kwargs.get("classroom_id") == a.classroom.pk or kwargs.get("code") == a.classroom.join_code
    )


def expected_in_state(
    state: str, route: Route, actor: str, kwargs: dict[str, Any], a: Any, made: Made
) -> Outcome:
    """Return the outcome the actor must get at the row in the state."""
    base = route.expect[actor]
    if not made.happened:
        return base
    row = STATE_ROWS.get((state, route.id, actor))
    if row is not None:
        return row
    if state in SIGNED_OUT_BY:
        return route.expect["anonymous"] if actor in SIGNED_OUT_BY[state] else base
    if state == "ent_class_given":
        return base  # who takes an ENT class changes what a page shows, not who gets it
    if state == "ent_unlinked":
        # The link's ENT sign-in ended: the ENT-linked pupil is a visitor now; no one else
        # changes (student_a, the same account signed in with its class code, stays).
        return route.expect["anonymous"] if actor == "ent_pupil" else base
    if state == "ent_signed_out":
        # The ENT ended the ENT-linked actors' sessions: visitors now. Nobody else changes, not
        # even student_a, the ENT-linked pupil's own account signed in with its class code
        # (single sign-out ends the session its ticket opened, not every session of the user).
        return route.expect["anonymous"] if actor in ENT_TICKETS else base
    if state == "new_pin":
        # The pupil's account (student_a, and ent_pupil: the same account) is signed out;
        # nobody else changes.
        return route.expect["anonymous"] if actor in {"student_a", "ent_pupil"} else base
    if actor == "ent_pupil" and route.expect[actor] == route.expect["student_a"]:
        # The link follows the pupil's account: moved, archived, pseudonymised or erased (the
        # link erased with it), the ENT-linked pupil gets what student_a gets.
        return expected_in_state(state, route, "student_a", kwargs, a, made)
    if state == "co_teacher_removed":
        # A removed co-teacher is a teacher of no class: what the school admin (a teacher of
        # no class) gets, except on the school's own pages.
        if actor == "co_teacher" and not route.name.startswith("school_"):
            return route.expect["school_admin"]
        return base
    pupil_gone = state in {"pseudonymised", "erased"}
    if _targets_pupil(kwargs, a) and base in SERVED:
        if pupil_gone or (state == "moved" and _in_class_a(kwargs, a)):
            return N  # nobody reaches a removed pupil, nor a pupil in a class they left
        if state == "moved" and actor == "co_teacher":
            return N  # the co-teacher does not teach the pupil's new class
    if actor == "student_a":
        if state == "moved" and route.id in OWN_WARMUP_ROWS:
            return base
        if state == "moved" and route.name.startswith("games:"):
            return base  # the seat at a table stays the pupil's (tables are not the class's)
        if state == "moved":
            return route.expect["student_b"]  # a pupil of another class now
        return route.expect["anonymous"]  # archived, pseudonymised, erased: signed out
    return base


# --- Deactivation and password change (issue 32's acceptance): every link signs them out. ---
# Kept in one block (and one lookup in expected_in_state and in matrix.py's
# expected_live) so that it merges with the matrices' other changes.


def _ended_teachers(a: Any) -> list[User]:
    # Class A's own teacher and the ENT-linked teacher (whose ENT sign-in ends the same way).
    return [
        User.objects.get(pk=a.teacher.pk),
        User.objects.get(pk=extra_actor("ent_teacher", a).pk),
    ]


def _deactivated(a: Any, b: Any, co_teacher: User) -> Made:
    # The school admin deactivates them: no page, socket or stream of theirs answers any more.
    admin = extra_actor("school_admin", a)
    for teacher in _ended_teachers(a):
        teacher_set_active(admin=admin, teacher=teacher, active=False)
    return Made(True)


def _password_changed(a: Any, b: Any, co_teacher: User) -> Made:
    # They change their password on another device: the sign-ins made before end.
    for teacher in _ended_teachers(a):
        teacher.set_password("another password, 2026")
        teacher.save(update_fields=["password"])
        other_sign_ins_end(user=teacher)
    return Made(True)


# The actors each state signs out (visitors from then on, on every link); nobody else changes.
SIGNED_OUT_BY: dict[str, tuple[str, ...]] = {
    "deactivated": ("teacher_a", "ent_teacher"),
    "password_changed": ("teacher_a", "ent_teacher"),
}
STATES["deactivated"] = _deactivated
STATES["password_changed"] = _password_changed
