"""UNO's "perft": scripted positions with the exact number of legal actions of each seat."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new

# (ruleset, hands, start, options, expected counts by seat)
POSITIONS: list[tuple[str, list[list[str]], str, dict[str, Any], list[int]]] = [
    # Seat 1: 3r, 5j fit; couleur x4 colours; +04 bluff allowed x4; draw. Others: nothing.
    ("classic", [["1v"], ["3r", "5j", "couleur", "+04", "9b"], ["2j"]], "5r", {}, [0, 11, 0]),
    # Bluffing off: the +04 goes (seat 1 holds red).
    (
        "classic",
        [["1v"], ["3r", "5j", "couleur", "+04", "9b"], ["2j"]],
        "5r",
        {"plus4_bluffing": False},
        [0, 7, 0],
    ),
    # Duplicates listed once; two cards: UNO may be called.
    ("classic", [["1v"], ["3r", "3r"], ["2j"]], "5r", {}, [0, 3, 0]),
    # 7-0: a 7 per target (2), the 0, draw; jump-in: seat 2 holds the identical 5r.
    (
        "classic",
        [["1v"], ["7r", "0r", "9b"], ["5r", "2j"]],
        "5r",
        {"seven_o": True, "jump_in": True},
        [0, 4, 1],
    ),
    # Fractions on 1/3: 2/6 and 4/12 (equal), not 1/2; the Joker in 7 forms; draw.
    ("fractions", [["1/2v"], ["2/6b", "4/12j", "1/2r", "joker"], ["1/6j"]], "1/3r", {}, [0, 10, 0]),
    # Fractions: a bluff +4 (2/6 fits) is listed in its 7 forms; 2/6; draw; UNO (two cards).
    ("fractions", [["1/2v"], ["2/6b", "+04"], ["1/6j"]], "1/3r", {}, [0, 10, 0]),
    # Family Quick: hugo r x (rev, stop, +2, swap x2 targets) = 5; 3r; draw.
    ("family_quick", [["1v"], ["hugo r", "3r", "6j"], ["4j"]], "5r", {}, [0, 7, 0]),
]


@pytest.mark.parametrize(("ruleset", "hands", "start", "options", "expected"), POSITIONS)
def test_legal_action_counts(
    ruleset: str,
    hands: list[list[str]],
    start: str,
    options: dict[str, Any],
    expected: list[int],
) -> None:
    g = new(ruleset, hands, start=start, **options)
    counts = [len(g.legal_actions(s)) for s in range(g.n)]
    assert counts == expected, [g.legal_actions(s) for s in range(g.n)]
    for seat in range(g.n):
        for action in g.legal_actions(seat):
            probe = new(ruleset, hands, start=start, **options)
            probe.apply(seat, action)  # every listed action is accepted
