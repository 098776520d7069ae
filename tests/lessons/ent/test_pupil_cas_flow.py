"""A pupil's ENT sign-in through the real CAS server (both shapes): unmatched, they wait; matched
by the teacher, they land in their class, and join its session in progress, without code or PIN.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lessons.ent.links import seen_link
from lessons.models import EntConnector, EntIdentity, EntSeenPupil, SessionMember
from lessons.sessions.services import session_start
from tests.lessons.ent.flow import ent_sign_in, signed_in_user_id
from tests.support.cas.server import CasServer
from tests.support.factories import make_classroom, make_students, make_teacher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.mark.parametrize(
    ("shape", "username", "class_name", "roster", "ent_name", "ent_id", "pupil"),
    [
        ("edifice", "eleve.edifice", "CM2 A", ["Léa M.", "Zoé"], "Léa Martin", "EDI-P-0002", 0),
        ("gar", "eleve.gar", "3A", ["Inès", "Hugo"], "Hugo", "GAR-elv-0004", 1),
    ],
)
def test_a_pupil_waits_then_lands_in_the_class_and_its_session(  # noqa: PLR0913
    cas: CasServer,
    request: pytest.FixtureRequest,
    shape: str,
    username: str,
    class_name: str,
    roster: list[str],
    ent_name: str,
    ent_id: str,
    pupil: int,
) -> None:
    connector: EntConnector = request.getfixturevalue(shape)
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher, name=class_name)
    student = make_students(classroom=classroom, names=roster)[pupil].student

    client = Client()
    waiting = ent_sign_in(cas, client, connector, username)
    assert waiting.status_code == 200 and signed_in_user_id(client) is None
    assert "Demande à ton enseignant" in waiting.content.decode()
    seen = EntSeenPupil.objects.get()
    assert (seen.external_id, seen.display_name, seen.connector) == (ent_id, ent_name, connector)

    seen_link(classroom=classroom, choices={seen.pk: student}, by=teacher)
    session = session_start(teacher=teacher, classroom=classroom)
    later = Client()
    landed = ent_sign_in(cas, later, connector, username)
    assert landed.status_code == 302 and landed["Location"] == reverse("home")
    assert signed_in_user_id(later) == student.user_id
    assert SessionMember.objects.filter(session=session, student=student).exists()
    assert later.cookies["django_language"].value == classroom.language
    assert EntIdentity.objects.get().external_id == ent_id
    assert not EntSeenPupil.objects.exists()


def test_a_pupil_of_another_school_on_the_same_ent_is_refused_before_waiting(
    cas: CasServer, edifice: EntConnector
) -> None:
    EntConnector.objects.filter(pk=edifice.pk).update(school_uai="0000000X")
    response = ent_sign_in(cas, Client(), edifice, "eleve.edifice")
    assert response.status_code == 403
    assert not EntSeenPupil.objects.exists()  # nothing kept of a pupil of another school
