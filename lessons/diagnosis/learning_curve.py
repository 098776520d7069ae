"""Learning curves: how often a rule's trap is taken at each encounter, and a trend test (pure).

An **encounter** of a rule is a turn (game or warm-up) whose first claim was made with a card
fitting the rule among the options (the rule's *opportunity*, stream.chance_rates_of); the
trap is **taken** when that first claim is a wrong "equal" claim fitting the rule. Encounters
are numbered per pupil from 1, oldest first; the curve keeps the first CURVE_ENCOUNTERS.

The curve (one pupil or many): at each encounter number, the pupils who reached it and how
many of them took the trap.

**The trend test** (stated once, used by every page): a score test of a logistic trend in the
encounter number, stratified by pupil (Mantel's extension of the Cochran-Armitage test). Each
pupil's takes are compared only with the pupil's own encounters, so pupils with stronger or
weaker habits, or with more encounters, cannot make a trend by themselves:

    U = sum over pupils j, encounters i of (x_ij - mean_j(x)) * y_ij
    Var(U) = sum over pupils j of k_j (n_j - k_j) / (n_j (n_j - 1)) * sum_i (x_ij - mean_j(x))^2
    Z = U / sqrt(Var(U))

(x: the encounter number, y: taken or not, n_j encounters and k_j takes of pupil j; under "the
pupil's habit does not change", each pupil's takes are equally likely at any of their
encounters, and Var(U) is U's exact variance then). The reading:

- TREND_DOWN ("baisse") when Z <= -TREND_Z (one-sided level TREND_ALPHA = 4%);
- TREND_TOO_LITTLE ("pas assez de données") when fewer than TREND_MIN_PUPILS pupils both took
  and refused the trap (only they carry information) or Var(U) is 0;
- TREND_FLAT ("stable") otherwise: with enough data, no decrease shown (the test does not show
  that nothing changed; a rise reads "stable" too).

bench/diagnosis.py --part learning measures the test: a habit unlearning 15% per refused trap
(from 60%)
reads "baisse" for >= 80% of groups of 30 pupils x 10 encounters, a constant one <= 5%.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final

from .classifier import CLAIM_EQUAL
from .stream import Turn, chance_rates_of, deck_values, read_turns

CURVE_ENCOUNTERS: Final = 10
# One-sided. The normal approximation with pupils of ten encounters runs a little above its
# level (5.0-5.5% at 5%, simulated): 4% keeps a constant habit read "baisse" under 5%.
TREND_ALPHA: Final = 0.04
TREND_Z: Final = NormalDist().inv_cdf(1 - TREND_ALPHA)
TREND_MIN_PUPILS: Final = 5
TREND_DOWN: Final = "down"
TREND_FLAT: Final = "flat"
TREND_TOO_LITTLE: Final = "too_little"
TRENDS: Final = (TREND_DOWN, TREND_FLAT, TREND_TOO_LITTLE)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One encounter number: the pupils who reached it and those of them who took the trap."""

    encounter: int
    pupils: int
    taken: int

    @property
    def rate(self) -> float:
        """Return the share of those pupils who took the trap."""
        return self.taken / self.pupils if self.pupils else 0.0


@dataclass(frozen=True, slots=True)
class LearningCurve:
    """One rule's curve over some pupils, with the trend test's figures and reading."""

    rule: str
    points: tuple[CurvePoint, ...]
    pupils: int  # pupils with at least one encounter
    informative: int  # pupils who both took and refused the trap
    z: float | None  # the test's statistic (None: Var(U) is 0)
    trend: str

    @property
    def encounters(self) -> int:
        """Return the encounters the curve counts."""
        return sum(point.pupils for point in self.points)

    @property
    def taken(self) -> int:
        """Return the traps taken the curve counts."""
        return sum(point.taken for point in self.points)


def encounters_of(turns: Sequence[Turn], rule: str) -> list[bool]:
    """Return, oldest first, whether each encounter of `rule` in checked turns took the trap."""
    out: list[bool] = []
    for turn in turns:
        first = turn.first
        if turn.reference is None or first is None:
            continue
        cards = turn.hand if first.played in turn.hand else (*turn.hand, first.played)
        _, offered = chance_rates_of(turn.reference, cards)
        if rule not in offered:
            continue
        out.append(not first.correct and first.claim == CLAIM_EQUAL and rule in first.tags)
    return out


def encounters(turns: object, rule: str, deck: object = None) -> list[bool]:
    """Return one pupil's encounters of `rule` (diagnose()'s turns in; ValueError if bad)."""
    return encounters_of(read_turns(turns, deck_values(deck)), rule)


def trend_score(pupils: Iterable[Sequence[bool]]) -> tuple[float | None, int]:
    """Return the stratified trend test's Z (None if Var(U) is 0) and its informative pupils.

    `pupils`: each pupil's encounters (taken or not), oldest first, already cut to the curve.
    """
    u = variance = 0.0
    informative = 0
    for taken in pupils:
        n, k = len(taken), sum(taken)
        if n < 2 or k in (0, n):
            continue
        informative += 1
        middle = (n + 1) / 2  # the mean of encounter numbers 1..n
        u += sum(i + 1 - middle for i, y in enumerate(taken) if y)
        spread = sum((i + 1 - middle) ** 2 for i in range(n))
        variance += k * (n - k) / (n * (n - 1)) * spread
    return (u / math.sqrt(variance) if variance > 0 else None), informative


def read_trend(z: float | None, informative: int) -> str:
    """Return the reading the test allows: TREND_DOWN, TREND_FLAT or TREND_TOO_LITTLE."""
    if z is None or informative < TREND_MIN_PUPILS:
        return TREND_TOO_LITTLE
    return TREND_DOWN if z <= -TREND_Z else TREND_FLAT


def learning_curve(rule: str, pupils: Iterable[Sequence[bool]]) -> LearningCurve:
    """Build `rule`'s curve and its reading from each pupil's encounters (oldest first)."""
    cut = [list(taken[:CURVE_ENCOUNTERS]) for taken in pupils]
    cut = [taken for taken in cut if taken]
    points = tuple(
        CurvePoint(
            number + 1,
            sum(1 for taken in cut if len(taken) > number),
            sum(1 for taken in cut if len(taken) > number and taken[number]),
        )
        for number in range(max((len(t) for t in cut), default=0))
    )
    z, informative = trend_score(cut)
    return LearningCurve(rule, points, len(cut), informative, z, read_trend(z, informative))


__all__ = [
    "CURVE_ENCOUNTERS",
    "TRENDS",
    "TREND_ALPHA",
    "TREND_DOWN",
    "TREND_FLAT",
    "TREND_MIN_PUPILS",
    "TREND_TOO_LITTLE",
    "TREND_Z",
    "CurvePoint",
    "LearningCurve",
    "encounters",
    "encounters_of",
    "learning_curve",
    "read_trend",
    "trend_score",
]
