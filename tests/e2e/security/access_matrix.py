"""The authorisation matrix: who gets what on every URL of the project.

Each Route names a URL, how to build its arguments from two classrooms (A and B), and what each
of the actors (ACTORS) gets. Targets always belong to class A, so class B's people must never see
class A's data. Other apps add their rows in `tests/<their package>/access_routes.py`, as a
module-level `ROUTES: list[Route]`; tests/e2e/security/matrix.py collects them into the one
table (with the live routes) and test_access_matrix.py fails on any URL name that has no row.
Every row also runs after each change of the class's life (a pupil moved, the class archived,
the pupil pseudonymised or erased, the co-teacher removed...): access_states.py says what each
row answers then.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ACTORS = (
    "anonymous",
    "student_a",
    "student_b",
    "teacher_a",
    "teacher_b",
    # A colleague who co-teaches class A; a school admin who teaches no class (issue 12).
    "co_teacher",
    "school_admin",
    # A teacher of no class who signs in through the school's ENT (issue 24): the link to the
    # ENT gives no right of its own.
    "ent_teacher",
    # Class A's pupil (student_a's own account) linked to an ENT account and signed in through
    # the ENT: the link gives a pupil no right of its own and takes none away.
    "ent_pupil",
)


class Outcome(enum.Enum):
    """What an actor may get back from a URL."""

    OK = "200 page"
    REDIRECT = "302 elsewhere than sign-in"
    LOGIN = "302 to the sign-in page"
    FORBIDDEN = "403"
    NOT_FOUND = "404"
    NOT_ALLOWED = "405"
    BAD_REQUEST = "400"


# Short names keep each expectation row on one line: Page, Redirect, Login, Forbidden, Not found.
P, R, L, F, N = Outcome.OK, Outcome.REDIRECT, Outcome.LOGIN, Outcome.FORBIDDEN, Outcome.NOT_FOUND


def outcomes(anonymous: Outcome, student_a: Outcome, student_b: Outcome, teacher_a: Outcome,
             teacher_b: Outcome, *, co_teacher: Outcome | None = None,
             school_admin: Outcome | None = None,
             ent_teacher: Outcome | None = None,
             ent_pupil: Outcome | None = None) -> dict[str, Outcome]:  # fmt: skip
    """Return an expectation row in ACTORS order.

    A co-teacher gets what class A's owner gets, the school admin what another teacher gets,
    the ENT-linked teacher (of no class) what the school admin gets, and the ENT-linked pupil
    what student_a (the same pupil signed in with the class code) gets, unless the row says
    otherwise (the school's own pages say F for the ENT-linked teacher).
    """
    row = (anonymous, student_a, student_b, teacher_a, teacher_b,
           co_teacher or teacher_a, school_admin or teacher_b,
           ent_teacher or school_admin or teacher_b, ent_pupil or student_a)  # fmt: skip
    return dict(zip(ACTORS, row, strict=True))


# The tickets of the ENT-linked actors' sign-ins: the access states end both sessions by single
# sign-out.
ENT_TICKETS = {"ent_teacher": "ST-matrix-ent-teacher", "ent_pupil": "ST-matrix-ent-pupil"}
EXTRA_ACTORS = ("co_teacher", "school_admin", "ent_teacher", "ent_pupil")


def _matrix_ent() -> Any:
    from lessons.models import EntConnector

    connector, _ = EntConnector.objects.get_or_create(
        name="ENT matrix",
        defaults={"server_url": "https://127.0.0.1:9/cas/", **MATRIX_CONNECTOR},
    )
    return connector


def _ent_pupil(class_a: Any) -> Any:
    """Link student_a's account to an ENT account, as the class's teacher would have, once.

    Written directly (not by lessons.ent.links.pupils_link): some rows archive class A before
    the actor signs in, and an archived class's links cannot change.
    """
    from lessons.models import EntIdentity

    user = class_a.student.user
    EntIdentity.objects.get_or_create(
        user=user,
        defaults={
            "connector": _matrix_ent(),
            "external_id": "EDI-matrix-pupil",
            "linked_by": class_a.teacher,
        },
    )
    return user


def extra_actor(actor: str, class_a: Any) -> Any:
    """Return the user of one of EXTRA_ACTORS, made (or linked) on first use."""
    from lessons.models import EntIdentity, User
    from tests.support.factories import make_teacher

    if actor == "ent_pupil":
        return _ent_pupil(class_a)
    username = f"matrix_{actor}"
    user = User.objects.filter(username=username).first() or make_teacher(username=username)
    if actor == "co_teacher":
        class_a.classroom.co_teachers.add(user)
    elif actor == "ent_teacher":
        EntIdentity.objects.get_or_create(
            user=user, defaults={"connector": _matrix_ent(), "external_id": "EDI-matrix"}
        )
    else:
        User.objects.filter(pk=user.pk).update(is_staff=True)
        user.refresh_from_db()
    return user


def actor_user(actor: str, class_a: Any, class_b: Any) -> Any:
    """Return the actor's user (None for the visitor)."""
    if actor in EXTRA_ACTORS:
        return extra_actor(actor, class_a)
    return {
        "anonymous": None,
        "student_a": class_a.student.user,
        "student_b": class_b.student.user,
        "teacher_a": class_a.teacher,
        "teacher_b": class_b.teacher,
    }[actor]


def _matrix_connector() -> dict[str, Any]:
    from lessons.ent.presets import PRESETS

    return dict(PRESETS["edifice"])


# The names and roles of a connector whose server refuses every connection (127.0.0.1:9).
MATRIX_CONNECTOR = _matrix_connector()


def ent_sign_in_record(actor: str, user: Any, session_key: str) -> None:
    """Map the ENT actor's ticket to its session, as its ENT sign-in would have (no-op for the
    other actors)."""
    from lessons.ent.tickets import ticket_hash
    from lessons.models import EntSignIn

    if actor not in ENT_TICKETS:
        return
    EntSignIn.objects.update_or_create(
        ticket_hash=ticket_hash(ENT_TICKETS[actor]),
        defaults={
            "connector": user.ent_identity.connector,
            "user": user,
            "session_key": session_key,
        },
    )


def signed_in_client(actor: str, class_a: Any, class_b: Any) -> Any:
    """Return a French test client signed in as the actor (through the ENT for its actors)."""
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    user = actor_user(actor, class_a, class_b)
    if user is not None:
        client.force_login(user)
        ent_sign_in_record(actor, user, str(client.session.session_key))
    return client


PUBLIC = outcomes(P, P, P, P, P)
TEACHER_ANY = outcomes(L, F, F, P, P)
TEACHER_OF_A = outcomes(L, F, F, P, N)
TEACHER_OF_A_ACTION = outcomes(L, F, F, R, N)
VISITOR_ONLY = outcomes(P, R, R, R, R)


@dataclass(frozen=True)
class Route:
    """One URL with one method, and the outcome each actor must get."""

    name: str
    expect: dict[str, Outcome]
    method: str = "get"
    # Builds reverse() kwargs from the two worlds (class_a, class_b); may create objects.
    kwargs: Callable[[Any, Any], dict[str, Any]] = lambda a, b: {}
    data: Callable[[Any, Any], dict[str, Any]] = lambda a, b: {}
    # A JSON body (the data as JSON) instead of a form, for URLs that read JSON.
    json_body: bool = False
    # Public-by-design pages may show class A's names to whoever has the join code.
    shows_class_a_to_anyone: bool = False
    label: str = field(default="")

    @property
    def id(self) -> str:
        """Return a readable test id."""
        return self.label or f"{self.method.upper()} {self.name}"

    def send_options(self) -> dict[str, Any]:
        """Return the test client's extra arguments for this row's body."""
        return {"content_type": "application/json"} if self.json_body else {}


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _student(a: Any, b: Any) -> dict[str, Any]:
    return {"student_id": a.student.student.pk}


ROUTES: list[Route] = [
    Route("home", PUBLIC),
    Route("signup", VISITOR_ONLY),
    Route("login", VISITOR_ONLY),
    Route("logout", outcomes(R, R, R, R, R), method="post"),
    Route("password_change", TEACHER_ANY),
    Route("password_change_done", TEACHER_ANY),
    Route("classroom_create", TEACHER_ANY),
    Route(
        "classroom_create",
        outcomes(L, F, F, R, R),
        method="post",
        data=lambda a, b: {"name": "Nouvelle", "grade": "CM1", "language": "fr"},
    ),
    Route("classroom_detail", TEACHER_OF_A, kwargs=_classroom),
    Route("classroom_roster", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "classroom_roster",
        TEACHER_OF_A_ACTION,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"names": "Capucine"},
    ),
    Route("classroom_cards", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "classroom_cards",
        TEACHER_OF_A_ACTION,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"action": "reset"},
    ),
    Route("student_reset_pin", TEACHER_OF_A_ACTION, method="post", kwargs=_student),
    Route("student_unlock", TEACHER_OF_A_ACTION, method="post", kwargs=_student),
    Route("join", PUBLIC),
    Route(
        "join",
        outcomes(R, R, R, R, R),
        method="post",
        data=lambda a, b: {"code": a.classroom.join_code},
        shows_class_a_to_anyone=True,
    ),
    Route(
        "join_name",
        PUBLIC,
        kwargs=lambda a, b: {"code": a.classroom.join_code},
        shows_class_a_to_anyone=True,
    ),
    Route(
        "join_pin",
        PUBLIC,
        kwargs=lambda a, b: {"code": a.classroom.join_code, "student_id": a.student.student.pk},
        shows_class_a_to_anyone=True,
    ),
    Route(
        "join_pin",
        outcomes(P, P, P, P, P),
        method="post",
        kwargs=lambda a, b: {"code": a.classroom.join_code, "student_id": a.student.student.pk},
        data=lambda a, b: {"pin": "0000" if a.student.pin != "0000" else "1111"},
        shows_class_a_to_anyone=True,
        label="POST join_pin (wrong PIN)",
    ),
    Route(
        "join_pin",
        outcomes(N, N, N, N, N),
        kwargs=lambda a, b: {"code": a.classroom.join_code, "student_id": b.student.student.pk},
        label="GET join_pin (class A code, class B student)",
    ),
    Route(
        "set_language",
        outcomes(R, R, R, R, R),
        method="post",
        data=lambda a, b: {"language": "en", "next": "/"},
    ),
]
