"""Open a class session with a scripted table in the browser test's database (run as a script).

`python -m tests.support.session_world` prints JSON: the session, its table, and signed-in
session keys for the teacher and both students. Seat 1 plays first on 1/3 (FRACTIONS_SETUP).
"""

from __future__ import annotations

import json
import uuid
from typing import Any


def build() -> dict[str, Any]:
    """Create a teacher, a class of two, a session and its scripted table."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from games.models import Table
    from games.services import SeatSpec, table_create
    from lessons.models import SessionMember, SessionTable
    from lessons.sessions.services import session_start
    from tests.games.helpers import FRACTIONS_SETUP
    from tests.support.factories import make_classroom, make_student, make_teacher

    suffix = uuid.uuid4().hex[:8]
    teacher = make_teacher(username=f"teacher_{suffix}")
    classroom = make_classroom(teacher=teacher, name=f"Classe {suffix}")
    students = [make_student(classroom=classroom, display_name=n) for n in ("Alice", "Bruno")]
    session = session_start(teacher=teacher, classroom=classroom)
    table = table_create(
        ruleset="fractions",
        seats=[SeatSpec(name=s.student.display_name, user_id=s.user.pk) for s in students],
        kind=Table.Kind.LESSON,
        seed=7,
        setup=FRACTIONS_SETUP,
    )
    seated = SessionTable.objects.create(session=session, table=table, number=1)
    for login in students:
        SessionMember.objects.create(session=session, student=login.student, table=seated)

    def key(user: Any) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.save()
        return str(store.session_key)

    return {
        "session": session.pk,
        "table": table.pk,
        "teacher": key(teacher),
        "students": [key(login.user) for login in students],
    }


def main() -> None:
    """Build the world and print it."""
    import django

    django.setup()
    print(json.dumps(build()))


if __name__ == "__main__":
    main()
