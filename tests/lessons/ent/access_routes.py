"""Rows of the authorisation matrix for the ENT sign-in (CAS) and the school's ENT connectors.

The CAS flow's pages are everybody's: going to the ENT (a redirect to its server), a ticket the
server never confirms (403 for all: its server refuses connections), the ENT's single sign-out
(200 for all: it names no session here), the teacher's link page with no ENT sign-in pending
(403). The connectors, and which class takes each ENT class, are the school admin's only.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.security.access_matrix import MATRIX_CONNECTOR, F, L, N, P, R, Route, outcomes
from tests.e2e.security.access_matrix import Outcome as O

EVERYONE_REDIRECTED = outcomes(R, R, R, R, R)
EVERYONE_REFUSED = outcomes(F, F, F, F, F)
EVERYONE_OK = outcomes(P, P, P, P, P)
ONLY = {"co_teacher": F, "ent_teacher": F}
SCHOOL_ADMIN_PAGE = outcomes(L, F, F, F, F, school_admin=P, **ONLY)
SCHOOL_ADMIN_POST = outcomes(L, F, F, F, F, school_admin=R, **ONLY)
SCHOOL_ADMIN_BAD = outcomes(L, F, F, F, F, school_admin=O.BAD_REQUEST, **ONLY)

GOOD = {
    "name": "ENT école",
    "server_url": "https://ent.example.fr/cas/",
    "protocol": "2",
    "preset": "edifice",
    "enabled": "on",
}


def _connector_off(a: Any, b: Any) -> dict[str, Any]:
    # Off: the ticket is refused before it is claimed, so every actor's GET gets the same 403
    # (a forged ticket on an enabled connector: tests/lessons/ent/test_security.py).
    from lessons.models import EntConnector

    connector, _ = EntConnector.objects.get_or_create(
        name="ENT off",
        defaults={"server_url": "https://127.0.0.1:9/cas/", "enabled": False, **MATRIX_CONNECTOR},
    )
    return {"connector_id": connector.pk}


def _give_data(a: Any, b: Any) -> dict[str, Any]:
    # An ENT pupil seen in class A's ENT class, which the school admin gives to class A.
    from lessons.models import EntSeenPupil

    EntSeenPupil.objects.get_or_create(
        connector_id=_connector(a, b)["connector_id"],
        external_id="matrix-give",
        defaults={"display_name": "MARTIN Léa", "classes": [a.classroom.name]},
    )
    return {"name": a.classroom.name, "classroom": str(a.classroom.pk)}


def _connector(a: Any, b: Any) -> dict[str, Any]:
    from lessons.models import EntConnector

    connector, _ = EntConnector.objects.get_or_create(
        name="ENT routes",
        defaults={"server_url": "https://127.0.0.1:9/cas/", **MATRIX_CONNECTOR},
    )
    return {"connector_id": connector.pk}


ROUTES: list[Route] = [
    Route("ent_login", EVERYONE_REDIRECTED, kwargs=_connector),
    Route(
        "ent_callback",
        EVERYONE_REFUSED,
        kwargs=_connector_off,
        data=lambda a, b: {"ticket": "ST-1-any"},
        label="GET ent_callback (connector off)",
    ),
    Route(
        "ent_callback",
        outcomes(O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST),
        kwargs=_connector,
        label="GET ent_callback (no ticket)",
    ),
    Route(
        "ent_callback",
        EVERYONE_OK,
        method="post",
        kwargs=_connector,
        data=lambda a, b: {"logoutRequest": "<x/>"},
        label="POST ent_callback (single sign-out)",
    ),
    Route(
        "ent_logout",
        EVERYONE_OK,
        method="post",
        kwargs=_connector,
        data=lambda a, b: {"logoutRequest": "<x/>"},
    ),
    Route(
        "ent_logout",
        outcomes(O.NOT_ALLOWED, O.NOT_ALLOWED, O.NOT_ALLOWED, O.NOT_ALLOWED, O.NOT_ALLOWED),
        kwargs=_connector,
    ),
    Route(
        "ent_callback",
        outcomes(O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST, O.BAD_REQUEST),
        kwargs=_connector,
        data=lambda a, b: {"ticket": "ST-1-any", "state": "not-started-by-this-browser"},
        label="GET ent_callback (state another browser started)",
    ),
    Route("ent_link", EVERYONE_REFUSED),
    Route(
        "ent_link",
        EVERYONE_REFUSED,
        method="post",
        data=lambda a, b: {"username": "teacher_a", "password": "x", "confirm": "on"},
        label="POST ent_link (confirmed, nothing pending)",
    ),
    Route("ent_link", EVERYONE_REFUSED, method="post", data=lambda a, b: {"action": "create"}),
    Route("school_ent_new", SCHOOL_ADMIN_PAGE),
    Route("school_ent_new", SCHOOL_ADMIN_POST, method="post", data=lambda a, b: GOOD),
    Route(
        "school_ent_new",
        SCHOOL_ADMIN_BAD,
        method="post",
        data=lambda a, b: {**GOOD, "server_url": "http://ent.example.fr/cas/"},
        label="POST school_ent_new (http)",
    ),
    Route("school_ent_edit", SCHOOL_ADMIN_PAGE, kwargs=_connector),
    Route(
        "school_ent_edit",
        SCHOOL_ADMIN_POST,
        method="post",
        kwargs=_connector,
        data=lambda a, b: GOOD,
    ),
    Route(
        "school_ent_edit",
        outcomes(L, F, F, F, F, school_admin=N, **ONLY),
        kwargs=lambda a, b: {"connector_id": 999_999},
        label="GET school_ent_edit (unknown)",
    ),
    Route(
        "school_ent_enabled",
        SCHOOL_ADMIN_POST,
        method="post",
        kwargs=_connector,
        data=lambda a, b: {"enabled": "0"},
    ),
    Route("school_ent_classes", SCHOOL_ADMIN_PAGE),
    Route("school_ent_class_give", SCHOOL_ADMIN_POST, method="post", data=_give_data),
    Route(
        "school_ent_class_give",
        SCHOOL_ADMIN_BAD,
        method="post",
        data=lambda a, b: {"name": "never seen", "classroom": str(a.classroom.pk)},
        label="POST school_ent_class_give (unknown ENT class)",
    ),
]
