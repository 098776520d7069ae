"""Unlinking a pupil's ENT account ends what the link opened (issue 32 §2, the ENT-link state):
a pupil signed in through the ENT, then unlinked by the teacher from the matching screen (a
wrong link, say), is signed out; the same pupil signed in with the class code stays in.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from games.realtime.signout import SIGNED_OUT_MESSAGE, user_group
from lessons.ent.links import pupil_unlink, seen_link
from lessons.models import EntConnector, EntIdentity, EntSeenPupil, EntSignIn
from tests.lessons.ent.conftest import make_connector
from tests.lessons.ent.flow import ent_sign_in, signed_in_user_id
from tests.support.cas.server import CasServer
from tests.support.factories import make_classroom, make_students, make_teacher, signed_in_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def test_an_unlinked_pupils_ent_sign_in_ends_and_a_pin_sign_in_stays(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher, name="CM2 A")
    student = make_students(classroom=classroom, names=["Léa Martin"])[0].student
    ent_sign_in(cas, Client(), edifice, "eleve.edifice")
    seen_link(classroom=classroom, choices={EntSeenPupil.objects.get().pk: student}, by=teacher)
    through_ent = Client()
    ent_sign_in(cas, through_ent, edifice, "eleve.edifice")
    assert signed_in_user_id(through_ent) == student.user_id
    with_pin = signed_in_client(student.user)  # the class code and PIN, another device

    unlinked = signed_in_client(teacher, "en").post(
        reverse("ent_matching_unlink", args=[classroom.pk]), {"student": student.pk}
    )
    assert unlinked.status_code == 302
    assert signed_in_user_id(through_ent) is None
    assert through_ent.get(reverse("home")).wsgi_request.user.is_anonymous
    assert signed_in_user_id(with_pin) == student.user_id


@pytest.mark.django_db
def test_unlinking_tells_the_links_of_the_ent_sessions_only(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """The sign-out message names the ENT sign-in's session: a PIN sign-in's links stay."""
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher, name="CM2 A")
    student = make_students(classroom=classroom, names=["Léa Martin"])[0].student
    connector = make_connector("https://127.0.0.1:8443/cas/", "edifice")
    EntIdentity.objects.create(connector=connector, external_id="ent-lea", user=student.user)
    EntSignIn.objects.create(
        connector=connector, ticket_hash="a" * 64, user=student.user, session_key="ent-session"
    )
    layer = get_channel_layer()
    assert layer is not None
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(student.user_id), channel)
    with django_capture_on_commit_callbacks(execute=True):
        pupil_unlink(classroom=classroom, student=student, by=teacher)
    told = async_to_sync(layer.receive)(channel)
    assert told == {"type": SIGNED_OUT_MESSAGE, "session_key": "ent-session"}
