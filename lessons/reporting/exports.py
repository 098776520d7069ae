"""Class CSV exports: one row per attempt and one row per student.

In the machine CSV (for research) students and classes appear only as pseudonyms: an HMAC of
the id keyed with SECRET_KEY, so the same student keeps the same pseudonym across exports of
one installation, and nobody without the key can go back to the id. Names never appear there.
The teacher's spreadsheet CSV is for the teacher's own class: it names the class and its
pupils, and writes claims, outcomes, reasons, skill states and statuses in words.

Two flavours of the same rows. The machine CSV (the default) stays stable for researchers:
UTF-8, comma-separated, English column names, UTC timestamps with microseconds, "." decimals;
new columns are only ever added at the end. The spreadsheet CSV (`?for=spreadsheet`) opens
in columns in a spreadsheet of the class's language: a UTF-8 byte order mark, ";" and ","
decimals for French classes, column names in the class's language, local times to the second.

The attempts CSV holds everything lessons.diagnosis.diagnose() needs (turn, reference, hand,
played card, claim, asked or inferred, reason, drew): lessons.diagnosis.turns_from_csv() turns
its rows back into each student's turns, offline.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Final

from django.conf import settings
from django.db.models import Count
from django.http import StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from lessons.csv_writer import csv_lines
from lessons.diagnosis import (
    HELD_MIN_DAYS,
    REASON_LABELS,
    RULE_IDS,
    RULES_BY_ID,
    SKILL_IDS,
    SKILLS,
    STATE_LABELS,
    STATUS_LABELS,
)
from lessons.evidence.evidence import evidence_by_student
from lessons.evidence.loading import WINDOW_DAYS, WRONG, class_light_rows
from lessons.exported_columns import columns
from lessons.models import (
    Attempt,
    Classroom,
    MissedEquivalence,
    PlanMember,
    Student,
    WarmupRound,
)
from lessons.reporting.class_report import class_dashboard

# How a researcher re-runs the diagnosis on the attempts CSV (shown on the data dictionary).
REDIAGNOSE_CODE: Final = """import csv
from lessons.diagnosis import diagnose, turns_from_csv

with open("attempts.csv", newline="", encoding="utf-8") as f:
    turns = turns_from_csv(csv.DictReader(f))
statuses = {student: diagnose(t) for student, t in turns.items()}"""
PSEUDONYM_LENGTH: Final = 16
CHUNK: Final = 2000

# Every stored column of an attempt but its class (the class is the file's, pseudonymised apart):
# the same columns the pupil's own export carries, read from the model.
ATTEMPT_FIELDS: Final = tuple(name for name in columns(Attempt) if name != "classroom_id")
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
    # Added for lessons.diagnosis.turns_from_csv (always at the end: columns never move).
    "turn",
    "reason",
    "drew",
    # "game" or "probe" (a warm-up answer: its hand holds the options shown).
    "source",
    "warmup_round",
    # The claim's time in local time with its offset: what turns_from_csv gives diagnose()
    # as "at" (a re-check a week later, "held").
    "at",
    # "attempt", or "marker": a group plan's event (lessons.plans), after the attempts; a
    # marker row has no card and turns_from_csv leaves it out.
    "row_kind",
    "marker",
    "marker_rule",
)
MARKER_ACTIVITY: Final = "plan_activity"
MARKER_RECHECK: Final = "plan_recheck"
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


MACHINE: Final = "machine"
SPREADSHEET: Final = "spreadsheet"
FLAVOURS: Final = (MACHINE, SPREADSHEET)
_DECIMAL: Final = re.compile(r"^-?\d+\.\d+$")


@dataclass(frozen=True)
class Flavour:
    """How the rows are written: separator, byte order mark, decimals, times, header language."""

    name: str
    delimiter: str = ","
    bom: bool = False
    decimal: str = "."
    lang: str | None = None  # None: the machine column names
    # The teacher's spreadsheet names the class and its pupils (their own class) and writes
    # the values in words; the machine CSV for research keeps pseudonyms and codes.
    names: bool = False

    def stamp(self, moment: datetime | None) -> str:
        """Write a time: UTC to the microsecond (machine), local to the second (spreadsheet)."""
        if moment is None:
            return ""
        if self.name == MACHINE:
            return moment.astimezone(UTC).isoformat(timespec="microseconds")
        return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")

    def instant(self, moment: datetime) -> str:
        """Write a time in local time with its offset (ISO 8601; to the second for people)."""
        spec = "microseconds" if self.name == MACHINE else "seconds"
        return timezone.localtime(moment).isoformat(timespec=spec)

    def cell(self, value: object) -> object:
        """Write decimals with the flavour's decimal mark."""
        if self.decimal != "." and isinstance(value, str) and _DECIMAL.match(value):
            return value.replace(".", self.decimal)
        return value


def flavour_for(name: str, classroom: Classroom) -> Flavour:
    """Return the flavour asked for (ValueError for an unknown name)."""
    if name == MACHINE:
        return Flavour(MACHINE)
    if name == SPREADSHEET:
        french = classroom.language == "fr"
        return Flavour(
            SPREADSHEET,
            delimiter=";" if french else ",",
            bom=True,
            decimal="," if french else ".",
            lang="fr" if french else "en",
            names=True,
        )
    raise ValueError(f"unknown export flavour {name!r}")


def csv_response(
    lines: Iterable[list[object]], filename: str, flavour: Flavour | None = None
) -> StreamingHttpResponse:
    """Stream rows as a UTF-8 CSV download (the first line is the header).

    Written by lessons.csv_writer, as every CSV: a name or a word that a spreadsheet would run
    as a formula comes out as text.
    """
    flavour = flavour or Flavour(MACHINE)

    def cells() -> Iterator[list[object]]:
        for index, line in enumerate(lines):
            if index == 0 and flavour.lang is not None:
                with translation.override(flavour.lang):
                    line = [header_label(str(column)) for column in line]
            yield [flavour.cell(value) for value in line]

    def rows() -> Iterator[str]:
        if flavour.bom:
            yield "\ufeff"
        yield from csv_lines(cells(), delimiter=flavour.delimiter)

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def header_label(column: str) -> str:
    """Return a column's name in the active language (the spreadsheet header)."""
    for prefix, text in (
        ("flag_", _("fits %(rule)s")),
        ("status_", _("status %(rule)s")),
        ("k_", _("fitting %(rule)s")),
        ("skill_", _("skill %(rule)s")),
    ):
        if column.startswith(prefix):
            return text % {"rule": column[len(prefix) :]}
    return _HEADER_LABELS.get(column, lambda: column)()


_HEADER_LABELS: Final[dict[str, Callable[[], str]]] = {
    "class_id": lambda: _("class"),
    "student_id": lambda: _("student"),
    "attempt_id": lambda: _("attempt"),
    "timestamp_utc": lambda: _("time"),
    "session_id": lambda: _("session"),
    "table_id": lambda: _("table"),
    "a": lambda: _("top card numerator"),
    "b": lambda: _("top card denominator"),
    "named_denominator": lambda: _("named denominator"),
    "c": lambda: _("played numerator"),
    "d": lambda: _("played denominator"),
    "card": lambda: _("card"),
    "claimed_rule": lambda: _("claimed rule"),
    "claim_source": lambda: _("asked or inferred"),
    "outcome": lambda: _("outcome"),
    "correct": lambda: _("right"),
    "rt_ms": lambda: _("response time (ms)"),
    "hand": lambda: _("fraction cards in hand"),
    "p0": lambda: _("chance rates"),
    "opportunities": lambda: _("rules that could fire"),
    "rules_version": lambda: _("rules version"),
    "skills": lambda: _("skills"),
    "standards": lambda: _("French programme (cycle 3)"),
    "factor": lambda: _("factor between denominators"),
    "turn": lambda: _("turn"),
    "reason": lambda: _("reason given"),
    "drew": lambda: _("drew in this turn"),
    "source": lambda: _("game or warm-up"),
    "warmup_round": lambda: _("warm-up round"),
    "at": lambda: _("time with its offset"),
    "row_kind": lambda: _("attempt or marker"),
    "marker": lambda: _("marker"),
    "marker_rule": lambda: _("marker's misconception"),
    "claims": lambda: _("claims"),
    "accuracy": lambda: _("accuracy"),
    "first_play_utc": lambda: _("first play"),
    "last_play_utc": lambda: _("last play"),
    "sessions": lambda: _("sessions"),
    "missed_equivalences": lambda: _("missed equivalences"),
    "window_claims": lambda: _("claims in the window"),
    "window_accuracy": lambda: _("accuracy in the window"),
    "wrong_claims_window": lambda: _("wrong first claims in the window"),
}


@dataclass(frozen=True)
class _Labels:
    """How one export writes who and what: pseudonyms and codes, or names and words."""

    class_label: str
    students: dict[int, str]
    words: dict[str, dict[str, str]]
    lang: str | None = None  # the spreadsheet's language: lists and standards in words
    decimal: str = "."
    warmup_sessions: Mapping[int, int | None] = field(default_factory=dict)

    def student(self, pk: int) -> str:
        """Name a student (a pupil who left the class keeps their pseudonym)."""
        return self.students.get(pk) or pseudonym("student", pk)

    def listing(self, values: object) -> str:
        """Write a stored list: JSON for machines, "a, b, c" for people."""
        if self.lang is None:
            return json.dumps(values)
        return ", ".join(str(value) for value in values) if isinstance(values, list) else ""

    def rates(self, p0: object) -> str:
        """Write chance rates per rule: JSON for machines, "M1 0,125, M2 0,05" for people."""
        if self.lang is None:
            return json.dumps(p0, sort_keys=True)
        if not isinstance(p0, dict):
            return ""
        return ", ".join(
            f"{rule} {float(rate):.3f}".replace(".", self.decimal)
            for rule, rate in sorted(p0.items())
        )

    def standards(self, skills: Iterable[str]) -> str:
        """Name a claim's standards: CCSS codes for research, the French programme for people."""
        if self.lang is None:
            return _standards(skills)
        lang = self.lang
        named = [SKILLS[skill].france[lang] for skill in skills if skill in SKILLS]
        return " / ".join(dict.fromkeys(named))

    def session(self, session_id: int | None, warmup_id: int | None) -> object:
        """Write an attempt's session: a warm-up answer's is its round's, practice says so."""
        if self.lang is None:
            return _or_blank(session_id)
        if session_id is None and warmup_id is not None:
            session_id = self.warmup_sessions.get(warmup_id)
            if session_id is None:
                return ""  # a warm-up given apart from a lesson: its round is the next column
        return session_id if session_id is not None else self.words["session"]["practice"]

    def word(self, kind: str, code: object) -> object:
        """Write a value's code in words (claim, source, outcome, reason, state, status)."""
        if not isinstance(code, str):
            return code
        return self.words.get(kind, {}).get(code, code)


def _labels(classroom: Classroom, flavour: Flavour) -> _Labels:
    """Return the export's labels: the spreadsheet's names and words, or the pseudonyms."""
    if not flavour.names or flavour.lang is None:
        return _Labels(pseudonym("class", classroom.pk), {}, {})
    lang = flavour.lang
    with translation.override(lang):
        words = {
            "claim": {str(k): str(v) for k, v in Attempt.Claim.choices},
            "claim_source": {str(k): str(v) for k, v in Attempt.ClaimSource.choices},
            "outcome": {str(k): str(v) for k, v in Attempt.Outcome.choices},
        }
    words["reason"] = {code: labels[lang] for code, labels in REASON_LABELS.items()}
    words["state"] = {code: labels[lang] for code, labels in STATE_LABELS.items()}
    words["status"] = {code: labels[lang] for code, labels in STATUS_LABELS.items()}
    with translation.override(lang):
        words["marker"] = {
            MARKER_ACTIVITY: _("activity done with the group"),
            MARKER_RECHECK: _("plan's re-check done"),
        }
        words["source"] = {"game": _("game"), "probe": _("warm-up")}
        words["row_kind"] = {"attempt": _("card played"), "marker": _("group plan")}
        # The warm-up prompt's answer that names no mistake (lessons.warmup.services).
        words["reason"]["same_factor"] = _(
            "I multiplied or divided the top and the bottom by the same number"
        )
        words["session"] = {"practice": _("practice")}
    words["rule"] = {rule: RULES_BY_ID[rule].name[lang] for rule in RULE_IDS}
    students = dict(Student.objects.filter(classroom=classroom).values_list("pk", "display_name"))
    warmups = dict(WarmupRound.objects.filter(classroom=classroom).values_list("pk", "session_id"))
    return _Labels(classroom.name, students, words, lang, flavour.decimal, warmups)


def _standards(skills: Iterable[str]) -> str:
    codes: list[str] = []
    for skill in skills:
        if skill in SKILLS:
            codes.extend(code for code in SKILLS[skill].ccss if code not in codes)
    return ";".join(codes)


def _or_blank(value: object) -> object:
    """Return a cell's value, or an empty cell for nothing (None, 0 or "")."""
    return value or ""


def _none_blank(value: object) -> object:
    """Return a cell's value, or an empty cell for None (0 stays 0)."""
    return "" if value is None else value


def attempt_lines(classroom: Classroom, flavour: Flavour | None = None) -> Iterator[list[object]]:
    """Yield the header, then one line per attempt of the class, oldest first."""
    flavour = flavour or Flavour(MACHINE)
    yield list(ATTEMPT_HEADER)
    labels = _labels(classroom, flavour)
    class_id = labels.class_label
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
            students[student] = labels.student(student)
        tags = set(row["tags"] or ())
        b, d = row["reference_den"] or row["named_denominator"], row["played_den"]
        factor = max(b, d) / min(b, d) if b and d else ""
        yield [
            class_id,
            students[student],
            row["id"],
            flavour.stamp(row["created_at"]),
            labels.session(row["session_id"], row["warmup_id"]),
            _or_blank(row["table_id"]),
            _or_blank(row["reference_num"]),
            _or_blank(row["reference_den"]),
            _or_blank(row["named_denominator"]),
            row["played_num"],
            row["played_den"],
            row["card"],
            labels.word("claim", row["claim"]),
            labels.word("claim_source", row["claim_source"]),
            labels.word("outcome", row["outcome"]),
            int(row["outcome"] != WRONG),
            _none_blank(row["response_ms"]),
            labels.listing(row["hand"]),
            *(int(rule in tags) for rule in RULE_IDS),
            labels.rates(row["p0"]),
            labels.listing(row["opportunities"]),
            row["rules_version"],
            ";".join(row["skills"] or ()),
            labels.standards(row["skills"] or ()),
            f"{factor:g}" if factor != "" else "",
            _none_blank(row["turn"]),
            labels.word("reason", row["reason"] or ""),
            int(bool(row["drew"])),
            labels.word("source", row["source"]),
            _or_blank(row["warmup_id"]),
            flavour.instant(row["created_at"]),
            labels.word("row_kind", "attempt"),
            "",
            "",
        ]
    yield from _marker_lines(classroom, flavour, labels)


def _marker_lines(
    classroom: Classroom, flavour: Flavour, labels: _Labels
) -> Iterator[list[object]]:
    """Yield one line per group plan event and child: the activity done, the re-check done.

    The activity's day is written as the start of that day (local time): a day, not a moment.
    """
    blank = len(ATTEMPT_HEADER) - 8  # all but class, student, attempt, the times, the 3 last
    members = (
        PlanMember.objects.filter(plan__classroom=classroom)
        .select_related("plan", "recheck")
        .order_by("plan__created_at", "plan_id", "id")
    )
    events: list[tuple[datetime, int, str, str]] = []
    for member in members:
        plan = member.plan
        if plan.activity_done_on is not None:
            day = timezone.make_aware(datetime.combine(plan.activity_done_on, time.min))
            events.append((day, member.student_id, MARKER_ACTIVITY, plan.rule))
        if member.recheck is not None and member.recheck.finished_at is not None:
            events.append(
                (member.recheck.finished_at, member.student_id, MARKER_RECHECK, plan.rule)
            )
    for moment, student, marker, rule in sorted(events, key=lambda e: (e[0], e[1], e[2])):
        stamp, instant = flavour.stamp(moment), flavour.instant(moment)
        cells: list[object] = [labels.class_label, labels.student(student), "", stamp]
        kind, rule_cell = labels.word("row_kind", "marker"), labels.word("rule", rule)
        yield [*cells, *([""] * blank), instant, kind, labels.word("marker", marker), rule_cell]


def student_lines(classroom: Classroom, flavour: Flavour | None = None) -> Iterator[list[object]]:
    """Yield the header, then one line per student: totals, window figures, states, statuses."""
    flavour = flavour or Flavour(MACHINE)
    yield list(STUDENT_HEADER)
    labels = _labels(classroom, flavour)
    class_id = labels.class_label
    # Claims as every page counts them (lessons.evidence.evidence): one per turn, right at
    # the first try; the whole history, as the totals always were.
    totals = {}
    for pk, evidence in evidence_by_student(class_light_rows(classroom)).items():
        rows = evidence.rows
        totals[pk] = (
            evidence.tally.claims,
            evidence.tally.right,
            rows[0].created_at,
            rows[-1].created_at,
            len({row.session_id for row in rows if row.session_id is not None}),
        )
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
            labels.student(pk),
            claims,
            correct,
            f"{correct / claims:.4f}" if claims else "",
            flavour.stamp(first),
            flavour.stamp(last),
            sessions,
            missed.get(pk, 0),
            line.claims,
            f"{line.accuracy:.4f}" if line.accuracy is not None else "",
            *(labels.word("state", line.skills[skill].state) for skill in SKILL_IDS),
            *(labels.word("status", line.evidence[rule].status) for rule in RULE_IDS),
            *(line.evidence[rule].k for rule in RULE_IDS),
            next(iter(line.evidence.values())).n if line.evidence else 0,
        ]


def attempt_dictionary(lang: str) -> list[tuple[str, str]]:
    """Describe every column of the attempt export."""
    described = {
        "class_id": _("Pseudonymous class id (HMAC of the id; the same in every export)."),
        "student_id": _("Pseudonymous student id (HMAC of the id; never the name)."),
        "attempt_id": _("Number of the attempt in this installation."),
        "timestamp_utc": _(
            "When the card was played (ISO 8601, UTC, to the microsecond; in the spreadsheet "
            "export: local time to the second)."
        ),
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
        "turn": _(
            "The student's turn at the table (with table_id): attempts of one turn share it, "
            "refused tries first. Only the first claim of a turn is evidence. Empty: unknown "
            "(the attempt is then a turn of its own)."
        ),
        "reason": _(
            "The student's answer to “Why did you think they were equal?” after a wrong equal "
            "claim: added_same (M1), same_top (M2), same_bottom (M3), guessed; empty if not "
            "asked."
        ),
        "drew": _("1 when the student drew a card later in the same turn, else 0."),
        "source": _(
            "game: a play at a table; probe: a warm-up answer (the hand is the cards shown, "
            "the claim is always equal, and a reason is asked after every answer but counts "
            "only on a wrong one)."
        ),
        "warmup_round": _(
            "The warm-up round of a warm-up answer (answers of one round share it); empty for "
            "a game's play. A rule is resolved only after a clean re-check: a later round."
        ),
        "at": _(
            "The same moment as timestamp_utc, in local time with its offset (ISO 8601, e.g. "
            "2026-12-02T09:15:00+01:00). The diagnosis reads it: a mistake is held only after "
            "a second clean re-check at least %(days)d days after the one that resolved it."
        )
        % {"days": HELD_MIN_DAYS},
        "row_kind": _(
            "attempt: a play or a warm-up answer; marker: an event of a group plan, after the "
            "attempts, with no card (the offline diagnosis leaves it out)."
        ),
        "marker": _(
            "On a marker row: plan_activity (the plan's activity done with the group that "
            "day) or plan_recheck (the child finished the plan's re-check then)."
        ),
        "marker_rule": _("On a marker row: the misconception the group plan works on."),
    }
    # The spreadsheet writes some columns in words (issue 31 §7): said after the machine's.
    in_words = {
        "session_id": _(
            "In the spreadsheet: a warm-up answer's session is its round's; practice says so."
        ),
        "hand": _("In the spreadsheet: the cards separated by commas."),
        "p0": _("In the spreadsheet: each rule and its rate, separated by commas."),
        "opportunities": _("In the spreadsheet: the rules separated by commas."),
        "standards": _(
            "In the spreadsheet: what the French programme (cycle 3 annual benchmarks) asks "
            "for these skills, in words."
        ),
        "source": _("In the spreadsheet: game or warm-up, in words."),
        "row_kind": _("In the spreadsheet: card played or group plan, in words."),
    }
    for column, note in in_words.items():
        described[column] = f"{described[column]} {note}"
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
        "first_play_utc": _("First play (ISO 8601, UTC, to the microsecond)."),
        "last_play_utc": _("Last play (ISO 8601, UTC, to the microsecond)."),
        "sessions": _("Class sessions with at least one claim."),
        "missed_equivalences": _("Draws while holding a card equal to the reference."),
        "window_claims": _(
            "Claims in the evidence window (the %(days)d days up to the class's last play)."
        )
        % {"days": WINDOW_DAYS},
        "window_accuracy": _("Accuracy in the evidence window."),
        "wrong_claims_window": _(
            "Wrong “equal” first claims of a turn in the evidence window (n of every k/n)."
        ),
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
            text = _(
                "Status of %(rule)s in the window, from lessons.diagnosis.diagnose(): likely, "
                "emerging, resolved, held (resolved, then a second clean re-check at least a "
                "week later), none or not_possible."
            ) % {"rule": f"{rule.id} {rule.name[lang]}"}
        elif column.startswith("k_"):
            rule = RULES_BY_ID[column[2:]]
            text = _("Wrong first claims of a turn in the window that fit %(rule)s (k).") % {
                "rule": f"{rule.id} {rule.name[lang]}"
            }
        else:
            text = described[column]
        columns.append((column, text))
    return columns
