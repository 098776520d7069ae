"""Deck levels as the diagnosis sees them: each level's values, the rules it can show, and
what a practice aimed at one misconception asks the engine for (pure, no Django).

The engine holds the decks (games.engine.cards.FRACTION_DECKS, option "deck") and knows no
misconception; the classifier is the one truth for which pairs fit a rule. So a practice aimed
at a rule passes the engine plain data: the (reference, trap) value pairs of the deck where
laying the trap on the reference, claiming "equal", fits the rule (option "aim_pairs").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from games.engine.cards import DEFAULT_FRACTION_DECK, FRACTION, FRACTION_DECK_LEVELS, FRACTION_DECKS
from games.engine.fractions import parse_fraction

from .classifier import CLAIM_EQUAL, RULE_IDS, tags_for
from .evidence import STATUS_EMERGING, STATUS_LIKELY
from .model import TESTED_RULES, possible_rules

DECK_LEVELS: Final = FRACTION_DECK_LEVELS
DEFAULT_DECK_LEVEL: Final = DEFAULT_FRACTION_DECK


def _sort_key(value: str) -> tuple[int, int]:
    num, den = parse_fraction(value)
    return den, num


def level_values(level: str) -> tuple[str, ...]:
    """Return the fraction values ("a/b") of a deck level, by denominator then numerator."""
    if level not in FRACTION_DECKS:
        raise ValueError(f"unknown deck level {level!r}; expected one of {DECK_LEVELS}")
    values = {FRACTION[code] for code in FRACTION_DECKS[level] if code in FRACTION}
    return tuple(sorted(values, key=_sort_key))


def _values(deck: str | Iterable[str]) -> tuple[str, ...]:
    """Return the values of a deck given as a level name or as its "a/b" values."""
    if isinstance(deck, str):
        return level_values(deck)
    values = tuple(deck)
    for value in values:
        if not isinstance(value, str):
            raise ValueError(f"deck values are 'a/b' strings, not {value!r}")
        parse_fraction(value)
    return values


def rules_possible(deck: str | Iterable[str] = DEFAULT_DECK_LEVEL) -> frozenset[str]:
    """Return the rule IDs some ordered pair of the deck's values can show (M0, U, D1 too)."""
    return possible_rules(parse_fraction(v) for v in _values(deck))


def rules_not_possible(deck: str | Iterable[str] = DEFAULT_DECK_LEVEL) -> tuple[str, ...]:
    """Return the rules a diagnosis tests that this deck can never show, in RULE_IDS order."""
    possible = rules_possible(deck)
    return tuple(rule for rule in TESTED_RULES if rule not in possible)


def aim_pairs(rule: str, deck: str | Iterable[str] = DEFAULT_DECK_LEVEL) -> list[list[str]]:
    """Return the [reference, trap] values of the deck whose "equal" claim fits ``rule``."""
    if rule not in RULE_IDS:
        raise ValueError(f"unknown rule {rule!r}")
    values = _values(deck)
    pairs = []
    for reference in values:
        a, b = parse_fraction(reference)
        for trap in values:
            c, d = parse_fraction(trap)
            if a * d != b * c and rule in tags_for(a, b, c, d, CLAIM_EQUAL):
                pairs.append([reference, trap])
    return pairs


def aim_rule(result: Mapping[str, Mapping[str, Any]]) -> str | None:
    """Return the rule a practice should aim at, from a diagnose() result, or None.

    A "likely" rule first, else an "emerging" one (suspected, not yet decided); among equals
    the smallest p-value, then RULE_IDS order. Rules the model does not test never count.
    """
    for status in (STATUS_LIKELY, STATUS_EMERGING):
        found = [
            rule for rule in TESTED_RULES if rule in result and result[rule].get("status") == status
        ]
        if found:
            return min(found, key=lambda r: (_p(result[r].get("p_value")), RULE_IDS.index(r)))
    return None


def _p(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 1.0


def practice_options(
    result: Mapping[str, Mapping[str, Any]] | None, level: str = DEFAULT_DECK_LEVEL
) -> dict[str, Any]:
    """Return the engine options of a practice table: the deck level, aimed if one rule is
    likely or emerging and the level has pairs for it (the student sits at seat 0)."""
    options: dict[str, Any] = {"deck": level}
    rule = aim_rule(result) if result else None
    pairs = aim_pairs(rule, level) if rule is not None else []
    if pairs:
        options["aim_pairs"] = pairs
        options["aim_seat"] = 0
    return options


__all__ = [
    "DECK_LEVELS",
    "DEFAULT_DECK_LEVEL",
    "aim_pairs",
    "aim_rule",
    "level_values",
    "practice_options",
    "rules_not_possible",
    "rules_possible",
]
