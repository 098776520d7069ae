"""The warm-up's item bank: per deck level, items of one equal card and traps (pure, no Django).

An item is a reference ("top card"), one card equal to it in another form, and two to
TRAPS_PER_ITEM (five) traps. Each trap fits exactly one misconception rule, as the classifier
decides (the umbrella M0 and a rule's own sub-rule, M2a in M2 or M3a in M3, aside), and the
traps of an item fit different rules: so every wrong answer says which rule it could show, and
under "no habit" each offered rule is taken with the same chance. Traps for M1, M2 and M3 (the
rules the warm-up decides) come first, then traps of M4 to M7 (which also take the place of
one of M1-M3 a level has no trap of for a reference).

Items stay within what pupils at a level know (LEVEL_DENOMINATORS; improper fractions only at
the "improper" level); fractions beyond the game's deck are allowed (quarters, eighths).
The bank is built from these bounds by the classifier when first asked, so it changes only
with them or with the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from games.engine.cards import FRACTION_DECK_LEVELS

from .classifier import CLAIM_EQUAL, tags_for

Card = tuple[int, int]

# The rules the warm-up decides (the best-backed ones, and those a reason names), in order.
PROBE_RULES: Final[tuple[str, ...]] = ("M1", "M2", "M3")
# Rules whose traps may fill an item when a level has no trap for one of PROBE_RULES.
FILLER_RULES: Final[tuple[str, ...]] = ("M4", "M5", "M6", "M7")
# Parts of a rule that a trap of it may also fit (and the umbrella, which every M1-M3 trap fits).
_ALSO_FITS: Final[dict[str, frozenset[str]]] = {
    "M2": frozenset({"M0", "M2a"}),
    "M3": frozenset({"M0", "M3a"}),
}
_UMBRELLA: Final = frozenset({"M0"})

# Denominators pupils at each deck level know (the deck's own, and the quarters and eighths
# taught alongside them: a sixths class is at the grade 3 range of CCSS 3.NF, 2, 3, 4, 6, 8),
# and whether improper fractions (up to 2) appear.
LEVEL_DENOMINATORS: Final[dict[str, tuple[int, ...]]] = {
    "sixths": (2, 3, 4, 6, 8),
    "twelfths": (2, 3, 4, 6, 8, 12),
    "full": (2, 3, 4, 6, 8, 12, 24),
    "improper": (2, 3, 4, 6, 12),
}
LEVEL_IMPROPER: Final[dict[str, bool]] = {
    "sixths": False,
    "twelfths": False,
    "full": False,
    "improper": True,
}
# At most this many items per reference (different equal forms and traps).
VARIANTS: Final = 3
# At most this many traps an item (where the level has that many rules' traps for the
# reference): the more traps, the lower each rule's chance rate (1/5 with five), so fewer fits
# make a habit "likely" (about four instead of six without reasons). With three, a 30% habit was
# found by the end of the round for 91.4-94.2% of pupils (issue 31 §8: >= 92% each).
TRAPS_PER_ITEM: Final = 5


@dataclass(frozen=True, slots=True)
class Item:
    """One warm-up item: the reference, its equal card, and traps (rule -> card)."""

    reference: str
    equal: str
    traps: tuple[tuple[str, str], ...]

    @property
    def cards(self) -> tuple[str, ...]:
        """Return the item's cards: the equal card, then the traps."""
        return (self.equal, *(card for _, card in self.traps))

    def trap_for(self, rule: str) -> str | None:
        """Return the trap fitting `rule`, or None if the item has none."""
        return next((card for r, card in self.traps if r == rule), None)


def trap_rule(reference: Card, card: Card) -> str | None:
    """Return the one rule an "equal" claim of `card` on `reference` fits, else None."""
    tags = frozenset(tags_for(*reference, *card, CLAIM_EQUAL))
    for rule in (*PROBE_RULES, *FILLER_RULES):
        if rule in tags and tags <= _ALSO_FITS.get(rule, _UMBRELLA) | {rule}:
            return rule
    return None


def level_fractions(level: str) -> tuple[Card, ...]:
    """Return the fractions an item of `level` may show (by denominator, then numerator)."""
    if level not in LEVEL_DENOMINATORS:
        raise ValueError(f"unknown deck level {level!r}; expected one of {FRACTION_DECK_LEVELS}")
    top = 2 if LEVEL_IMPROPER[level] else 1
    return tuple(
        (n, d)
        for d in LEVEL_DENOMINATORS[level]
        for n in range(1, top * d + 1)
        if n != d and n < top * d
    )


def _text(card: Card) -> str:
    return f"{card[0]}/{card[1]}"


@lru_cache(maxsize=8)
def items_for(level: str) -> tuple[Item, ...]:
    """Return the bank's items for a deck level (built once)."""
    fractions = level_fractions(level)
    items: list[Item] = []
    for a, b in fractions:
        equals = [(c, d) for c, d in fractions if a * d == b * c and (c, d) != (a, b)]
        if not equals:
            continue
        by_rule: dict[str, list[Card]] = {}
        for card in fractions:
            rule = trap_rule((a, b), card)
            if rule is not None:
                by_rule.setdefault(rule, []).append(card)
        rules = [r for r in (*PROBE_RULES, *FILLER_RULES) if r in by_rule][:TRAPS_PER_ITEM]
        if len(rules) < 2 or not any(r in PROBE_RULES for r in rules):
            continue
        seen: set[Item] = set()
        for variant in range(VARIANTS):
            equal = equals[variant % len(equals)]
            traps = tuple(
                (rule, _text(by_rule[rule][variant % len(by_rule[rule])])) for rule in rules
            )
            item = Item(_text((a, b)), _text(equal), traps)
            if item not in seen:
                seen.add(item)
                items.append(item)
    return tuple(items)


__all__ = [
    "FILLER_RULES",
    "LEVEL_DENOMINATORS",
    "LEVEL_IMPROPER",
    "PROBE_RULES",
    "Item",
    "items_for",
    "level_fractions",
    "trap_rule",
]
