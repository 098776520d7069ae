"""Every actor against every URL: the page, a redirect, 403 or 404, never class A's data."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import cast

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

import tests
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import (
    ACTORS,
    ROUTES,
    Outcome,
    Route,
    signed_in_client,
)
from tests.support.responses import page_text

# Names that are not pages of the product (Django's own i18n JavaScript catalogue is unused).
NOT_PAGES = {
    "javascript-catalog",
    "json-catalog",
    # The live links' POSTed frames: their matrix is the sockets' own, on all three transports
    # and after each state change (test_websocket_matrix.py, test_websocket_states.py).
    "games:frames",
    "session_frames",
}


def _collected_routes() -> list[Route]:
    routes = list(ROUTES)
    for module in pkgutil.walk_packages([str(Path(tests.__file__).parent)], prefix="tests."):
        if module.name.endswith(".access_routes"):
            routes.extend(importlib.import_module(module.name).ROUTES)
    return routes


ALL_ROUTES = _collected_routes()


def _url_names(resolver: URLResolver, namespace: str = "") -> set[str]:
    names: set[str] = set()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= _url_names(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(f"{namespace}{entry.name}")
    return names


def test_every_named_url_has_a_row_in_the_matrix() -> None:
    covered = {route.name for route in ALL_ROUTES}
    missing = _url_names(get_resolver()) - covered - NOT_PAGES
    assert not missing, (
        f"URL names without a row in the authorisation matrix: {sorted(missing)}. "
        "Add Route rows to tests/<package>/access_routes.py "
        "(see tests/e2e/security/access_matrix.py)."
    )


def _client_for(actor: str, class_a: ClassWorld, class_b: ClassWorld) -> Client:
    return cast(Client, signed_in_client(actor, class_a, class_b))


def _class_a_markers(class_a: ClassWorld) -> list[str]:
    return [
        class_a.classroom.join_code,
        class_a.student.student.display_name,
        class_a.other_student.student.display_name,
        class_a.classroom.name,
    ]


def _assert_outcome(response, expected: Outcome) -> None:  # type: ignore[no-untyped-def]
    status = response.status_code
    login_url = reverse("login")
    if expected is Outcome.OK:
        assert status == 200
    elif expected is Outcome.LOGIN:
        assert status == 302 and response["Location"].startswith(login_url + "?next=")
    elif expected is Outcome.REDIRECT:
        assert status == 302 and not response["Location"].startswith(login_url)
    elif expected is Outcome.FORBIDDEN:
        assert status == 403
    elif expected is Outcome.NOT_FOUND:
        assert status == 404
    elif expected is Outcome.BAD_REQUEST:
        assert status == 400
    else:
        assert status == 405


@pytest.mark.django_db
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("route", ALL_ROUTES, ids=lambda route: route.id)
def test_actor_gets_the_expected_outcome_and_no_other_class_data(
    route: Route, actor: str, class_a: ClassWorld, class_b: ClassWorld
) -> None:
    client = _client_for(actor, class_a, class_b)
    url = reverse(route.name, kwargs=route.kwargs(class_a, class_b))
    send = client.post if route.method == "post" else client.get
    response = send(url, route.data(class_a, class_b), **route.send_options())
    _assert_outcome(response, route.expect[actor])
    may_see_class_a = (
        actor in {"teacher_a", "co_teacher", "student_a", "ent_pupil"}
        or route.shows_class_a_to_anyone
    )
    # The page may echo the requested URL (language switcher); that is not class data.
    # A PDF is compressed: its text cannot be searched here (tests/lessons/reporting/test_pdf.py
    # checks what goes into it).
    is_text = not response.get("Content-Type", "").startswith("application/pdf")
    if response.status_code == 200 and not may_see_class_a and is_text:
        text = page_text(response).replace(url, "")
        for marker in _class_a_markers(class_a):
            assert marker not in text, f"{actor} saw {marker!r} of class A at {url}"
    if response.status_code in {403, 404} or route.expect[actor] is Outcome.LOGIN:
        text = page_text(response).replace(url, "") if response.status_code != 302 else ""
        for marker in _class_a_markers(class_a):
            assert marker not in text


@pytest.mark.django_db
def test_student_a_home_shows_only_their_own_class(class_a: ClassWorld, class_b: ClassWorld):
    text = page_text(_client_for("student_a", class_a, class_b).get(reverse("home")))
    assert class_a.classroom.name in text
    assert class_b.classroom.name not in text
    assert class_a.other_student.student.display_name not in text
    assert class_a.classroom.join_code not in text
