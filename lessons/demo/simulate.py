"""Simulate realistic judged plays (for the demo class and the scale benchmark).

A simulated turn deals a hand from the fractions deck, turns up a reference card and lets a
student with an error profile claim a card: an equal card ("equal"), a same-denominator card
("denominator"), or, with the profile's odds, a typical wrong one. Tags, chance rates and
opportunities come from lessons.diagnosis, exactly as for live play.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from games.engine.fractions import FractionValue
from lessons.diagnosis import (
    CLAIM_DENOMINATOR,
    CLAIM_EQUAL,
    DEFAULT_DECK_CARDS,
    attempt_evidence,
    classify,
    skill_tags,
)

HAND_SIZE: Final = 7
# Error types a profile may name: a misconception the wrong card must fit, "D1" (claims the
# same denominator wrongly), "slip" (any wrong card claimed equal) or "miss" (draws while
# holding an equal card).
ERROR_TYPES: Final = ("M1", "M2", "M2a", "M3", "M4", "M5", "M6", "M7", "D1", "slip", "miss")

# Named profiles: the odds of each error per turn. "Improving" profiles fade with time.
PROFILES: Final[Mapping[str, Mapping[str, float]]] = {
    "secure": {"slip": 0.04, "miss": 0.02},
    "additive": {"M1": 0.30, "slip": 0.05, "miss": 0.05},
    "numerators": {"M2": 0.25, "slip": 0.05},
    "rules_mixup": {"M3": 0.20, "D1": 0.10},
    "scaling": {"M5": 0.15, "M4": 0.10, "slip": 0.05},
    "guessing": {"slip": 0.30, "miss": 0.10},
    "improving": {"M1": 0.25, "M2": 0.10, "slip": 0.10},
    "struggling": {"slip": 0.40, "M2": 0.15, "miss": 0.10},
}
# Profiles whose error odds shrink to this share of their start as the history goes on.
FADING: Final[Mapping[str, float]] = {"improving": 0.1, "additive": 0.5}


@dataclass(frozen=True)
class SimulatedPlay:
    """One judged play, ready to be stored as an Attempt (JSON fields already serialised)."""

    reference: FractionValue
    played: FractionValue
    claim: str
    claim_source: str
    outcome: str
    tags: str
    p0: str
    opportunities: str
    skills: str
    hand: str


@dataclass(frozen=True)
class SimulatedMiss:
    """A draw while holding a card equal to the reference."""

    reference: FractionValue
    equal_cards: str


def _equal(x: FractionValue, y: FractionValue) -> bool:
    return x[0] * y[1] == x[1] * y[0]


@lru_cache(maxsize=1 << 15)
def _play(
    reference: FractionValue,
    played: FractionValue,
    claim: str,
    hand: tuple[FractionValue, ...],
    asked: bool,
) -> SimulatedPlay:
    """Tag one play (cached: the deck is small, so the same turns come back often).

    As in the live attempt log (lessons.attempts.log), chance rates assume the play page asks
    for the rule whenever both could apply; `asked` only says whether it did for this play.
    """
    evidence = attempt_evidence(reference, played, claim, hand, claim_asked=True)
    outcome = "wrong" if evidence.tags else ("equal" if claim == CLAIM_EQUAL else "denominator")
    return SimulatedPlay(
        reference=reference,
        played=played,
        claim=claim,
        claim_source="asked" if asked else "inferred",
        outcome=outcome,
        tags=json.dumps(list(evidence.tags)),
        p0=json.dumps({k: round(v, 4) for k, v in evidence.p0.items()}),
        opportunities=json.dumps(evidence.as_dict()["opportunities"]),
        skills=json.dumps(skill_tags(reference, played)),
        hand=json.dumps([f"{c}/{d}" for c, d in hand]),
    )


def _wrong_card(
    reference: FractionValue, hand: Sequence[FractionValue], error: str, rng: random.Random
) -> tuple[FractionValue, str] | None:
    """Pick a hand card that makes `error` (and its claim), or None when the hand has none."""
    if error == "D1":
        cards = [c for c in hand if c[1] != reference[1]]
        return (rng.choice(cards), CLAIM_DENOMINATOR) if cards else None
    cards = [c for c in hand if not _equal(c, reference)]
    if error != "slip":
        cards = [c for c in cards if error in classify(reference, c, CLAIM_EQUAL)]
    return (rng.choice(cards), CLAIM_EQUAL) if cards else None


def simulate_turn(
    rng: random.Random,
    profile: Mapping[str, float],
    *,
    fade: float = 1.0,
    deck: Sequence[FractionValue] = DEFAULT_DECK_CARDS,
) -> SimulatedPlay | SimulatedMiss | None:
    """Play one turn for a student; None when the student simply had to draw.

    `fade` scales the profile's error odds (1 = as given).
    """
    hand = tuple(sorted(rng.choice(deck) for _card in range(HAND_SIZE)))
    reference = rng.choice(deck)
    equal = [c for c in hand if _equal(c, reference) and c[1] != reference[1]]
    same_den = [c for c in hand if c[1] == reference[1]]
    # The play page asks which rule was used only when a card could fit both.
    roll, acc = rng.random(), 0.0
    for error, odds in profile.items():
        acc += odds * fade
        if roll >= acc:
            continue
        if error == "miss":
            if equal:
                return SimulatedMiss(reference, json.dumps([f"{c}/{d}" for c, d in equal]))
            break
        picked = _wrong_card(reference, hand, error, rng)
        if picked is not None:
            card, claim = picked
            asked = bool(equal) and bool(same_den)
            return _play(reference, card, claim, hand, asked)
        break
    if equal:
        card = rng.choice(equal)
        return _play(reference, card, CLAIM_EQUAL, hand, bool(same_den))
    if same_den:
        card = rng.choice(same_den)
        return _play(reference, card, CLAIM_DENOMINATOR, hand, bool(equal))
    return None


def profile_for(name: str) -> Mapping[str, float]:
    """Return a named profile, or raise ValueError naming the known ones."""
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r} (known: {', '.join(PROFILES)})")
    return PROFILES[name]


def fade_at(name: str, progress: float) -> float:
    """Return the error-odds factor of a profile at `progress` (0 = start, 1 = end)."""
    floor = FADING.get(name, 1.0)
    return 1.0 - (1.0 - floor) * min(max(progress, 0.0), 1.0)
