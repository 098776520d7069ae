"""All the data stored about one pupil, for a family's request of access (JSON and CSV).

Everything the database holds about the pupil except the PIN hash (it reveals nothing, and a
hash is a guessable 4-digit PIN): profile, class sessions joined, every judged play and every
missed equivalence. The CSV is the same data in long form, one value a row
(`section, row, field, value`), so that any spreadsheet opens it.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from lessons.models import Attempt, MissedEquivalence, SessionMember, Student

ATTEMPT_FIELDS = (
    "id", "session_id", "table_id", "created_at", "reference_num", "reference_den",
    "named_denominator", "played_num", "played_den", "card", "claim", "claim_source",
    "outcome", "tags", "p0", "opportunities", "skills", "hand", "response_ms",
    "rules_version", "turn", "reason", "drew", "source", "warmup_id",
)  # fmt: skip
MISSED_FIELDS = (
    "id", "session_id", "table_id", "created_at", "reference", "equal_cards", "rules_version",
)  # fmt: skip
# Cells a spreadsheet would run as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _rows(queryset: models.QuerySet[Any], fields: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{name: _value(row[name]) for name in fields} for row in queryset.values(*fields)]


def student_data(*, student: Student) -> dict[str, Any]:
    """Return everything stored about the student (no PIN hash), JSON-ready."""
    user = student.user
    sessions = [
        {
            "session_id": member.session_id,
            "started_at": _value(member.session.started_at),
            "ended_at": _value(member.session.ended_at),
            "game": member.session.ruleset,
            "table_number": member.table.number if member.table else None,
            "joined_at": _value(member.joined_at),
        }
        for member in SessionMember.objects.filter(student=student).select_related(
            "session", "table"
        )
    ]
    return {
        "profile": {
            "student_id": student.pk,
            "display_name": student.display_name,
            "classroom": student.classroom.name,
            "classroom_id": student.classroom_id,
            "account": user.username,
            "account_created_at": _value(user.date_joined),
            "last_login": _value(user.last_login),
            "failed_attempts": student.failed_attempts,
            "locked_until": _value(student.locked_until),
        },
        "sessions": sessions,
        "attempts": _rows(Attempt.objects.filter(student=student), ATTEMPT_FIELDS),
        "missed_equivalences": _rows(
            MissedEquivalence.objects.filter(student=student), MISSED_FIELDS
        ),
    }


def student_json(*, student: Student) -> str:
    """Return the student's data as indented JSON."""
    return json.dumps(
        student_data(student=student), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2
    )


def _cell(value: Any) -> str:
    text = "" if value is None else value
    if not isinstance(text, str):
        text = json.dumps(text, ensure_ascii=False)
    # A leading quote keeps a spreadsheet from running a name such as "=1+1" as a formula.
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def student_csv(*, student: Student) -> str:
    """Return the student's data as a long CSV: section, row, field, value."""
    data = student_data(student=student)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["section", "row", "field", "value"])
    for field, value in data["profile"].items():
        writer.writerow(["profile", 1, field, _cell(value)])
    for section in ("sessions", "attempts", "missed_equivalences"):
        for number, row in enumerate(data[section], start=1):
            for field, value in row.items():
                writer.writerow([section, number, field, _cell(value)])
    return out.getvalue()
