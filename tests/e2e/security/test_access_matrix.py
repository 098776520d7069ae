"""The security matrix over the http link: every actor against every URL row, as the class is
made and after each change of its life (tests/e2e/security/matrix.py holds the table): the
page, a redirect, 403 or 404, never class A's data.

Classes A and B are made once per module and worker, in a transaction left open over the
module's tests (as Django's TestCase.setUpTestData): each test runs in a savepoint of it,
and each POST actor in a savepoint of that one (matrix.http_wrong_answers).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from lessons.ent.tickets import single_sign_out
from lessons.models import EntIdentity, EntSignIn
from tests.conftest import ClassWorld, _class_world
from tests.e2e.security.access_matrix import ACTORS, ENT_TICKETS, extra_actor
from tests.e2e.security.access_matrix import signed_in_client as _signed_in_client
from tests.e2e.security.access_states import STATES
from tests.e2e.security.matrix import (
    ALL_ROUTES,
    CASES,
    HTTP_CASES,
    LIVE_ROUTES,
    STATE_NAMES,
    Case,
    case_count,
    http_wrong_answers,
)
from tests.games.streams import TRANSPORTS
from tests.support.responses import page_text

__all__ = ["ALL_ROUTES", "_client_for"]

# Names that are not pages of the product (Django's own i18n JavaScript catalogue is unused).
NOT_PAGES = {
    "javascript-catalog",
    "json-catalog",
    # The live links' POSTed frames: their rows are the live routes' own, on all three links
    # and in every state (test_websocket_matrix.py).
    "games:frames",
    "session_frames",
}


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


def test_the_table_asks_every_actor_every_surface_in_every_state_over_its_links() -> None:
    # 161 URL rows over http and 3 live rows over their three links, in 12 states (as made and
    # 11 changes), each asked of 9 actors: 18,360 cases on 2026-12-03 (docs/testing.md).
    http = len(ALL_ROUTES) * len(STATE_NAMES)
    live = len(LIVE_ROUTES) * len(TRANSPORTS) * len(STATE_NAMES)
    assert len(HTTP_CASES) == http and len(CASES) == http + live
    assert case_count() == (http + live) * len(ACTORS)
    assert len({case.id for case in CASES}) == len(CASES)


def _client_for(actor: str, class_a: ClassWorld, class_b: ClassWorld) -> Client:
    return cast(Client, _signed_in_client(actor, class_a, class_b))


@pytest.fixture(scope="module")
def _made_once(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[tuple[ClassWorld, ClassWorld]]:
    """Make classes A and B and the extra actors once, in a transaction rolled back at the end."""
    blocker = django_db_blocker.unblock()
    with blocker, override_settings(PIN_HASH_ITERATIONS=1_000), transaction.atomic():
        worlds = (_class_world("A", "fr"), _class_world("B", "en"))
        # The extra teachers; the ENT-linked pupil's link is made by the tests that sign it in
        # (a link changes what the ENT matching forms answer class A's teachers).
        for actor in ("co_teacher", "school_admin", "ent_teacher"):
            extra_actor(actor, worlds[0])
        yield worlds
        transaction.set_rollback(True)


@pytest.fixture
def worlds(_made_once: tuple[ClassWorld, ClassWorld], db: None) -> tuple[ClassWorld, ClassWorld]:
    """Classes A and B, their objects copied for the test (its savepoint undoes the database)."""
    return copy.deepcopy(_made_once)


@pytest.mark.parametrize("case", HTTP_CASES, ids=lambda case: case.id)
def test_every_actor_gets_the_rows_outcome_and_no_other_class_data(
    case: Case, worlds: tuple[ClassWorld, ClassWorld]
) -> None:
    wrong = http_wrong_answers(case, *worlds)
    assert not wrong, wrong


def test_student_a_home_shows_only_their_own_class(
    worlds: tuple[ClassWorld, ClassWorld],
) -> None:
    class_a, class_b = worlds
    response = _client_for("student_a", class_a, class_b).get(reverse("home"))
    text = page_text(cast(HttpResponse, response))
    assert class_a.classroom.name in text
    assert class_b.classroom.name not in text
    assert class_a.other_student.student.display_name not in text
    assert class_a.classroom.join_code not in text


def test_the_erased_ent_pupil_leaves_no_link_and_no_ent_sign_in(
    worlds: tuple[ClassWorld, ClassWorld],
) -> None:
    # The premise of the "erased" rows for ent_pupil: signed out, and the ENT account no longer
    # leads to the pupil (an erased pupil is gone from every store).
    class_a, class_b = worlds
    client = _client_for("ent_pupil", class_a, class_b)
    user_id = class_a.student.user.pk
    assert EntIdentity.objects.filter(user_id=user_id).exists()
    STATES["erased"](class_a, class_b, extra_actor("co_teacher", class_a))
    assert not EntIdentity.objects.filter(user_id=user_id).exists()
    assert not EntSignIn.objects.filter(user_id=user_id).exists()
    assert not single_sign_out(ENT_TICKETS["ent_pupil"])  # no session left for the ENT to end
    assert client.get(reverse("home")).wsgi_request.user.is_anonymous
