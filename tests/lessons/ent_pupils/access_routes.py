"""Rows of the authorisation matrix for a class's ENT matching screen (issue 24, pupils).

Only the class's teachers and co-teachers reach it; another teacher gets 404, pupils 403,
visitors the sign-in page. The rows' data link, unlink and name ENT classes for real, so the
states (a pupil moved or removed, the class archived) meet the forms' checks.
"""

from __future__ import annotations

from typing import Any

from lessons.ent.presets import PRESETS
from lessons.models import EntConnector, EntIdentity, EntSeenPupil
from tests.e2e.security.access_matrix import TEACHER_OF_A, F, L, N, R, Route, outcomes

TEACHER_OF_A_POST = outcomes(L, F, F, R, N)


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _connector() -> EntConnector:
    connector, _created = EntConnector.objects.get_or_create(
        name="ENT matrice",
        defaults={"server_url": "https://ent.example/cas/", **PRESETS["edifice"]},
    )
    return connector


def _link_data(a: Any, b: Any) -> dict[str, Any]:
    seen, _created = EntSeenPupil.objects.get_or_create(
        connector=_connector(),
        external_id="matrix-seen",
        defaults={"display_name": "DUPONT Anaïs", "classes": [a.classroom.name]},
    )
    pupil = a.student.student.pk
    return {"rows": str(seen.pk), f"link_{seen.pk}": "on", f"pupil_{seen.pk}": pupil}


def _unlink_data(a: Any, b: Any) -> dict[str, Any]:
    # The ent_pupil actor's own link, when it is the one signed in, is the pupil's link.
    EntIdentity.objects.get_or_create(
        user=a.student.user, defaults={"connector": _connector(), "external_id": "matrix-linked"}
    )
    return {"student": a.student.student.pk}


ROUTES: list[Route] = [
    Route("ent_matching", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "ent_matching_link", TEACHER_OF_A_POST, method="post", kwargs=_classroom, data=_link_data
    ),
    Route(
        "ent_matching_unlink",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=_unlink_data,
    ),
    Route(
        "ent_matching_classes",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"names": []},
    ),
]
