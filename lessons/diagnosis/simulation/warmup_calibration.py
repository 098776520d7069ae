"""Simulated students in the warm-up, through probe_next's model and diagnose()'s
(bench/diagnosis.py and its tests).

Each item comes from lessons.diagnosis.probe.WarmUp (what probe_next() returns), each answer is
fed back as a probe turn, and the statuses are the model's (diagnose()'s) after every answer.
Students:

- **random** (`wrong` = 0.4): each answer wrong with chance `wrong`, then a trap drawn at random;
- **habit R at `rate`**: on an item offering R's trap, that trap with chance `rate`, else the
  right card (no other slip);
- **competent**: random with `wrong` = 0.05.

With reasons on, a reason follows each answer the warm-up asks about (lessons.diagnosis.why:
where it informs, now and then besides): the habit's own with chance
calibration.HONEST_REASONS when the habit chose the card, else a random one. Only wrong
answers' reasons are read; an answer not asked about carries none. A **re-check** is a
second round (another round id) for the same student: the habit gone (a competent student)
or still there.
A warm-up may be followed by game turns (calibration._turn: real game situations).

**Timed courses** ("held", issue 31): the same pupil answers several rounds, each stamped with
its time ("at": the round's start plus ITEM_SECONDS an answer, with an offset), the pupil's
habit changing between rounds as in VanLehn's (1982) retests, where bugs came and went:
run_course() plays a schedule of (hours after the first round, the pupil then) and returns the
habit rule's status after each round; held_too_early() tells whether "held" ever came less
than HELD_MIN_DAYS after the round that resolved the rule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from typing import Final

from games.engine.fractions import parse_fraction

from ..classifier import CLAIM_EQUAL, tags_for
from ..evidence import STATUS_HELD, STATUS_LIKELY, STATUS_RESOLVED
from ..model import HELD_MIN_GAP
from ..probe import WarmUp
from ..reasons import REASON_FOR_RULE, REASONS
from ..stream import read_turn
from ..why import Why
from . import calibration as game

_REASON_CODES: tuple[str, ...] = tuple(REASONS)


@dataclass(frozen=True)
class Pupil:
    """A simulated student in the warm-up."""

    habit: str | None = None
    rate: float = 0.5
    wrong: float = 0.0  # chance of a random wrong answer (no habit, or besides the habit)
    reasons: bool = False
    level: str = "full"


@dataclass
class RoundOutcome:
    """What one round showed (item indexes from 0 within the round)."""

    items: int = 0
    likely_at: dict[str, int] = field(default_factory=dict)
    final: dict[str, str] = field(default_factory=dict)
    resolved: bool = False  # the habit's rule resolved at the end (re-checks)
    asked: int = 0  # answers followed by "why?" (lessons.diagnosis.why)


def _value(card: str) -> Fraction:
    num, den = parse_fraction(card)
    return Fraction(num, den)


def answer(
    rng: random.Random, pupil: Pupil, item: dict[str, object], number: int, round_id: object
) -> dict[str, object]:
    """Return the pupil's answer to an item as a probe turn."""
    reference = str(item["reference"])
    options = [str(card) for card in item["options"]]  # type: ignore[attr-defined]
    a, b = parse_fraction(reference)
    target = _value(reference)
    right = next(card for card in options if _value(card) == target)
    traps = [card for card in options if card != right]
    choice, reason_rule = right, None
    if pupil.habit is not None:
        fitting = [c for c in traps if pupil.habit in tags_for(a, b, *parse_fraction(c), "equal")]
        if fitting and rng.random() < pupil.rate:
            choice, reason_rule = rng.choice(fitting), pupil.habit
    if choice == right and pupil.wrong and rng.random() < pupil.wrong:
        choice = rng.choice(traps)
    reason = None
    if pupil.reasons:
        honest = reason_rule is not None and rng.random() < game.HONEST_REASONS
        reason = REASON_FOR_RULE[reason_rule] if honest and reason_rule else None
        reason = reason or rng.choice(_REASON_CODES)
    turn: dict[str, object] = {
        "turn": number,
        "source": "probe",
        "reference": reference,
        "denominator": b,
        "hand": options,
        "attempts": [{"played": choice, "claim": CLAIM_EQUAL, "asked": True, "reason": reason}],
        "drew": False,
    }
    if round_id is not None:
        turn["round"] = round_id
    return turn


# A timed course's first round: a Monday morning in Paris (summer time, +02:00).
COURSE_START: Final = datetime(2026, 9, 7, 8, 30, tzinfo=timezone(timedelta(hours=2)))
ITEM_SECONDS: Final = 30


def play_round(
    rng: random.Random,
    pupil: Pupil,
    warm_up: WarmUp,
    round_id: object,
    start: datetime | None = None,
) -> RoundOutcome:
    """Play one round to its end (probe_next says stop) and record what the model showed.

    With `start`, each answer carries "at": start plus ITEM_SECONDS an answer.
    """
    warm_up.round_id = round_id  # type: ignore[assignment]
    outcome = RoundOutcome()
    diagnosis = warm_up.diagnosis
    why = Why(warm_up)
    while (item := warm_up.next_item()) is not None:
        data = answer(rng, pupil, item, len(warm_up.turns), round_id)
        if start is not None:
            data["at"] = (start + timedelta(seconds=ITEM_SECONDS * outcome.items)).isoformat()
        turn = read_turn(data, diagnosis.deck, len(warm_up.turns))
        if why.asks(turn):
            outcome.asked += 1
        else:
            data["attempts"][0]["reason"] = None  # type: ignore[index]
            turn = read_turn(data, diagnosis.deck, len(warm_up.turns))
        warm_up.add_turn(turn)
        for rule in diagnosis.tested:
            if diagnosis.tracks[rule].likely_at is not None and rule not in outcome.likely_at:
                outcome.likely_at[rule] = outcome.items
        outcome.items += 1
    outcome.final = {rule: diagnosis.status(rule) for rule in diagnosis.tested}
    if pupil.habit is not None:
        outcome.resolved = outcome.final.get(pupil.habit) == STATUS_RESOLVED
    return outcome


def run_pupil(pupil: Pupil, seed: int) -> RoundOutcome:
    """Simulate one pupil's warm-up round."""
    rng = random.Random(seed)
    return play_round(rng, pupil, WarmUp(level=pupil.level, seed=seed), "w1")


def run_recheck(pupil: Pupil, later: Pupil, seed: int) -> RoundOutcome | None:
    """Simulate a warm-up, then a re-check round as `later`; None if the habit was not likely
    after the first round (no re-check is asked then)."""
    rng = random.Random(seed)
    warm_up = WarmUp(level=pupil.level, seed=seed)
    first = play_round(rng, pupil, warm_up, "w1")
    if pupil.habit not in first.likely_at:
        return None
    second = play_round(rng, later, warm_up, "w2")
    second.resolved = second.final.get(pupil.habit) == STATUS_RESOLVED
    return second


def run_then_game(pupil: Pupil, student: game.Student, seed: int, turns: int) -> bool:
    """Simulate a warm-up, then `turns` game turns as `student`, statuses read after every
    turn; return whether some rule was "likely" at any point."""
    rng = random.Random(seed)
    warm_up = WarmUp(level=pupil.level, seed=seed)
    play_round(rng, pupil, warm_up, "w1")
    diagnosis = warm_up.diagnosis
    for number in range(turns):
        diagnosis.add(game._turn(rng, student, 1000 + number, True))
    return any(diagnosis.tracks[rule].likely_at is not None for rule in diagnosis.tested)


def run_course(
    rng: random.Random, warm_up: WarmUp, rule: str, schedule: Sequence[tuple[float, Pupil]]
) -> list[str]:
    """Play timed rounds after those already in `warm_up`; return `rule`'s status after each.

    `schedule`: (hours after COURSE_START the round begins, the pupil during that round).
    """
    statuses = []
    for hours, pupil in schedule:
        round_id = f"w{warm_up.diagnosis.rounds + 1}"
        play_round(rng, pupil, warm_up, round_id, COURSE_START + timedelta(hours=hours))
        statuses.append(warm_up.diagnosis.status(rule))
    return statuses


def held_too_early(statuses: Sequence[str], hours: Sequence[float]) -> bool:
    """Tell whether "held" came in a round begun less than HELD_MIN_GAP after the resolving one.

    `statuses[i]`: the status after the round begun at `hours[i]`. The resolving round is the
    first "resolved" since the rule was last likely (or the course began).
    """
    resolved_at: float | None = None
    minimum = HELD_MIN_GAP.total_seconds() / 3600
    for status, at in zip(statuses, hours, strict=True):
        if status == STATUS_LIKELY:
            resolved_at = None
        elif status == STATUS_RESOLVED and resolved_at is None:
            resolved_at = at
        elif status == STATUS_HELD and (resolved_at is None or at - resolved_at < minimum):
            return True
    return False


def share(flags: Sequence[bool]) -> float:
    """Return the share of true flags (0 for none)."""
    return sum(flags) / len(flags) if flags else 0.0


def median(values: Sequence[float]) -> float:
    """Return the median (infinity for none)."""
    ordered = sorted(values)
    if not ordered:
        return float("inf")
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def false_likely(outcomes: Sequence[RoundOutcome]) -> float:
    """Share of pupils without a misconception shown "likely" for some rule in the round."""
    return share([bool(o.likely_at) for o in outcomes])


def found(outcomes: Sequence[RoundOutcome], rule: str) -> float:
    """Share of habit pupils shown "likely" for their rule by the end of the round."""
    return share([rule in o.likely_at for o in outcomes])


def items_to_likely(outcomes: Sequence[RoundOutcome], rule: str) -> float:
    """Median items until "likely" for the rule (never: infinity)."""
    never = float("inf")
    return median([o.likely_at[rule] + 1 if rule in o.likely_at else never for o in outcomes])


def round_lengths(outcomes: Sequence[RoundOutcome]) -> list[int]:
    """Return the items of each round."""
    return [o.items for o in outcomes]


__all__ = [
    "Pupil",
    "RoundOutcome",
    "COURSE_START",
    "ITEM_SECONDS",
    "answer",
    "false_likely",
    "held_too_early",
    "found",
    "items_to_likely",
    "median",
    "play_round",
    "round_lengths",
    "run_course",
    "run_pupil",
    "run_recheck",
    "run_then_game",
    "share",
]
