"""Load attempt rows for reports in as few queries as possible, and diagnose them.

Statuses and skill states read a recent slice of the log, the *evidence window*: the
WINDOW_DAYS days up to the classroom's latest attempt (so a class back from holidays still
sees its last lessons). A year of plays would otherwise dilute what a student does now, and
the window keeps every dashboard query bounded by an index range.

Every misconception status any page, report or export shows comes from statuses_of(): the
rows become diagnose()'s turns through lessons.diagnosis.turns_from_attempts (the function a
researcher uses on the attempts CSV), and lessons.diagnosis.diagnose() gives the statuses.
Those are cached per student (status_cache_key: the rows' content, the rules and the model's
levels), so a page seen again costs no diagnosis, and a new or changed attempt a new one.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from hashlib import blake2b
from typing import Any, Final

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connections
from django.db.models import F, Max, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engine.fractions import FractionValue
from lessons.diagnosis import (
    DEFAULT_DECK_VALUES,
    REASONS,
    RULE_IDS,
    RULES_VERSION,
    SKILL_IDS,
    Diagnosis,
    Opportunity,
    SkillProgress,
    diagnose,
    skill_progress,
    skill_tags,
    turns_from_attempts,
)
from lessons.diagnosis import model as diagnosis_model
from lessons.models import Attempt, Classroom

WINDOW_DAYS: Final = 28
WRONG: Final = Attempt.Outcome.WRONG.value

# Columns of a full evidence row (with the JSON fields) and of a light row (without them).
EVIDENCE_FIELDS: Final = (
    "student_id",
    "session_id",
    "table_id",
    "created_at",
    "reference_num",
    "reference_den",
    "named_denominator",
    "played_num",
    "played_den",
    "claim",
    "outcome",
    "response_ms",
    "id",
    "turn",
    "claim_source",
    "reason",
    "drew",
    "source",
    "warmup_id",
    "tags",
    "opportunities",
    "hand",
)
# The JSON columns come last, from "tags" on: a light row stops before them.
PLAIN: Final = EVIDENCE_FIELDS.index("tags")
LIGHT_FIELDS: Final = EVIDENCE_FIELDS[:PLAIN]
JSON_FIELDS: Final = EVIDENCE_FIELDS[PLAIN:]
ASKED: Final = Attempt.ClaimSource.ASKED.value
PROBE: Final = Attempt.Source.PROBE.value
# The JSON columns come back as text and are decoded through a cache: the same few hundred
# tag lists and chance-rate maps repeat across thousands of attempts, and Django's per-row
# JSON converter was the largest cost of the class dashboard.
_RAW_JSON: Final = {f"{name}_raw": Cast(F(name), TextField()) for name in JSON_FIELDS}


@lru_cache(maxsize=1 << 14)
def _decoded(text: str | None) -> Any:
    return json.loads(text) if text else None


@dataclass(frozen=True)
class Window:
    """The evidence window: attempts from `start` (inclusive) to `end`."""

    start: datetime | None
    end: datetime | None
    days: int = WINDOW_DAYS

    @property
    def empty(self) -> bool:
        """Tell whether the class has no attempt at all."""
        return self.end is None


@dataclass(slots=True)
class Row:
    """One attempt as reports read it (tags, opportunities and hand only on full rows).

    The stored chance rates (p0) are not read: diagnose() computes them from the hand, and
    fetching and decoding them cost the class dashboard time for nothing.
    """

    student_id: int
    session_id: int | None
    table_id: int | None
    created_at: datetime
    reference: FractionValue | None
    named_denominator: int | None
    played: FractionValue
    claim: str
    outcome: str
    response_ms: int | None
    day: date  # the local day of the attempt
    correct: bool  # whether the claim was right
    id: int = 0
    turn: int | None = None
    asked: bool = False
    reason: str | None = None
    drew: bool = False
    tags: tuple[str, ...] = ()
    opportunities: frozenset[str] = frozenset()
    hand: tuple[str, ...] = ()
    probe: bool = False  # a warm-up answer (lessons.warmup), not a game's play
    warmup_id: int | None = None  # its warm-up round

    @property
    def skills(self) -> tuple[str, ...]:
        """Return the skills this claim exercised."""
        return skills_of(self.reference, self.played, self.claim)


@lru_cache(maxsize=4096)
def skills_of(
    reference: FractionValue | None, played: FractionValue, claim: str
) -> tuple[str, ...]:
    """Return the skills of a claim.

    After a named denominator there is no reference fraction: the card against itself has
    the named denominator, so a "denominator" claim exercises S1 (and S6 for a card worth 1
    or more); an "equal" claim exercises nothing.
    """
    if reference is None:
        return tuple(skill_tags(played, played)) if claim == Attempt.Claim.DENOMINATOR else ()
    return tuple(skill_tags(reference, played))


def _row(values: Sequence[Any], zone: tzinfo) -> Row:
    (student, session, table, created, rn, rd, named, pn, pd, claim, outcome, rt) = values[:12]
    pk, turn, source, reason, drew, origin, warmup = values[12:PLAIN]
    if created.tzinfo is None:
        # SQLite gives back the stored UTC time without its zone (Django's converter, skipped
        # here, would add it).
        created = created.replace(tzinfo=UTC)
    full = len(values) > PLAIN
    return Row(
        student,
        session,
        table,
        created,
        (rn, rd) if rn is not None and rd is not None else None,
        named,
        (pn, pd),
        claim,
        outcome,
        rt,
        created.astimezone(zone).date(),
        outcome != WRONG,
        pk,
        turn,
        source == ASKED,
        reason,
        bool(drew),
        _tags(values[PLAIN]) if full else (),
        _opportunities(values[PLAIN + 1]) if full else frozenset(),
        _tags(values[PLAIN + 2]) if full else (),
        origin == PROBE,
        warmup,
    )


@lru_cache(maxsize=1 << 12)
def _tags(text: str | None) -> tuple[str, ...]:
    return tuple(_decoded(text) or ())


@lru_cache(maxsize=1 << 14)
def _opportunities(text: str | None) -> frozenset[str]:
    return frozenset(_decoded(text) or ())


def _rows(query: Any) -> list[Row]:
    """Run a values_list query without Django's per-value converters and build rows.

    On a class's window (thousands of rows) the converters and the per-row time zone lookup
    cost more than the query itself.
    """
    # Undocumented: tests/unoclass/test_private_apis.py::test_django_query_get_compiler_as_sql.
    sql, params = query.query.get_compiler(using=query.db).as_sql()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    zone = timezone.get_current_timezone()
    return [_row(values, zone) for values in fetched]


def _values(query: Any, full: bool) -> Any:
    """Select the row columns; the JSON ones as text (decoded by _row through a cache)."""
    if not full:
        return query.values_list(*LIGHT_FIELDS)
    return query.annotate(**_RAW_JSON).values_list(*LIGHT_FIELDS, *_RAW_JSON)


# Where attempts come from (the dashboards' ?source=): class sessions, practice, or both.
SOURCE_BOTH: Final = "both"
SOURCE_SESSIONS: Final = "sessions"
SOURCE_PRACTICE: Final = "practice"
SOURCES: Final = (SOURCE_BOTH, SOURCE_SESSIONS, SOURCE_PRACTICE)


def of_source(query: Any, source: str) -> Any:
    """Keep the attempts of class sessions, of practice, or both.

    Practice is every attempt without a class session: a practice table's plays (alone against
    robots, assigned or not) are logged with no session (lessons.attempts.log).
    """
    if source == SOURCE_SESSIONS:
        return query.filter(session__isnull=False)
    if source == SOURCE_PRACTICE:
        return query.filter(session__isnull=True)
    return query


def evidence_window(classroom: Classroom) -> Window:
    """Return the classroom's evidence window (one indexed query)."""
    latest = Attempt.objects.filter(classroom=classroom).aggregate(latest=Max("created_at"))[
        "latest"
    ]
    if latest is None:
        return Window(None, None)
    return Window(latest - timedelta(days=WINDOW_DAYS), latest)


def class_rows(classroom: Classroom, window: Window, *, source: str = SOURCE_BOTH) -> list[Row]:
    """Return the window's attempts of a class with their evidence, oldest first."""
    if window.empty:
        return []
    # Time order follows the (classroom, created_at) index: no sort; by_student() keeps it.
    query = Attempt.objects.filter(classroom=classroom, created_at__gte=window.start).order_by(
        "created_at", "id"
    )
    return _rows(_values(of_source(query, source), True))


def student_rows(
    student_id: int,
    *,
    since: datetime | None = None,
    full: bool = True,
    source: str = SOURCE_BOTH,
) -> list[Row]:
    """Return one student's attempts, oldest first (since a time; light rows skip the JSON)."""
    query = of_source(Attempt.objects.filter(student_id=student_id), source)
    if since is not None:
        query = query.filter(created_at__gte=since)
    return _rows(_values(query.order_by("created_at", "id"), full))


def session_rows(session_id: int) -> list[Row]:
    """Return a session's attempts with their evidence, per student, oldest first."""
    query = Attempt.objects.filter(session_id=session_id).order_by("student_id", "created_at", "id")
    return _rows(_values(query, True))


def students_rows_between(
    student_ids: Sequence[int], since: datetime, until: datetime
) -> list[Row]:
    """Return several students' attempts from `since` to `until`, per student, oldest first."""
    query = Attempt.objects.filter(
        student_id__in=student_ids, created_at__gte=since, created_at__lte=until
    ).order_by("student_id", "created_at", "id")
    return _rows(_values(query, True))


def class_light_rows(classroom: Classroom) -> list[Row]:
    """Return every attempt of a class, light rows (claims, not tags), per student, oldest first."""
    query = Attempt.objects.filter(classroom=classroom).order_by("student_id", "created_at", "id")
    return _rows(_values(query, False))


def session_light_rows(session_ids: Sequence[int]) -> list[Row]:
    """Return light rows of several sessions, per student, oldest first (claims, not tags)."""
    query = Attempt.objects.filter(session_id__in=session_ids).order_by(
        "student_id", "created_at", "id"
    )
    return _rows(_values(query, False))


def by_student(rows: Iterable[Row]) -> dict[int, list[Row]]:
    """Group rows by student, keeping their order."""
    grouped: dict[int, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row.student_id, []).append(row)
    return grouped


@dataclass(frozen=True, slots=True)
class Check:
    """One warm-up round that checked a rule again and passed: its day, traps offered, taken."""

    day: date  # the local day of the round's first answer
    offers: int
    taken: int


@dataclass(frozen=True, slots=True)
class RuleStatus:
    """One rule's status for one student, as lessons.diagnosis.diagnose() gives it."""

    rule: str
    status: str
    k: int  # wrong first claims that fit the rule
    n: int  # wrong first claims considered
    expected: float  # what chance alone would give
    p_value: float | None
    references: int
    reasons: int
    opportunities: int
    probes: int
    # The day of the warm-up answer that completed a clean re-check (a "resolved" rule).
    rechecked_on: date | None = None
    # The day of the answer that completed the later round giving "held" (None unless held).
    held_on: date | None = None
    # The re-check rounds that passed since the rule was last likely, the resolving one first.
    checks: tuple[Check, ...] = ()

    @classmethod
    def of(
        cls,
        rule: str,
        figures: dict[str, Any],
        rechecked_on: date | None = None,
        held_on: date | None = None,
    ) -> RuleStatus:
        """Build it from diagnose()'s figures for the rule."""
        return cls(
            rule,
            str(figures["status"]),
            int(figures["k"]),
            int(figures["n"]),
            float(figures["expected"]),
            figures["p_value"],
            int(figures["references"]),
            int(figures["reasons"]),
            int(figures["opportunities"]),
            int(figures["probes"]),
            rechecked_on,
            held_on,
            _checks(figures.get("checks")),
        )


def _checks(checks: object) -> tuple[Check, ...]:
    """Return diagnose()'s "checks" as Check days in the current time zone (untimed left out)."""
    if not isinstance(checks, list):
        return ()
    zone = timezone.get_current_timezone()
    out: list[Check] = []
    for check in checks:
        at = check.get("at") if isinstance(check, dict) else None
        if isinstance(at, str):
            day = datetime.fromisoformat(at).astimezone(zone).date()
            out.append(Check(day, int(check["offers"]), int(check["taken"])))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _value(card: FractionValue) -> str:
    return f"{card[0]}/{card[1]}"


def attempt_records(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """Return rows as the attempt records lessons.diagnosis.turns_from_attempts reads."""
    return [
        {
            "id": row.id,
            "table": row.table_id,
            "turn": row.turn,
            "reference": None if row.reference is None else _value(row.reference),
            "denominator": row.named_denominator,
            "hand": row.hand,
            "played": _value(row.played),
            "claim": row.claim,
            "asked": row.asked,
            # Only attempt_set_reason writes reasons; a stray code is not the student's answer.
            "reason": row.reason if row.reason in REASONS else None,
            "correct": row.correct,
            "drew": row.drew,
            "source": PROBE if row.probe else "game",
            "round": row.warmup_id,
            # The claim's time with its offset: a re-check a week after the resolving one
            # can only be told from timed rounds ("held").
            "at": row.created_at.isoformat(),
        }
        for row in rows
    ]


def turns_of(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Return one student's full rows (oldest first) as diagnose()'s turns."""
    return turns_from_attempts(attempt_records(rows))


# Bump when diagnose() would give other figures for the same turns while RULES_VERSION and
# the model's levels (in _MODEL_KEY) stay the same: cached statuses are then not reused.
STATUS_CACHE_VERSION: Final = 3  # 3: turns carry "at" ("held")
STATUS_CACHE_SECONDS: Final = 24 * 3600
STATUS_CACHE_ALIAS: Final = "diagnosis"
_MODEL_KEY: Final = blake2b(
    repr(
        (
            STATUS_CACHE_VERSION,
            RULES_VERSION,
            DEFAULT_DECK_VALUES,
            diagnosis_model.ALPHA_LIKELY,
            diagnosis_model.ALPHA_LIKELY_REASONS,
            diagnosis_model.ALPHA_EMERGING,
            diagnosis_model.LIKELY_MIN_REFERENCES,
            diagnosis_model.EMERGING_MIN_MATCHES,
            diagnosis_model.REASON_WEIGHT,
            diagnosis_model.HABIT_FLOOR,
            diagnosis_model.RESOLVED_MISS,
            diagnosis_model.RESOLVED_MIN_CLEAN,
            diagnosis_model.HELD_MIN_DAYS,
            diagnosis_model.ALPHA_SHARES,
        )
    ).encode(),
    digest_size=8,
).hexdigest()
# Without a "diagnosis" cache in settings.CACHES, statuses go to this process's own memory
# cache: not to "default", whose sign-in limits they would push out of a full LocMemCache.
_LOCAL_STATUS_CACHE: Final = LocMemCache(
    "unoclass-diagnosis-statuses", {"OPTIONS": {"MAX_ENTRIES": 4096}}
)


def status_cache() -> BaseCache:
    """Return the cache that holds diagnosed statuses."""
    if STATUS_CACHE_ALIAS in settings.CACHES:
        return caches[STATUS_CACHE_ALIAS]
    return _LOCAL_STATUS_CACHE


def status_cache_key(rows: Sequence[Row], cut: int | None = None) -> str:
    """Return the cache key of one student's statuses over `rows` (read at `cut` too).

    The student, the row count and the latest attempt id name it; a digest of every column
    diagnose() reads (reasons and "drew" change after the attempt is written) makes it change
    with any attempt; _MODEL_KEY with the rules version, the model's levels and the deck.
    """
    content = [
        (
            row.id,
            row.table_id,
            row.turn,
            row.reference,
            row.named_denominator,
            row.hand,
            row.played,
            row.claim,
            row.asked,
            row.reason,
            row.correct,
            row.drew,
            row.probe,
            row.warmup_id,
            row.created_at,
        )
        for row in rows
    ]
    digest = blake2b(pickle.dumps(content, protocol=5), digest_size=16).hexdigest()
    student = rows[0].student_id if rows else 0
    latest = rows[-1].id if rows else 0
    return f"statuses:{_MODEL_KEY}:{student}:{len(rows)}:{latest}:{cut}:{digest}"


def probe_day(turns: Sequence[dict[str, Any]], rows: Sequence[Row], index: object) -> date | None:
    """Return the day of the warm-up answer at `index` in `turns` (None if not one).

    Every warm-up answer is one probe turn, in the rows' order, so the n-th probe turn is the
    n-th warm-up row.
    """
    if not isinstance(index, int) or not 0 <= index < len(turns):
        return None
    if turns[index].get("source") != PROBE:
        return None
    nth = sum(1 for turn in turns[:index] if turn.get("source") == PROBE)
    probes = [row for row in rows if row.probe]
    return probes[nth].day if nth < len(probes) else None


def recheck_day(
    turns: Sequence[dict[str, Any]], rows: Sequence[Row], figures: dict[str, Any]
) -> date | None:
    """Return the day of the warm-up answer that completed a rule's clean re-check, or None.

    diagnose() names it by its index in `turns` ("rechecked_at_turn").
    """
    return probe_day(turns, rows, figures.get("rechecked_at_turn"))


def rule_status(
    rule: str, turns: Sequence[dict[str, Any]], rows: Sequence[Row], figures: dict[str, Any]
) -> RuleStatus:
    """Return one rule's RuleStatus from diagnose()'s figures, with its days read from rows."""
    return RuleStatus.of(
        rule,
        figures,
        recheck_day(turns, rows, figures),
        probe_day(turns, rows, figures.get("held_at_turn")),
    )


def statuses_of(rows: Sequence[Row]) -> dict[str, RuleStatus]:
    """Return every rule's status for one student's full rows (oldest first): diagnose()."""
    cache, key = status_cache(), status_cache_key(rows)
    cached = cache.get(key)
    if cached is not None:
        return dict(cached)
    turns = turns_of(rows)
    result = diagnose(turns)
    statuses = {rule: rule_status(rule, turns, rows, result[rule]) for rule in RULE_IDS}
    cache.set(key, statuses, STATUS_CACHE_SECONDS)
    return statuses


def statuses_then_and_now(
    rows: Sequence[Row], cut: int
) -> tuple[dict[str, str], dict[str, RuleStatus]]:
    """Return each rule's status after rows[:cut] and after all rows, in one pass.

    The same model as diagnose() (lessons.diagnosis.Diagnosis, which diagnose() feeds), read
    at the cut and at the end; `cut` must fall between two turns (a session boundary).
    """
    cache, key = status_cache(), status_cache_key(rows, cut)
    cached = cache.get(key)
    if cached is not None:
        then, now = cached
        return dict(then), dict(now)
    diagnosis = Diagnosis()
    for turn in turns_of(rows[:cut]):
        diagnosis.add(turn)
    then = {rule: diagnosis.status(rule) for rule in RULE_IDS}
    for turn in turns_of(rows[cut:]):
        diagnosis.add(turn)
    result = diagnosis.result()
    turns = turns_of(rows)
    now = {rule: rule_status(rule, turns, rows, result[rule]) for rule in RULE_IDS}
    cache.set(key, (then, now), STATUS_CACHE_SECONDS)
    return then, now


def skills_from(rows: Iterable[Row]) -> dict[str, SkillProgress]:
    """Return every skill's progress for one student's rows (oldest first).

    Same result as lessons.diagnosis.progress_by_skill, with each pair's skills cached.
    """
    per_skill: dict[str, list[Opportunity]] = {skill: [] for skill in SKILL_IDS}
    # Opportunities are immutable and few differ (right or not, per session and day): share them.
    shared: dict[tuple[bool, int | None, date], Opportunity] = {}
    for row in rows:
        skills = row.skills
        if skills:
            key = (row.correct, row.session_id, row.day)
            opportunity = shared.get(key)
            if opportunity is None:
                opportunity = shared[key] = Opportunity(*key)
            for skill in skills:
                per_skill[skill].append(opportunity)
    return {skill: skill_progress(per_skill[skill]) for skill in SKILL_IDS}


def accuracy(rows: Iterable[Row]) -> tuple[int, int]:
    """Return (correct, claims)."""
    correct = total = 0
    for row in rows:
        total += 1
        correct += row.correct
    return correct, total


def longest_wrong_run(rows: Iterable[Row]) -> int:
    """Return the longest run of consecutive wrong claims."""
    best = run = 0
    for row in rows:
        run = 0 if row.correct else run + 1
        best = max(best, run)
    return best
