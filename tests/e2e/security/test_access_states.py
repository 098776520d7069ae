"""The authorisation matrix after each change of a class's life: every role × URL row again
after a pupil's move, the class's archive, the pupil's pseudonymisation and erasure, and the
co-teacher's removal (tests/e2e/security/access_states.py says what each row must answer).

One test per state and row, in savepoints: the row's targets and the state are made afresh
for each POST actor, once for all the actors of a GET (a read changes nothing).
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from lessons.ent.tickets import single_sign_out
from lessons.models import EntIdentity, EntSignIn
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import (
    ACTORS,
    ENT_TICKETS,
    Route,
    extra_actor,
    signed_in_client,
)
from tests.e2e.security.access_states import STATES, expected_in_state
from tests.e2e.security.test_access_matrix import ALL_ROUTES, _assert_outcome

pytestmark = pytest.mark.django_db


def _answers(
    state: str, route: Route, actors: tuple[str, ...], a: ClassWorld, b: ClassWorld
) -> list[str]:
    """Sign the actors in, make the row's targets, then the state; return each wrong answer."""
    clients = {actor: signed_in_client(actor, a, b) for actor in actors}
    kwargs = route.kwargs(a, b)
    data = route.data(a, b)
    made = STATES[state](a, b, extra_actor("co_teacher", a))
    url = reverse(route.name, kwargs=kwargs)
    wrong = []
    for actor, client in clients.items():
        send = client.post if route.method == "post" else client.get
        response = send(url, data, **route.send_options())
        expected = expected_in_state(state, route, actor, kwargs, a, made)
        try:
            _assert_outcome(response, expected)
        except AssertionError:
            where = response.get("Location", "")
            wrong.append(f"{actor}: {response.status_code} {where} (expected {expected})")
    return wrong


@pytest.mark.parametrize("route", ALL_ROUTES, ids=lambda route: route.id)
@pytest.mark.parametrize("state", list(STATES))
def test_every_actor_gets_the_rows_outcome_after_the_state_change(
    state: str, route: Route, class_a: ClassWorld, class_b: ClassWorld
) -> None:
    # A GET changes nothing (reads never write), so its actors share one making of the state;
    # a POST may change it, so each actor's POST gets the row and the state afresh.
    groups = [ACTORS] if route.method == "get" else [(actor,) for actor in ACTORS]
    wrong: list[str] = []
    for actors in groups:
        with transaction.atomic():
            wrong += _answers(state, route, actors, class_a, class_b)
            transaction.set_rollback(True)
    assert not wrong, wrong


def test_the_erased_ent_pupil_leaves_no_link_and_no_ent_sign_in(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    # The premise of the "erased" rows for ent_pupil: signed out, and the ENT account no longer
    # leads to the pupil (an erased pupil is gone from every store).
    client = signed_in_client("ent_pupil", class_a, class_b)
    user_id = class_a.student.user.pk
    assert EntIdentity.objects.filter(user_id=user_id).exists()
    STATES["erased"](class_a, class_b, extra_actor("co_teacher", class_a))
    assert not EntIdentity.objects.filter(user_id=user_id).exists()
    assert not EntSignIn.objects.filter(user_id=user_id).exists()
    assert not single_sign_out(ENT_TICKETS["ent_pupil"])  # no session left for the ENT to end
    assert client.get(reverse("home")).wsgi_request.user.is_anonymous
