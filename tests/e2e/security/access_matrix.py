"""The authorisation matrix: who gets what on every URL of the project.

Each Route names a URL, how to build its arguments from two classrooms (A and B), and what each
of the five actors gets. Targets always belong to class A, so class B's people must never see
class A's data. Other apps add their rows in `tests/<their package>/access_routes.py`, as a
module-level `ROUTES: list[Route]`; test_access_matrix.py collects them and fails on any URL
name that has no row. Every row also runs after a change of the class's life (a pupil moved,
the class archived, the pupil pseudonymised or erased, the co-teacher removed):
tests/e2e/security/access_states.py says what each row answers then.
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
             ent_teacher: Outcome | None = None) -> dict[str, Outcome]:  # fmt: skip
    """Return an expectation row in ACTORS order.

    A co-teacher gets what class A's owner gets, the school admin what another teacher gets,
    and the ENT-linked teacher (of no class) what the school admin gets, unless the row says
    otherwise (the school's own pages say F for the ENT-linked teacher).
    """
    row = (anonymous, student_a, student_b, teacher_a, teacher_b,
           co_teacher or teacher_a, school_admin or teacher_b,
           ent_teacher or school_admin or teacher_b)  # fmt: skip
    return dict(zip(ACTORS, row, strict=True))


# The ENT-linked teacher's ticket: the access states end its session by single sign-out.
ENT_TEACHER_TICKET = "ST-matrix-ent-teacher"


def extra_actor(actor: str, class_a: Any) -> Any:
    """Return the user of the co_teacher, school_admin or ent_teacher actor, made on first use."""
    from lessons.models import EntConnector, EntIdentity, User
    from tests.support.factories import make_teacher

    username = f"matrix_{actor}"
    user = User.objects.filter(username=username).first() or make_teacher(username=username)
    if actor == "co_teacher":
        class_a.classroom.co_teachers.add(user)
    elif actor == "ent_teacher":
        connector, _ = EntConnector.objects.get_or_create(
            name="ENT matrix",
            defaults={"server_url": "https://127.0.0.1:9/cas/", **MATRIX_CONNECTOR},
        )
        EntIdentity.objects.get_or_create(
            user=user, defaults={"connector": connector, "external_id": "EDI-matrix"}
        )
    else:
        User.objects.filter(pk=user.pk).update(is_staff=True)
        user.refresh_from_db()
    return user


def _matrix_connector() -> dict[str, Any]:
    from lessons.ent.presets import PRESETS

    return dict(PRESETS["edifice"])


# The names and roles of a connector whose server refuses every connection (127.0.0.1:9).
MATRIX_CONNECTOR = _matrix_connector()


def ent_sign_in_record(client: Any, user: Any) -> None:
    """Map ENT_TEACHER_TICKET to the client's session, as an ENT sign-in would have."""
    from lessons.ent.tickets import ticket_hash
    from lessons.models import EntSignIn

    EntSignIn.objects.update_or_create(
        ticket_hash=ticket_hash(ENT_TEACHER_TICKET),
        defaults={
            "connector": user.ent_identity.connector,
            "user": user,
            "session_key": client.session.session_key,
        },
    )


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
