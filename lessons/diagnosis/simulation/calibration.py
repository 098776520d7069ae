"""Simulated students for calibrating the status model (bench/diagnosis.py and its tests).

Every turn is a situation of a real game: the top card, the denominator in force and the hand
of the player whose turn it was, taken from seeded four-player games of the engine's
heuristic bots on the 116-card fractions deck (GAMES games, every turn of every seat). So hand
sizes, the share of turns after a Joker (no reference fraction) and which cards meet are the
game's own. Students:

- **no misconception**: on every turn where a wrong play exists, a card drawn at random from
  the wrong options (the worst case: the most evidence per turn); `different_denominators`
  draws among the cards of another denominator only (a student who never mis-names a
  same-denominator card), a departure from the chance model the bench measures too;
- **habit R**: on HABIT_RATE of the turns where a card fitting R is held, one of those cards;
  otherwise a right play if one is held, else a draw (never another wrong play).

After a refused card, a student tries one more card with chance PROBE_RATE (a probe: never
weighed). With reasons on, every refused first "equal" claim is followed by a reason: a random
one for a student without a misconception, the habit's own with chance HONEST_REASONS (else a
random one) for a habit student. Each student is fed through Diagnosis, the model diagnose()
runs, and its statuses are read after every turn.

**Aimed dealing**: `Student(aim=R)` takes its turns from games dealt with the
engine's aimed dealing at rule R (option aim_pairs from lessons.diagnosis.decks, seat 0 aimed;
the turns of seat 0 only), so the same students can be compared with ordinary and aimed
dealing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from games.engine.bots import play_bot_step
from games.engine.cards import FRACTION
from games.engine.fractions import parse_fraction
from games.engine.game import Game

from ..classifier import CLAIM_EQUAL, tags_for
from ..decks import aim_pairs
from ..evidence import STATUS_EMERGING, STATUS_RESOLVED
from ..model import Diagnosis
from ..reasons import REASON_FOR_RULE, REASONS

HABIT_RATE = 0.3
HONEST_REASONS = 0.75
PROBE_RATE = 0.5
GAMES = 300
PLAYERS = 4

Situation = tuple[str | None, int, tuple[str, ...]]
_REASON_CODES: tuple[str, ...] = tuple(REASONS)
# Rules a habit also shows by construction (M0 is an umbrella; M2a and M3a are parts of M2, M3).
RELATED: dict[str, frozenset[str]] = {
    "M1": frozenset({"M1"}),
    "M2": frozenset({"M2", "M2a"}),
    "M3": frozenset({"M3", "M3a"}),
}


@dataclass(frozen=True)
class Student:
    """A simulated student."""

    habit: str | None = None
    reasons: bool = False
    rate: float = HABIT_RATE
    different_denominators: bool = False
    stop_after_likely: bool = False
    aim: str | None = None  # turns from games dealt aimed at this rule (aimed_situations)
    until_likely: bool = False  # stop the run once the habit is "likely" (saves time)


@dataclass
class Outcome:
    """What the model showed one simulated student (turn indexes from 0)."""

    likely_at: dict[str, int] = field(default_factory=dict)
    resolved_at: dict[str, int] = field(default_factory=dict)
    final: dict[str, str] = field(default_factory=dict)
    stopped_at: int | None = None


def _value(card: str) -> Fraction:
    num, den = parse_fraction(card)
    return Fraction(num, den)


@lru_cache(maxsize=1)
def situations() -> tuple[Situation, ...]:
    """Return (reference, denominator, fraction hand) of every turn of GAMES seeded bot games."""
    return _situations({}, None)


@lru_cache(maxsize=8)
def aimed_situations(rule: str) -> tuple[Situation, ...]:
    """Return the turns of seat 0 in GAMES seeded bot games dealt aimed at `rule` (seat 0)."""
    return _situations({"aim_pairs": aim_pairs(rule), "aim_seat": 0}, 0)


def _situations(options: dict[str, object], only: int | None) -> tuple[Situation, ...]:
    found: list[Situation] = []
    for seed in range(GAMES):
        game = Game.new("fractions", PLAYERS, options=options, seed=seed)
        rng = random.Random(seed)
        for _ in range(1000):
            seat = game.acting_seat()
            if seat is None:
                break
            view = game.view(seat)
            if view.get("turn") == seat and view.get("denominator") and only in (None, seat):
                hand = tuple(FRACTION[c] for c in view.get("hand") or [] if c in FRACTION)
                found.append((view.get("reference"), int(view["denominator"]), hand))
            if play_bot_step(game, seat, "heuristic", rng) is None:
                break
    return tuple(found)


def _attempt(
    reference: str | None,
    denominator: int,
    card: str,
    *,
    mistaken: bool,
    reason: str | None = None,
) -> dict[str, object]:
    """Return a play as the page logs it: the rule inferred for another denominator, asked
    when both rules could apply (a mistaken student says "equal", the others "denominator")."""
    if reference is None or parse_fraction(card)[1] != denominator:
        return {"played": card, "claim": None, "asked": False, "reason": reason}
    claim = CLAIM_EQUAL if mistaken else "denominator"
    return {"played": card, "claim": claim, "asked": True, "reason": reason}


def _turn(rng: random.Random, student: Student, number: int, habit_on: bool) -> dict[str, object]:
    pool = situations() if student.aim is None else aimed_situations(student.aim)
    reference, denominator, held = pool[rng.randrange(len(pool))]
    hand = list(held)
    if reference is None:
        # After a Joker: a card of the named denominator, else a draw (no equivalence shown).
        right = [c for c in hand if parse_fraction(c)[1] == denominator]
        play = [_attempt(None, denominator, rng.choice(right), mistaken=False)] if right else []
        return _as_turn(number, None, denominator, hand, play, drew=not right)
    a, b = parse_fraction(reference)
    target = _value(reference)
    right = [c for c in hand if _value(c) == target or parse_fraction(c)[1] == b]
    wrong = [c for c in hand if _value(c) != target]
    choice, reason_rule = _wrong_choice(rng, student, reference, wrong, habit_on)
    attempts: list[dict[str, object]] = []
    if choice is None:
        if right:
            attempts.append(_attempt(reference, b, rng.choice(right), mistaken=False))
        return _as_turn(number, reference, b, hand, attempts, drew=not right)
    reason = _reason(rng, student, reason_rule)
    attempts.append(_attempt(reference, b, choice, mistaken=True, reason=reason))
    others = [c for c in hand if c != choice]
    if others and rng.random() < PROBE_RATE:
        probe = rng.choice(others)
        attempts.append(_attempt(reference, b, probe, mistaken=False))
        if probe in right:
            return _as_turn(number, reference, b, hand, attempts, drew=False)
    return _as_turn(number, reference, b, hand, attempts, drew=True)


def _wrong_choice(
    rng: random.Random, student: Student, reference: str, wrong: list[str], habit_on: bool
) -> tuple[str | None, str | None]:
    """Return the wrong card the student plays this turn (None: none) and the habit behind it.

    Without a habit: any wrong card (of another denominator for some students); with one: a
    card that fits it, at the habit's rate, while the habit lasts.
    """
    a, b = parse_fraction(reference)
    if student.habit is None:
        options = wrong
        if student.different_denominators:
            options = [c for c in wrong if parse_fraction(c)[1] != b]
        return (rng.choice(options) if options else None), None
    if habit_on:
        fitting = [c for c in wrong if student.habit in tags_for(a, b, *parse_fraction(c), "equal")]
        if fitting and rng.random() < student.rate:
            return rng.choice(fitting), student.habit
    return None, None


def _reason(rng: random.Random, student: Student, reason_rule: str | None) -> str | None:
    """Return the reason a student gives for a wrong card: honest at HONEST_REASONS, else any."""
    if not student.reasons:
        return None
    honest = reason_rule is not None and rng.random() < HONEST_REASONS
    return REASON_FOR_RULE[reason_rule] if honest and reason_rule else rng.choice(_REASON_CODES)


def _as_turn(
    number: int,
    reference: str | None,
    denominator: int,
    hand: list[str],
    attempts: list[dict[str, object]],
    drew: bool,
) -> dict[str, object]:
    return {
        "turn": number,
        "reference": reference,
        "denominator": denominator,
        "hand": hand,
        "attempts": attempts,
        "drew": drew,
    }


def run_student(student: Student, seed: int, turns: int) -> Outcome:
    """Simulate one student for `turns` turns and record what the model showed."""
    rng = random.Random(seed)
    diagnosis = Diagnosis()
    outcome = Outcome()
    habit_on = True
    for number in range(turns):
        diagnosis.add(_turn(rng, student, number, habit_on))
        for rule in diagnosis.tested:
            track = diagnosis.tracks[rule]
            if track.likely_at is None:
                continue
            outcome.likely_at.setdefault(rule, track.likely_at)
            if rule not in outcome.resolved_at and diagnosis.status(rule) == STATUS_RESOLVED:
                outcome.resolved_at[rule] = number
        if student.stop_after_likely and habit_on and student.habit in outcome.likely_at:
            habit_on = False
            outcome.stopped_at = number
        if student.until_likely and student.habit in outcome.likely_at:
            break
    outcome.final = {rule: diagnosis.status(rule) for rule in diagnosis.tested}
    return outcome


def run_students(student: Student, seeds: Sequence[int], turns: int) -> list[Outcome]:
    """Simulate one student per seed."""
    return [run_student(student, seed, turns) for seed in seeds]


def share(flags: Sequence[bool]) -> float:
    """Return the share of true flags (0 for none)."""
    return sum(flags) / len(flags) if flags else 0.0


def false_likely(outcomes: Sequence[Outcome], within: int) -> float:
    """Share of students shown "likely" for some rule within `within` turns (no misconception)."""
    return share([any(t < within for t in o.likely_at.values()) for o in outcomes])


def false_emerging(outcomes: Sequence[Outcome]) -> float:
    """Share of students with some rule "emerging" at the end (no misconception)."""
    return share([STATUS_EMERGING in o.final.values() for o in outcomes])


def found(outcomes: Sequence[Outcome], rule: str, within: int) -> float:
    """Share of habit students shown "likely" for their rule within `within` turns."""
    return share([o.likely_at.get(rule, within) < within for o in outcomes])


def median_turns(outcomes: Sequence[Outcome], rule: str) -> float:
    """Median number of turns until "likely" (never: infinity)."""
    times = sorted(o.likely_at[rule] + 1 if rule in o.likely_at else float("inf") for o in outcomes)
    middle = len(times) // 2
    return times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2


def false_resolved(outcomes: Sequence[Outcome], rule: str) -> float:
    """Share of habit students shown "resolved" for their rule while the habit persists."""
    return share([rule in o.resolved_at for o in outcomes])


def other_likely(outcomes: Sequence[Outcome], rule: str) -> float:
    """Share of habit students shown "likely" for a rule unrelated to their habit."""
    related = RELATED.get(rule, frozenset({rule}))
    return share([bool(set(o.likely_at) - related) for o in outcomes])


def recovery(outcomes: Sequence[Outcome], rule: str, within: int) -> tuple[float, float]:
    """Return (share resolved within `within` turns of stopping, median turns to resolve)."""
    stopped = [o for o in outcomes if o.stopped_at is not None]
    times = sorted(
        o.resolved_at[rule] - o.stopped_at
        if rule in o.resolved_at and o.stopped_at is not None and o.resolved_at[rule] > o.stopped_at
        else float("inf")
        for o in stopped
    )
    if not times:
        return 0.0, float("inf")
    middle = len(times) // 2
    median = times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
    return share([t <= within for t in times]), median


def fitting_card_share(rules: Sequence[str], aimed: bool = False) -> dict[str, float]:
    """Return, per rule, the share of game turns where the hand holds a card fitting it
    (aimed: in the games aimed at that rule)."""
    if aimed:
        return {rule: _fitting_share(aimed_situations(rule), rule) for rule in rules}
    pool = situations()
    held = dict.fromkeys(rules, 0)
    for reference, _, hand in pool:
        if reference is None:
            continue
        a, b = parse_fraction(reference)
        tags = {t for c in hand for t in tags_for(a, b, *parse_fraction(c), CLAIM_EQUAL)}
        for rule in rules:
            held[rule] += rule in tags
    return {rule: count / len(pool) for rule, count in held.items()}


def _fitting_share(pool: Sequence[Situation], rule: str) -> float:
    held = 0
    for reference, _, hand in pool:
        if reference is None:
            continue
        a, b = parse_fraction(reference)
        held += any(rule in tags_for(a, b, *parse_fraction(c), CLAIM_EQUAL) for c in hand)
    return held / len(pool)
