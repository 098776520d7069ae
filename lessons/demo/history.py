"""Write simulated class histories into the attempt log, fast (demo data and benchmark).

Turns come from lessons.demo.simulate. For large counts, plays are drawn from pools of
pre-tagged plays (one pool per error type), since tagging every turn afresh costs far more
than storing it; rows go in with executemany (SQLite) or COPY (PostgreSQL).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final

from django.db import connection

from lessons.demo.simulate import (
    ERROR_TYPES,
    SimulatedMiss,
    SimulatedPlay,
    fade_at,
    profile_for,
    simulate_turn,
)
from lessons.diagnosis import RULES_VERSION
from lessons.models import Attempt, ClassSession, MissedEquivalence, Student

COLOURS: Final = "rjvb"
BATCH: Final = 20_000
ATTEMPT_COLUMNS: Final = (
    "classroom_id",
    "student_id",
    "session_id",
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
    "tags",
    "p0",
    "opportunities",
    "skills",
    "hand",
    "response_ms",
    "rules_version",
)
MISS_COLUMNS: Final = (
    "classroom_id",
    "student_id",
    "session_id",
    "created_at",
    "reference",
    "equal_cards",
    "rules_version",
)

# One column value as the database driver takes it (JSON columns travel as text).
Cell = int | float | str | datetime | None
Row = tuple[Cell, ...]
# Both kinds of row hold their time in the same column.
TIME_INDEX: Final = ATTEMPT_COLUMNS.index("created_at")
assert MISS_COLUMNS.index("created_at") == TIME_INDEX


@dataclass
class PlayPool:
    """Pre-tagged plays per error type ("correct" for right claims), to sample from."""

    plays: dict[str, list[SimulatedPlay]] = field(default_factory=dict)
    misses: list[SimulatedMiss] = field(default_factory=list)

    @classmethod
    def build(cls, rng: random.Random, size: int = 600) -> PlayPool:
        """Simulate `size` plays of each kind (right claims, each error type)."""
        pool = cls()
        kinds = ["correct", *(e for e in ERROR_TYPES if e != "miss")]
        for kind in kinds:
            profile = {} if kind == "correct" else {kind: 1.0}
            found: list[SimulatedPlay] = []
            for _turn in range(size * 20):
                turn = simulate_turn(rng, profile)
                if isinstance(turn, SimulatedPlay) and (kind == "correct") == (
                    turn.outcome != "wrong"
                ):
                    found.append(turn)
                    if len(found) >= size:
                        break
            pool.plays[kind] = found
        while len(pool.misses) < size:
            turn = simulate_turn(rng, {"miss": 1.0})
            if isinstance(turn, SimulatedMiss):
                pool.misses.append(turn)
        return pool

    def turn(
        self, rng: random.Random, profile_name: str, progress: float
    ) -> SimulatedPlay | SimulatedMiss:
        """Draw one play (or miss) for a student of this profile at this point of the year."""
        profile = profile_for(profile_name)
        fade = fade_at(profile_name, progress)
        roll, acc = rng.random(), 0.0
        for error, odds in profile.items():
            acc += odds * fade
            if roll < acc:
                if error == "miss":
                    return rng.choice(self.misses)
                if self.plays.get(error):
                    return rng.choice(self.plays[error])
                break
        return rng.choice(self.plays["correct"])


@dataclass(frozen=True)
class PlannedSession:
    """A session to fill: who attended and when it started."""

    session: ClassSession
    students: Sequence[tuple[Student, str]]  # (student, profile name)
    turns_per_student: int
    progress: float = 0.0


def _card_code(played: tuple[int, int], rng: random.Random) -> str:
    return f"{played[0]}/{played[1]}{rng.choice(COLOURS)}"


def _response_ms(rng: random.Random, wrong: bool) -> int:
    # Right answers on hard pairs are slower; wrong ones are often quick guesses.
    base = 5200 if not wrong else 4300
    return int(min(60_000, max(800, rng.lognormvariate(0, 0.45) * base)))


def session_rows(
    planned: PlannedSession,
    rng: random.Random,
    pool: PlayPool | None = None,
) -> tuple[list[Row], list[Row]]:
    """Return (attempt rows, missed-equivalence rows) for one session, in column order.

    Without a pool every turn is simulated and tagged afresh (slower, used by the demo).
    """
    attempts: list[Row] = []
    misses: list[Row] = []
    session = planned.session
    for student, profile_name in planned.students:
        moment = session.started_at + timedelta(seconds=rng.randint(20, 120))
        made = 0
        guard = planned.turns_per_student * 8
        while made < planned.turns_per_student and guard:
            guard -= 1
            if pool is not None:
                turn: SimulatedPlay | SimulatedMiss | None = pool.turn(
                    rng, profile_name, planned.progress
                )
            else:
                turn = simulate_turn(
                    rng,
                    profile_for(profile_name),
                    fade=fade_at(profile_name, planned.progress),
                )
            moment += timedelta(seconds=rng.randint(15, 50))
            if turn is None:
                continue
            if isinstance(turn, SimulatedMiss):
                misses.append(
                    (
                        session.classroom_id,
                        student.pk,
                        session.pk,
                        moment,
                        f"{turn.reference[0]}/{turn.reference[1]}",
                        turn.equal_cards,
                        RULES_VERSION,
                    )
                )
                continue
            made += 1
            attempts.append(
                (
                    session.classroom_id,
                    student.pk,
                    session.pk,
                    moment,
                    turn.reference[0],
                    turn.reference[1],
                    None,
                    turn.played[0],
                    turn.played[1],
                    _card_code(turn.played, rng),
                    turn.claim,
                    turn.claim_source,
                    turn.outcome,
                    turn.tags,
                    turn.p0,
                    turn.opportunities,
                    turn.skills,
                    turn.hand,
                    _response_ms(rng, turn.outcome == "wrong"),
                    RULES_VERSION,
                )
            )
    return attempts, misses


def row_time(row: Row) -> datetime:
    """Return a row's `created_at` (the same column in attempt and missed-equivalence rows)."""
    moment = row[TIME_INDEX]
    assert isinstance(moment, datetime), moment
    return moment


def _adapted(rows: Iterable[Row]) -> Iterator[Row]:
    adapt = connection.ops.adapt_datetimefield_value
    for row in rows:
        values = list(row)
        values[TIME_INDEX] = adapt(row_time(row))
        yield tuple(values)


def insert_rows(model: type[Attempt] | type[MissedEquivalence], rows: list[Row]) -> None:
    """Insert rows (columns as ATTEMPT_COLUMNS or MISS_COLUMNS; JSON as text) in batches."""
    columns = ATTEMPT_COLUMNS if model is Attempt else MISS_COLUMNS
    table = model._meta.db_table
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The driver's cursor (undocumented attribute): tests/unoclass/test_private_apis.py
            # ::test_django_cursor_wrapper_cursor.
            raw = cursor.cursor
            with raw.copy(f"COPY {connection.ops.quote_name(table)} ({quoted}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        sql = f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) VALUES ({marks})"
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, list(_adapted(rows[start : start + BATCH])))


def session_moment(start: datetime, rng: random.Random) -> datetime:
    """Return a lesson start on a school day morning or early afternoon near `start`."""
    day = start
    while day.weekday() >= 5:
        day += timedelta(days=1)
    hour = rng.choice((9, 10, 11, 14, 15))
    return day.replace(hour=hour, minute=rng.choice((0, 15, 30)), second=0, microsecond=0)
