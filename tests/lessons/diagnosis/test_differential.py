"""The classifier against a second implementation written here from the rule definitions.

Every ordered pair of the default deck (both claims), and of a deck with improper cards (so
M8-M10 are exercised). The second implementation reads the research digest's table with
Fraction arithmetic and its own phrasing, so a rule narrowed by mistake (M3a in one
direction only, M6 only across denominators) disagrees on some pair.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from lessons.diagnosis import DEFAULT_DECK_VALUES, RULE_IDS, classify
from lessons.diagnosis import classifier as classifier_module

DEFAULT = [(int(n), int(d)) for n, d in (value.split("/") for value in DEFAULT_DECK_VALUES)]
IMPROPER = [(n, d) for d in (2, 3, 6, 12) for n in range(1, 2 * d + 1) if n != d]


def _multiple(x: int, y: int) -> bool:
    return max(x, y) % min(x, y) == 0


def _different_factors(p: int, q: int, r: int, s: int) -> bool:
    """r/s is p/q with the top and the bottom multiplied by different whole numbers above 1."""
    if p < 2 or r % p or s % q:
        return False
    return len({r // p, s // q}) == 2 and min(r // p, s // q) > 1


def reference_rules(a: int, b: int, c: int, d: int, claim: str) -> list[str]:
    """Return the IDs the digest's table gives for the claim of c/d on a/b."""
    top, played = Fraction(a, b), Fraction(c, d)
    if claim == "denominator":
        return [] if b == d else ["D1"]
    if top == played:
        return []
    fits = {
        "M1": c - a == d - b and c != a,
        "M2": a == c and b != d,
        "M2a": a == c and b != d and _multiple(b, d),
        "M3": b == d and a != c,
        "M3a": b == d and a != c and _multiple(a, c),
        "M4": d % b == 0 and d // b >= 2 and c == d // b and a >= 2,
        "M5": _different_factors(a, b, c, d) or _different_factors(c, d, a, b),
        "M6": top + played == 1,
        "M7": (b > a and played == Fraction(a, b - a)) or (d > c and top == Fraction(c, d - c)),
        "M8": played == 1 / top and a != b,
        "M9": (c > d and played - (c // d) == top) or (a > b and top - (a // b) == played),
        "M10": abs(b - a) == abs(d - c) and b - a != d - c,
    }
    found = {rule for rule, ok in fits.items() if ok}
    if found & {"M1", "M2", "M3", "M4", "M5", "M7"}:
        found.add("M0")
    if not found:
        found = {"U"}
    return [rule for rule in RULE_IDS if rule in found]


Row = tuple[tuple[int, int], tuple[int, int], str, list[str], list[str]]


def disagreements(deck: list[tuple[int, int]]) -> list[Row]:
    """Return the (reference, played, claim, product, reference) rows that differ."""
    rows: list[Row] = []
    for (a, b), (c, d), claim in product(deck, deck, ("equal", "denominator")):
        got = classify((a, b), (c, d), claim)
        want = reference_rules(a, b, c, d, claim)
        if got != want:
            rows.append(((a, b), (c, d), claim, got, want))
    return rows


@pytest.mark.parametrize("deck", [DEFAULT, IMPROPER], ids=["default deck", "improper cards"])
def test_the_classifier_agrees_on_every_ordered_pair(deck: list[tuple[int, int]]) -> None:
    assert disagreements(deck) == []


def test_the_default_deck_has_the_pairs_the_issue_counted() -> None:
    wrong = [(x, y) for x, y in product(DEFAULT, DEFAULT) if Fraction(*x) != Fraction(*y)]
    assert len(DEFAULT) == 23 and len(wrong) == 422
    # The pairs that catch a narrowed rule are in the deck itself.
    assert "M3a" in reference_rules(2, 6, 1, 6, "equal")  # a is a multiple of c
    assert "M3a" in reference_rules(1, 6, 2, 6, "equal")  # c is a multiple of a
    assert "M6" in reference_rules(1, 6, 5, 6, "equal")  # complements, same denominator


def _planted(
    monkeypatch: pytest.MonkeyPatch, rule: str, test: Callable[[int, int, int, int], bool]
) -> None:
    monkeypatch.setitem(classifier_module._EQUAL_CLAIM_TESTS, rule, test)
    classifier_module.tags_for.cache_clear()


@pytest.mark.parametrize(
    ("rule", "narrowed"),
    [
        # M3a in one direction only (the played numerator a multiple of the reference's).
        ("M3a", lambda a, b, c, d: b == d and a != c and c % a == 0),
        # M6 limited to different denominators.
        ("M6", lambda a, b, c, d: b != d and a * d + b * c == b * d),
    ],
    ids=["M3a one direction", "M6 across denominators only"],
)
def test_a_narrowed_rule_is_caught(
    monkeypatch: pytest.MonkeyPatch, rule: str, narrowed: Callable[[int, int, int, int], bool]
) -> None:
    _planted(monkeypatch, rule, narrowed)
    try:
        assert disagreements(DEFAULT), f"a narrowed {rule} went unnoticed"
    finally:
        classifier_module.tags_for.cache_clear()
