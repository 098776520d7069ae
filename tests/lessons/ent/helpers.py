"""Make ENT connectors, seen ENT pupils and links for the pupils' side's tests."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from lessons.ent.presets import PRESETS
from lessons.ent.profile import EntProfile
from lessons.home.ent_pupils import sign_in_pupil
from lessons.models import EntConnector, EntIdentity, EntSeenPupil, Student


def make_connector(*, name: str = "ENT de test", preset: str = "edifice") -> EntConnector:
    """Create an enabled connector with a preset's attribute names."""
    return EntConnector.objects.create(
        name=name, server_url="https://ent.example/cas/", preset=preset, **PRESETS[preset]
    )


def make_seen(
    connector: EntConnector, external_id: str, name: str, classes: list[str]
) -> EntSeenPupil:
    """Record an ENT pupil seen but not linked."""
    return EntSeenPupil.objects.create(
        connector=connector, external_id=external_id, display_name=name, classes=classes
    )


def make_link(connector: EntConnector, external_id: str, student: Student) -> EntIdentity:
    """Link a pupil to an ENT account directly (what the matching screen does, unchecked)."""
    return EntIdentity.objects.create(
        connector=connector, external_id=external_id, user=student.user
    )


def pupil_profile(external_id: str, name: str, classes: tuple[str, ...] = ()) -> EntProfile:
    """Return what a validated CAS answer says of a pupil."""
    return EntProfile(
        external_id=external_id,
        display_name=name,
        role="pupil",
        classes=classes,
        schools=("0123456X",),
    )


def pupil_sign_in(connector: EntConnector, profile: EntProfile) -> tuple[HttpResponse, HttpRequest]:
    """Run the pupil's side of the callback on a fresh request, as ent_callback does."""
    request = RequestFactory().get("/ent/callback/")
    SessionMiddleware(lambda r: HttpResponse()).process_request(request)
    MessageMiddleware(lambda r: HttpResponse()).process_request(request)
    request.user = AnonymousUser()
    identity = (
        EntIdentity.objects.select_related("user")
        .filter(connector=connector, external_id=profile.external_id)
        .first()
    )
    response = sign_in_pupil(request, connector=connector, profile=profile, identity=identity)
    return response, request
