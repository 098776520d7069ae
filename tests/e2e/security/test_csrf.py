"""CSRF on every form: each POST route of the authorisation matrix, and every form found on a
page of the matrix, refuses a POST without the token (403) for an actor it would serve."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import ACTORS, Outcome, Route, actor_user
from tests.e2e.security.test_access_matrix import ALL_ROUTES

pytestmark = pytest.mark.django_db

SERVED = {Outcome.OK, Outcome.REDIRECT}
# Server-to-server POSTs from an ENT's CAS server (its single sign-out): no browser, no token.
# A logoutRequest only ends the session its own ticket opened (tests/lessons/ent/test_security.py).
CSRF_EXEMPT_BY_DESIGN = {"ent_callback", "ent_logout"}
# POST rows that nobody is served by are refusals of the method itself (405), not forms.
POST_ROUTES = [
    route
    for route in ALL_ROUTES
    if route.method == "post"
    and any(route.expect[a] in SERVED for a in ACTORS)
    and route.name not in CSRF_EXEMPT_BY_DESIGN
]
PAGE_ROUTES = [route for route in ALL_ROUTES if route.method == "get"]
FORM = re.compile(r"<form\b([^>]*)>", re.IGNORECASE)


def _actor_served(route: Route) -> str | None:
    return next((actor for actor in ACTORS if route.expect[actor] in SERVED), None)


def _client(actor: str, a: ClassWorld, b: ClassWorld, *, enforce: bool) -> Client:
    client = Client(enforce_csrf_checks=enforce)
    user = actor_user(actor, a, b)
    if user is not None:
        client.force_login(user)
    return client


def test_the_matrix_has_post_routes() -> None:
    assert len(POST_ROUTES) >= 10


def _csrf_exempt_names(patterns: list[Any]) -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= _csrf_exempt_names(pattern.url_patterns)
        elif getattr(pattern.callback, "csrf_exempt", False):
            names.add(str(pattern.name))
    return names


def test_only_the_ent_servers_posts_skip_the_token() -> None:
    assert _csrf_exempt_names(get_resolver().url_patterns) == CSRF_EXEMPT_BY_DESIGN


@pytest.mark.parametrize("route", POST_ROUTES, ids=lambda route: route.id)
def test_post_without_csrf_token_is_refused(route: Route, class_a, class_b) -> None:  # type: ignore[no-untyped-def]
    actor = _actor_served(route)
    assert actor is not None, f"no actor is served by {route.id}"
    url = reverse(route.name, kwargs=route.kwargs(class_a, class_b))
    refused = _client(actor, class_a, class_b, enforce=True).post(url, route.data(class_a, class_b))
    assert refused.status_code == 403, f"{route.id} as {actor}: {refused.status_code}"


def _post_forms(html: str) -> list[str]:
    """Return the action of every POST form of a page ('' = the page itself)."""
    actions = []
    for attributes in FORM.findall(html):
        if re.search(r'method\s*=\s*"?post', attributes, re.IGNORECASE):
            action = re.search(r'action\s*=\s*"([^"]*)"', attributes)
            actions.append(unescape(action.group(1)) if action else "")
    return actions


def _check_forms_of(route: Route, class_a: ClassWorld, class_b: ClassWorld) -> list[str]:
    checked = []
    url = reverse(route.name, kwargs=route.kwargs(class_a, class_b))
    for actor in ACTORS:
        if route.expect[actor] is not Outcome.OK:
            continue
        client = _client(actor, class_a, class_b, enforce=True)
        page = client.get(url)
        assert page.status_code == 200, f"{url} as {actor}"
        if page.streaming or not page["Content-Type"].startswith("text/html"):
            continue  # an export (CSV, PDF): no form
        html = page.content.decode()
        for action in _post_forms(html):
            target = action or url
            assert target.startswith("/"), f"form on {url} posts off-site: {target}"
            response = client.post(target, {"anything": "x"})
            assert response.status_code == 403, f"form {target} on {url} as {actor}"
            checked.append(f"{actor} {target}")
        if _post_forms(html):
            assert 'name="csrfmiddlewaretoken"' in html, url
    return checked


def test_every_form_on_every_page_requires_the_token(class_a, class_b) -> None:  # type: ignore[no-untyped-def]
    checked: list[str] = []
    for route in PAGE_ROUTES:
        # Each route's objects are made afresh (a class has one open session at a time).
        with transaction.atomic():
            checked += _check_forms_of(route, class_a, class_b)
            transaction.set_rollback(True)
    # The language switcher, sign-in, join, roster, cards, practice, session forms...
    assert len(checked) >= 20, checked


@pytest.mark.parametrize(
    ("language", "title", "advice"),
    [
        ("en", "This form has expired", "Go back, reload the page and try again."),
        ("fr", "Ce formulaire a expiré", "Revenez en arrière, rechargez la page et réessayez."),
    ],
)
def test_a_refused_post_gets_the_sites_translated_page(
    class_a: ClassWorld, language: str, title: str, advice: str
) -> None:
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(class_a.teacher)
    refused = client.post(
        reverse("classroom_roster", args=[class_a.classroom.pk]), {"names": "Zoé"}
    )
    assert refused.status_code == 403
    html = refused.content.decode()
    assert title in html and advice in html
    assert "css/app.css" in html  # the site's own layout and stylesheet
    assert "CSRF verification failed" not in html and "Forbidden" not in html
    assert not class_a.classroom.students.filter(display_name="Zoé").exists()
