"""Robust evaluation of aimed practice: does it remove a habit faster? (pure, seeded).

Aimed dealing (games/engine/aim.py) puts a pupil's trap in hand more often (the *exposure
ratio*) and so finds the habit sooner (the *detection speed-up*, bench/diagnosis.py). Whether
it also makes the habit go away sooner depends on how children learn from the game, which
nothing here measures. Following Doroudi, Aleven & Brunskill (robust evaluation matrix), the
same practice is run under several learner models, and a claim about removal may only be as
large as the smallest speed-up among them:

- LEARNS_ON_REFUSED: the habit's rate falls by STEP_REFUSED (relative) each time its trap is
  taken and refused;
- LEARNS_EVERY_ENCOUNTER: it falls by STEP_ENCOUNTER at every encounter (a fitting card in
  hand, taken or not);
- LEARNS_NOTHING: the game alone changes nothing (VanLehn: bugs come and go on their own);
- MASSED_COUNT_LESS: every encounter teaches, but the j-th one in the same game counts 1/j of
  STEP_ENCOUNTER (spacing: massed encounters count less).

A pupil starts with habit rate START_RATE, plays GAME_TURNS turns a game, each turn a real
game situation (lessons.diagnosis.simulation.calibration: ordinary games, or games aimed at
the rule); the habit is **removed** once its rate is below REMOVED_BELOW. Per model and rule:
the median turns to removal with ordinary and with aimed dealing (never within HORIZON:
infinity), and the removal speed-up (ordinary / aimed; 1 when neither removes it within
HORIZON, a lower bound HORIZON / aimed when only aimed does).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from games.engine.fractions import parse_fraction

from ..classifier import CLAIM_EQUAL, tags_for
from . import calibration

LEARNS_ON_REFUSED: Final = "learns on refused traps"
LEARNS_EVERY_ENCOUNTER: Final = "learns at every encounter"
LEARNS_NOTHING: Final = "learns nothing from the game"
MASSED_COUNT_LESS: Final = "massed encounters count less"
LEARNER_MODELS: Final = (
    LEARNS_ON_REFUSED,
    LEARNS_EVERY_ENCOUNTER,
    LEARNS_NOTHING,
    MASSED_COUNT_LESS,
)

START_RATE: Final = calibration.HABIT_RATE
STEP_REFUSED: Final = 0.15
STEP_ENCOUNTER: Final = 0.05
REMOVED_BELOW: Final = 0.05
GAME_TURNS: Final = 12
HORIZON: Final = 3000


@lru_cache(maxsize=16)
def encounter_flags(rule: str, aimed: bool) -> tuple[bool, ...]:
    """Return, per game situation (ordinary or aimed at `rule`), whether a fitting card is held."""
    pool = calibration.aimed_situations(rule) if aimed else calibration.situations()
    return tuple(_holds(reference, hand, rule) for reference, _, hand in pool)


def _holds(reference: str | None, hand: Sequence[str], rule: str) -> bool:
    if reference is None:
        return False
    a, b = parse_fraction(reference)
    return any(rule in tags_for(a, b, *parse_fraction(card), CLAIM_EQUAL) for card in hand)


def turns_to_removal(model: str, flags: Sequence[bool], rng: random.Random) -> float:
    """Simulate one pupil under `model`; return the turns until removal (never: infinity)."""
    rate = START_RATE
    in_game = 0
    for turn in range(HORIZON):
        if turn % GAME_TURNS == 0:
            in_game = 0
        if not flags[rng.randrange(len(flags))]:
            continue
        in_game += 1
        taken = rng.random() < rate
        if model == LEARNS_ON_REFUSED and taken:
            rate *= 1 - STEP_REFUSED
        elif model == LEARNS_EVERY_ENCOUNTER:
            rate *= 1 - STEP_ENCOUNTER
        elif model == MASSED_COUNT_LESS:
            rate *= 1 - STEP_ENCOUNTER / in_game
        if rate < REMOVED_BELOW:
            return turn + 1
    return float("inf")


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True, slots=True)
class Cell:
    """One learner model and rule: median turns to removal, ordinary and aimed, and the ratio."""

    model: str
    rule: str
    ordinary: float
    aimed: float

    @property
    def speed_up(self) -> float:
        """Return ordinary / aimed (1 when neither removes it; HORIZON / aimed, a lower bound,
        when only aimed dealing does)."""
        if self.aimed == float("inf"):
            return 1.0 if self.ordinary == float("inf") else 0.0
        ordinary = HORIZON if self.ordinary == float("inf") else self.ordinary
        return ordinary / self.aimed

    @property
    def lower_bound(self) -> bool:
        """Tell whether the speed-up is only a lower bound (ordinary never removed it)."""
        return self.ordinary == float("inf") and self.aimed != float("inf")


def removal_cell(model: str, rule: str, pupils: int, seed: int = 0) -> Cell:
    """Run `pupils` pupils under `model` with ordinary and with aimed dealing at `rule`."""
    medians = []
    for aimed in (False, True):
        flags = encounter_flags(rule, aimed)
        rng = random.Random(f"{seed}:{model}:{rule}:{aimed}")
        medians.append(_median([turns_to_removal(model, flags, rng) for _ in range(pupils)]))
    return Cell(model, rule, medians[0], medians[1])


def removal_matrix(rules: Sequence[str], pupils: int, seed: int = 0) -> list[Cell]:
    """Return the robust-evaluation matrix: every learner model for every rule."""
    return [removal_cell(model, rule, pupils, seed) for model in LEARNER_MODELS for rule in rules]


def minimum_speed_up(cells: Sequence[Cell]) -> float:
    """Return the smallest removal speed-up of the matrix (what a claim may state at most)."""
    return min(cell.speed_up for cell in cells)


def exposure_ratio(rule: str) -> float:
    """Return the share of turns with a fitting card held, aimed over ordinary dealing."""
    ordinary, aimed = (
        sum(encounter_flags(rule, a)) / len(encounter_flags(rule, a)) for a in (False, True)
    )
    return aimed / ordinary


__all__ = [
    "GAME_TURNS",
    "HORIZON",
    "LEARNER_MODELS",
    "LEARNS_EVERY_ENCOUNTER",
    "LEARNS_NOTHING",
    "LEARNS_ON_REFUSED",
    "MASSED_COUNT_LESS",
    "REMOVED_BELOW",
    "START_RATE",
    "STEP_ENCOUNTER",
    "STEP_REFUSED",
    "Cell",
    "encounter_flags",
    "exposure_ratio",
    "minimum_speed_up",
    "removal_cell",
    "removal_matrix",
    "turns_to_removal",
]
