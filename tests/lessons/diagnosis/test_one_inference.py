"""Issue 31 §6: the claim of a play nobody asked about is inferred in one place,
lessons.diagnosis.infer_claim, and judged in one, judge_claim: the attempt log, diagnose()'s
fast and checked readings and its reference implementation all give what these give."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from lessons.attempts import log
from lessons.diagnosis import CLAIM_DENOMINATOR, CLAIM_EQUAL, infer_claim, judge_claim
from lessons.diagnosis.simulation.reference import ref_play
from lessons.diagnosis.stream import deck_values, read_turn

DECK = deck_values(
    ["1/2", "2/4", "3/6", "1/3", "2/6", "4/6", "5/6", "3/12", "4/12", "8/12", "6/12"]
)
CARDS = sorted(DECK)
# Every top card, and a Joker naming each denominator (no reference, a named denominator).
TOPS = [(card, card[1]) for card in CARDS] + [(None, d) for d in sorted({c[1] for c in CARDS})]


def test_the_inference_in_words() -> None:
    assert infer_claim((1, 2), 2, (2, 4)) == CLAIM_EQUAL  # another denominator: "equal"
    assert infer_claim((1, 2), 2, (1, 2)) == CLAIM_DENOMINATOR  # the same denominator
    assert infer_claim(None, 6, (4, 6)) == CLAIM_DENOMINATOR  # a Joker naming 6
    assert infer_claim(None, 6, (4, 12)) == CLAIM_DENOMINATOR  # a Joker: nothing to be equal to
    assert judge_claim(None, 6, (4, 12), CLAIM_DENOMINATOR) == (False, ("D1",))
    assert judge_claim(None, 6, (4, 6), CLAIM_DENOMINATOR) == (True, ())
    assert judge_claim((1, 2), 2, (2, 3), CLAIM_EQUAL)[0] is False


@pytest.mark.parametrize(("top", "denominator"), TOPS)
def test_every_reader_infers_and_judges_the_same(
    top: tuple[int, int] | None, denominator: int
) -> None:
    for played in CARDS:
        claim = infer_claim(top, denominator, played)
        correct, tags = judge_claim(top, denominator, played, claim)
        # The attempt log stores the inferred claim when none was sent.
        assert log._claim({}, top, denominator, played)[0] == claim
        turn: dict[str, Any] = {
            "turn": 1,
            "reference": None if top is None else f"{top[0]}/{top[1]}",
            "denominator": None if top is not None else denominator,
            "hand": [f"{played[0]}/{played[1]}"],
            "attempts": [{"played": f"{played[0]}/{played[1]}", "claim": None, "asked": False,
                          "reason": None}],
            "drew": False,
        }  # fmt: skip
        read = read_turn(turn, DECK).plays[0]
        assert (read.claim, read.correct, read.tags) == (claim, correct, tags)
        # A turn the fast reading refuses (a tuple, not a dict) goes through the checked one.
        checked = read_turn(type("Turn", (dict,), {})(turn), DECK).plays[0]
        assert (checked.claim, checked.correct) == (claim, correct)
        ref = ref_play(turn["attempts"][0], top, denominator, DECK, "t")
        assert (ref["claim"], ref["correct"], ref["tags"]) == (claim, correct, tags)


def test_a_named_claim_is_never_replaced() -> None:
    for (top, denominator), played, claim in product(
        TOPS[:6], CARDS[:6], (CLAIM_EQUAL, CLAIM_DENOMINATOR)
    ):
        assert log._claim({"claim": claim}, top, denominator, played)[0] == claim
