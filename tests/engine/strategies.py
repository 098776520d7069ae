"""Hypothesis strategies: valid (ruleset, players, options, seed) combinations of the rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from games.engine.cards import FRACTION_DECK_LEVELS
from games.engine.options import LEVEL_VALUES

DECK_SIZES = {"fractions": 116, "classic": 108, "family_quick": 68}
PLAYERS = {"fractions": (2, 5), "classic": (2, 10), "family_quick": (2, 10)}
FQ_FUNCTIONS = ["rev", "stop", "+2", "swap"]
# Small targets keep multi-round games short; 0 means one round.
TARGETS = [0, 0, 30, 100]


def _value(text: str) -> Fraction:
    num, den = text.split("/")
    return Fraction(int(num), int(den))


@dataclass(frozen=True)
class Config:
    """Describe one game to create: ruleset, seat count, options and seed."""

    ruleset: str
    players: int
    options: dict[str, Any]
    seed: int

    def __repr__(self) -> str:
        return f"Config({self.ruleset!r}, {self.players}, {self.options!r}, seed={self.seed})"


@st.composite
def configs(draw: st.DrawFn, rulesets: tuple[str, ...] = tuple(DECK_SIZES)) -> Config:
    """Draw a ruleset, a player count in its limits and a set of options it allows."""
    ruleset = draw(st.sampled_from(rulesets))
    low, high = PLAYERS[ruleset]
    players = draw(st.integers(low, high))
    options: dict[str, Any] = {}
    scoring = draw(st.sampled_from(["winner_takes", "lowest_wins", "elimination", None]))
    target = draw(st.sampled_from(TARGETS))
    if scoring == "elimination" and target == 0:
        target = 30  # elimination needs a score to reach
    options["target_score"] = target
    if scoring is not None:
        options["scoring"] = scoring
    if draw(st.booleans()):
        options["uno_penalty"] = draw(st.integers(1, 4))
    if ruleset == "classic":
        for key in ("stacking", "seven_o", "jump_in", "plus4_challenge", "plus4_bluffing"):
            value = draw(st.sampled_from([None, True, False]))
            if value is not None:
                options[key] = value
        # Teams: even counts from 4, not with elimination; rotating partners: 4 players,
        # winner_takes scoring (with or without the teams flag).
        if players >= 4 and players % 2 == 0 and scoring != "elimination" and draw(st.booleans()):
            options["teams"] = True
        if players == 4 and scoring in (None, "winner_takes") and draw(st.booleans()):
            options["rotating_partners"] = True
    elif ruleset == "fractions":
        for key in ("plus4_challenge", "plus4_bluffing", "no_finish_on_plus4"):
            value = draw(st.sampled_from([None, True, False]))
            if value is not None:
                options[key] = value
        if draw(st.booleans()):
            options["fractions_plus4_draws"] = draw(st.sampled_from([2, 4]))
        if draw(st.booleans()):
            options["wrong_attempt_penalty"] = draw(st.integers(0, 2))
        options["deck"] = draw(st.sampled_from(FRACTION_DECK_LEVELS))
        if draw(st.booleans()):
            # Aimed dealing: any pairs of the deck's values (a trap never equal to its reference).
            values = sorted(LEVEL_VALUES[options["deck"]])
            pairs = draw(
                st.lists(
                    st.tuples(st.sampled_from(values), st.sampled_from(values)).filter(
                        lambda p: _value(p[0]) != _value(p[1])
                    ),
                    min_size=1,
                    max_size=12,
                    unique=True,
                )
            )
            options["aim_pairs"] = [list(p) for p in pairs]
            options["aim_seat"] = draw(st.integers(0, players - 1))
    else:
        if draw(st.booleans()):
            functions = draw(
                st.lists(st.sampled_from(FQ_FUNCTIONS), min_size=1, max_size=4, unique=True)
            )
            options["family_quick_functions"] = functions
    seed = draw(st.integers(0, 2**31 - 1))
    return Config(ruleset, players, options, seed)
