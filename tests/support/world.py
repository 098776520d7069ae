"""Create a class, its students and a table in the browser tests' database (run as a script).

The browser tests talk to a separate daphne process and its SQLite file, so they set up data
through this script: `python -m tests.support.world < spec.json` prints the world as JSON.
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any


def build(spec: dict[str, Any]) -> dict[str, Any]:
    """Create a teacher, a class, the named students and their table; return ids and sessions."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from games.services import SeatSpec, table_create
    from tests.support.factories import make_classroom, make_student, make_teacher

    suffix = uuid.uuid4().hex[:8]
    teacher = make_teacher(username=f"teacher_{suffix}")
    classroom = make_classroom(teacher=teacher, name=f"Classe {suffix}")
    students = [make_student(classroom=classroom, display_name=name) for name in spec["students"]]
    pairs = list(zip(spec["students"], students, strict=True))
    seats = [SeatSpec(name=name, user_id=s.user.pk) for name, s in pairs]
    seats += [SeatSpec(name=f"Bot {i + 1}", bot="heuristic") for i in range(spec.get("bots", 0))]
    table = table_create(
        ruleset=spec.get("ruleset", "fractions"),
        seats=seats,
        options=spec.get("options"),
        table_settings=spec.get("settings"),
        seed=spec.get("seed", 11),
        setup=spec.get("setup"),
    )

    def session(user: Any) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.save()
        return str(store.session_key)

    return {
        "table": table.pk,
        "students": [
            {"name": name, "seat": i, "session": session(s.user), "pk": s.user.pk}
            for i, (name, s) in enumerate(pairs)
        ],
        "teacher_session": session(teacher),
        "join_code": classroom.join_code,
    }


def main() -> None:
    """Read a spec from stdin, build it, print the result."""
    import django

    django.setup()
    print(json.dumps(build(json.load(sys.stdin))))


if __name__ == "__main__":
    main()
