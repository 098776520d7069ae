"""A pupil's ENT sign-in: a linked pupil lands in their class, anyone else is asked to see
their teacher (and waits on the class's matching screen).

The CAS callback (lessons.home.ent_views.ent_callback) calls `sign_in_pupil` once the ticket is
validated and the ENT's role says "pupil".
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lessons.ent.links import link_is_stale
from lessons.ent.pages import ent_refusal
from lessons.ent.profile import EntProfile
from lessons.ent.pupils import seen_record
from lessons.home.landing import student_land
from lessons.models import EntConnector, EntIdentity, Student


def _linked_student(identity: EntIdentity) -> Student | None:
    """Return the linked pupil if they can sign in now (present, in a class still in use)."""
    if link_is_stale(identity):
        return None
    return Student.objects.select_related("user", "classroom").get(user_id=identity.user_id)


def sign_in_pupil(
    request: HttpRequest,
    *,
    connector: EntConnector,
    profile: EntProfile,
    identity: EntIdentity | None,
) -> HttpResponse:
    """Sign a linked pupil in and send them to their class; else show "ask your teacher".

    The page says nothing of classes or other pupils. A link whose pupil has gone (their class
    archived at the year's end, or removed) counts as none: the pupil waits for the new class's
    teacher, who links them again.
    """
    if identity is not None and not identity.user.is_student:
        return ent_refusal(request, "wrong_role", connector)
    student = _linked_student(identity) if identity is not None else None
    if student is None:
        seen_record(connector, profile)
        return render(request, "ent/ask_teacher.html", {"connector": connector})
    return student_land(request, student)
