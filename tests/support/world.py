"""Build a world in a live server's database: a class, its students, a table, a class session.

The end-to-end tests talk to separate daphne processes and their database, so they set up data
through this script, in the deployment's environment (`LiveApp.world(**spec)`):
`python -m tests.support.world < spec.json` prints the world as JSON.

The spec (every key optional):
- `students`: names of the class's students (in seat order at the table); `bots`: robots
  seated after them; no students and no bots: no table (or `table: false`).
- `ruleset` ("fractions"), `options`, `settings` (the table settings), `seed` (11), `setup`
  (a scripted deal), `kind` (the table's kind; a lesson table inside a session).
- `session: true`: open a class session and seat the table's students at its table 1.
- `takeover: true`: robots play the students' seats too (as when a student is away for long):
  the table moves on by itself once a page connects.
- `absent`: names of more students of the class, at no table and not in the session (yet).

The world: `table`, `classroom`, `join_code`, `teacher_session`, `session` (or None),
`students` (name, seat, session key, user `pk`, student `id`, `pin`), `absent` (the same, seat
None), and by seat `sessions` (the students' session keys) and `users` (their user ids).
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

# The teachers' password hashed by the deployment's own hasher (its settings: PBKDF2 in
# production), once in the fork server before it forks (`warm`): a world's teacher gets this
# hash instead of 0.2 s of hashing per world. Signing in with the password still runs the
# deployment's check of it; None outside the fork server (every teacher hashed as usual).
_teacher_password_hash: str | None = None


def warm() -> None:
    """Hash the teachers' password once, for every world forked after this."""
    global _teacher_password_hash  # noqa: PLW0603 (set once, in the fork server)
    from django.contrib.auth.hashers import make_password

    from tests.support.factories import TEACHER_PASSWORD

    _teacher_password_hash = make_password(TEACHER_PASSWORD)


@contextmanager
def _hashed_once() -> Iterator[None]:
    """Let `set_password(TEACHER_PASSWORD)` take the warm hash; any other password is hashed."""
    from django.contrib.auth import base_user, hashers

    from tests.support.factories import TEACHER_PASSWORD

    ready = _teacher_password_hash

    def make_password(password: str | None, *args: Any, **kwargs: Any) -> str:
        if ready is not None and password == TEACHER_PASSWORD and not args and not kwargs:
            return ready
        return hashers.make_password(password, *args, **kwargs)

    # set_password looks make_password up in its own module: the one name to replace.
    with mock.patch.object(base_user, "make_password", make_password):
        yield


def _session_key(user: Any) -> str:
    """Store a signed-in session for the user; return its key (the `sessionid` cookie)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return str(store.session_key)


def _student(name: str, seat: int | None, login: Any) -> dict[str, Any]:
    """Describe one student of the world, signed in (their session key)."""
    return {
        "name": name,
        "seat": seat,
        "session": _session_key(login.user),
        "pk": login.user.pk,
        "id": login.student.pk,
        "pin": login.pin,
    }


def build(spec: dict[str, Any]) -> dict[str, Any]:
    """Create what the spec asks for; return ids and signed-in session keys."""
    from games.models import Seat, Table
    from games.services import SeatSpec, table_create
    from lessons.models import SessionMember, SessionTable
    from lessons.sessions.services import session_start
    from tests.support.factories import make_classroom, make_students, make_teacher

    suffix = uuid.uuid4().hex[:8]
    with _hashed_once():
        teacher = make_teacher(username=f"teacher_{suffix}")
    classroom = make_classroom(teacher=teacher, name=f"Classe {suffix}")
    names = list(spec.get("students") or [])
    logins = make_students(classroom=classroom, names=names) if names else []
    absent_names = list(spec.get("absent") or [])
    absent = make_students(classroom=classroom, names=absent_names) if absent_names else []
    in_session = bool(spec.get("session"))
    table = None
    if spec.get("table", True) and (names or spec.get("bots")):
        seats = [
            SeatSpec(name=name, user_id=s.user.pk) for name, s in zip(names, logins, strict=True)
        ]
        seats += [
            SeatSpec(name=f"Bot {i + 1}", bot="heuristic") for i in range(spec.get("bots", 0))
        ]
        default_kind = Table.Kind.LESSON if in_session else Table.Kind.PRACTICE
        table = table_create(
            ruleset=spec.get("ruleset") or "fractions",
            seats=seats,
            kind=spec.get("kind") or default_kind,
            options=spec.get("options"),
            table_settings=spec.get("settings"),
            seed=spec.get("seed", 11),
            setup=spec.get("setup"),
        )
        if spec.get("takeover"):
            Seat.objects.filter(table=table, index__lt=len(names)).update(
                bot_takeover=True, bot="heuristic"
            )
    session = None
    if in_session:
        session = session_start(teacher=teacher, classroom=classroom)
        if table is not None:
            seated = SessionTable.objects.create(session=session, table=table, number=1)
            for login in logins:
                SessionMember.objects.create(session=session, student=login.student, table=seated)
    students = [
        _student(name, seat, login)
        for seat, (name, login) in enumerate(zip(names, logins, strict=True))
    ]
    return {
        "table": table.pk if table is not None else None,
        "classroom": classroom.pk,
        "join_code": classroom.join_code,
        "teacher_session": _session_key(teacher),
        "session": session.pk if session is not None else None,
        "students": students,
        "absent": [_student(name, None, s) for name, s in zip(absent_names, absent, strict=True)],
        "sessions": [s["session"] for s in students],
        "users": [s["pk"] for s in students],
    }


def main() -> None:
    """Read a spec from stdin, build it, print the result."""
    import django

    django.setup()
    print(json.dumps(build(json.load(sys.stdin))))


if __name__ == "__main__":
    main()
