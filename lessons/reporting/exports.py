"""Class CSV exports for research: one row per attempt and one row per student.

Students and classes appear only as pseudonyms: an HMAC of the id keyed with SECRET_KEY, so
the same student keeps the same pseudonym across exports of one installation, and nobody
without the key can go back to the id. Names never appear.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator
from typing import Final

from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from lessons.diagnosis import RULE_IDS, RULES_BY_ID, SKILL_IDS, SKILLS
from lessons.models import Attempt, Classroom, MissedEquivalence
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.loading import WINDOW_DAYS, WRONG

PSEUDONYM_LENGTH: Final = 16
CHUNK: Final = 2000

ATTEMPT_FIELDS: Final = (
    "id",
    "student_id",
    "session_id",
    "table_id",
    "created_at",
    "reference_num",
    "reference_den",
    "named_denominator",
    "played_num",
    "played_den",
    "card",
    "claim",
    "claim_source",
    "outcome",
    "response_ms",
    "hand",
    "tags",
    "p0",
    "opportunities",
    "skills",
    "rules_version",
)
ATTEMPT_HEADER: Final = (
    "class_id",
    "student_id",
    "attempt_id",
    "timestamp_utc",
    "session_id",
    "table_id",
    "a",
    "b",
    "named_denominator",
    "c",
    "d",
    "card",
    "claimed_rule",
    "claim_source",
    "outcome",
    "correct",
    "rt_ms",
    "hand",
    *(f"flag_{rule}" for rule in RULE_IDS),
    "p0",
    "opportunities",
    "rules_version",
    "skills",
    "standards",
    "factor",
)
STUDENT_HEADER: Final = (
    "class_id",
    "student_id",
    "claims",
    "correct",
    "accuracy",
    "first_play_utc",
    "last_play_utc",
    "sessions",
    "missed_equivalences",
    "window_claims",
    "window_accuracy",
    *(f"skill_{skill}" for skill in SKILL_IDS),
    *(f"status_{rule}" for rule in RULE_IDS),
    *(f"k_{rule}" for rule in RULE_IDS),
    "wrong_claims_window",
)


def pseudonym(kind: str, pk: int) -> str:
    """Return a stable pseudonymous id for a class or a student (HMAC-SHA256 with SECRET_KEY)."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"{kind}:{pk}".encode(), hashlib.sha256
    ).hexdigest()
    return f"{kind[0]}{digest[:PSEUDONYM_LENGTH]}"


class _Echo:
    """A file-like object whose write() returns the line, for streaming CSV."""

    def write(self, value: str) -> str:
        return value


def csv_response(lines: Iterable[list[object]], filename: str) -> StreamingHttpResponse:
    """Stream rows as a UTF-8 CSV download."""
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse(
        (writer.writerow(line) for line in lines), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _standards(skills: Iterable[str]) -> str:
    codes: list[str] = []
    for skill in skills:
        if skill in SKILLS:
            codes.extend(code for code in SKILLS[skill].ccss if code not in codes)
    return ";".join(codes)


def attempt_lines(classroom: Classroom) -> Iterator[list[object]]:
    """Yield the header, then one line per attempt of the class, oldest first."""
    yield list(ATTEMPT_HEADER)
    class_id = pseudonym("class", classroom.pk)
    students: dict[int, str] = {}
    query = (
        Attempt.objects.filter(classroom=classroom)
        .order_by("created_at", "id")
        .values_list(*ATTEMPT_FIELDS)
    )
    for values in query.iterator(chunk_size=CHUNK):
        row = dict(zip(ATTEMPT_FIELDS, values, strict=True))
        student = row["student_id"]
        if student not in students:
            students[student] = pseudonym("student", student)
        tags = set(row["tags"] or ())
        b, d = row["reference_den"] or row["named_denominator"], row["played_den"]
        factor = max(b, d) / min(b, d) if b and d else ""
        yield [
            class_id,
            students[student],
            row["id"],
            row["created_at"].isoformat(),
            row["session_id"] or "",
            row["table_id"] or "",
            row["reference_num"] or "",
            row["reference_den"] or "",
            row["named_denominator"] or "",
            row["played_num"],
            row["played_den"],
            row["card"],
            row["claim"],
            row["claim_source"],
            row["outcome"],
            int(row["outcome"] != WRONG),
            row["response_ms"] if row["response_ms"] is not None else "",
            json.dumps(row["hand"]),
            *(int(rule in tags) for rule in RULE_IDS),
            json.dumps(row["p0"], sort_keys=True),
            json.dumps(row["opportunities"]),
            row["rules_version"],
            ";".join(row["skills"] or ()),
            _standards(row["skills"] or ()),
            f"{factor:g}" if factor != "" else "",
        ]


def student_lines(classroom: Classroom) -> Iterator[list[object]]:
    """Yield the header, then one line per student: totals, window figures, states, statuses."""
    yield list(STUDENT_HEADER)
    class_id = pseudonym("class", classroom.pk)
    totals = {
        values[0]: values[1:]
        for values in Attempt.objects.filter(classroom=classroom)
        .values_list("student_id")
        .annotate(
            claims=Count("id"),
            # Not `correct`: Attempt has a property of that name.
            right=Count("id", filter=~Q(outcome=WRONG)),
            first=Min("created_at"),
            last=Max("created_at"),
            sessions=Count("session_id", distinct=True),
        )
        .order_by()
    }
    missed = dict(
        MissedEquivalence.objects.filter(classroom=classroom)
        .values_list("student_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    dash = class_dashboard(classroom)
    for line in dash.lines:
        pk = line.student.pk
        claims, correct, first, last, sessions = totals.get(pk, (0, 0, None, None, 0))
        yield [
            class_id,
            pseudonym("student", pk),
            claims,
            correct,
            f"{correct / claims:.4f}" if claims else "",
            first.isoformat() if first else "",
            last.isoformat() if last else "",
            sessions,
            missed.get(pk, 0),
            line.claims,
            f"{line.accuracy:.4f}" if line.accuracy is not None else "",
            *(line.skills[skill].state for skill in SKILL_IDS),
            *(line.evidence[rule].status for rule in RULE_IDS),
            *(line.evidence[rule].k for rule in RULE_IDS),
            next(iter(line.evidence.values())).n if line.evidence else 0,
        ]


def attempt_dictionary(lang: str) -> list[tuple[str, str]]:
    """Describe every column of the attempt export."""
    described = {
        "class_id": _("Pseudonymous class id (HMAC of the id; the same in every export)."),
        "student_id": _("Pseudonymous student id (HMAC of the id; never the name)."),
        "attempt_id": _("Number of the attempt in this installation."),
        "timestamp_utc": _("When the card was played (ISO 8601, UTC)."),
        "session_id": _("Class session (lesson) number; empty for practice."),
        "table_id": _("Game table number; empty when unknown."),
        "a": _("Numerator of the reference (top) card; empty after a named denominator."),
        "b": _("Denominator of the reference card."),
        "named_denominator": _("Denominator named by a +2, Joker or +4, when there was one."),
        "c": _("Numerator of the played card."),
        "d": _("Denominator of the played card."),
        "card": _("Code of the played card (fraction and colour letter)."),
        "claimed_rule": _("Rule the student claimed: equal or denominator (same denominator)."),
        "claim_source": _("asked: the student chose the rule; inferred: only one could apply."),
        "outcome": _("equal (right), denominator (right) or wrong."),
        "correct": _("1 when the claim was right, else 0."),
        "rt_ms": _("Response time in milliseconds, from the turn's start to the play."),
        "hand": _("The fraction cards in hand when the card was played (JSON list)."),
        "p0": _("Chance rate of each rule from this hand (JSON): share of wrong cards fitting it."),
        "opportunities": _("Rules some card in hand could have fitted (JSON list)."),
        "rules_version": _("Version of the detection rules that tagged this attempt."),
        "skills": _("Skills exercised (S1–S6), separated by semicolons."),
        "standards": _("Common Core codes of those skills (indicative), separated by semicolons."),
        "factor": _("k = max(b, d) / min(b, d), the scale between the two denominators."),
    }
    columns = []
    for column in ATTEMPT_HEADER:
        if column.startswith("flag_"):
            rule = RULES_BY_ID[column[5:]]
            text = _("1 when the wrong claim fits %(rule)s (%(detection)s), else 0.") % {
                "rule": f"{rule.id} {rule.name[lang]}",
                "detection": rule.detection,
            }
            columns.append((column, text))
        else:
            columns.append((column, described[column]))
    return columns


def student_dictionary(lang: str) -> list[tuple[str, str]]:
    """Describe every column of the student export."""
    described = {
        "class_id": _("Pseudonymous class id (as in the attempt export)."),
        "student_id": _("Pseudonymous student id (as in the attempt export)."),
        "claims": _("All claims of the student."),
        "correct": _("Right claims among them."),
        "accuracy": _("correct ÷ claims."),
        "first_play_utc": _("First play (ISO 8601, UTC)."),
        "last_play_utc": _("Last play (ISO 8601, UTC)."),
        "sessions": _("Class sessions with at least one claim."),
        "missed_equivalences": _("Draws while holding a card equal to the reference."),
        "window_claims": _(
            "Claims in the evidence window (the %(days)d days up to the class's last play)."
        )
        % {"days": WINDOW_DAYS},
        "window_accuracy": _("Accuracy in the evidence window."),
        "wrong_claims_window": _("Wrong claims in the evidence window (n of every k/n)."),
    }
    columns = []
    for column in STUDENT_HEADER:
        if column.startswith("skill_"):
            skill = SKILLS[column[6:]]
            text = _("State of skill %(skill)s in the window (not_started to mastered).") % {
                "skill": f"{skill.id} {skill.name[lang]}"
            }
        elif column.startswith("status_"):
            rule = RULES_BY_ID[column[7:]]
            text = _("Status of %(rule)s in the window: likely, emerging, resolved or none.") % {
                "rule": f"{rule.id} {rule.name[lang]}"
            }
        elif column.startswith("k_"):
            rule = RULES_BY_ID[column[2:]]
            text = _("Wrong claims in the window that fit %(rule)s (k).") % {
                "rule": f"{rule.id} {rule.name[lang]}"
            }
        else:
            text = described[column]
        columns.append((column, text))
    return columns
