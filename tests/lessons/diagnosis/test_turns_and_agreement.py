"""turns_from_attempts groups a stored log into diagnose()'s turns; reason/tag agreement."""

from __future__ import annotations

from typing import Any

import pytest

from lessons.diagnosis import cohen_kappa, diagnose, reason_agreement, turns_from_attempts


def _record(pk: int, played: str, *, turn: int | None = 5, correct: bool = False,
            reference: str | None = "1/2", **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "id": pk, "table": 1, "turn": turn, "reference": reference, "denominator": None,
        "hand": ["2/3", "3/6", "1/6"], "played": played, "claim": "equal", "asked": False,
        "reason": None, "correct": correct, "drew": False, **extra,
    }  # fmt: skip


def test_one_turn_per_table_and_turn_refused_tries_first() -> None:
    turns = turns_from_attempts(
        [
            _record(1, "2/3"),
            _record(2, "1/6", drew=True),
            _record(3, "3/6", correct=True),
            _record(4, "2/3", turn=9),
        ]
    )
    assert [t["turn"] for t in turns] == [5, 9]
    assert [a["played"] for a in turns[0]["attempts"]] == ["2/3", "1/6", "3/6"]
    assert turns[0]["drew"] and not turns[1]["drew"]
    assert turns[0]["hand"] == ["2/3", "3/6", "1/6"]
    diagnose(turns)  # well-formed


def test_no_turn_is_a_turn_of_its_own_and_an_accepted_play_ends_a_turn() -> None:
    turns = turns_from_attempts(
        [
            _record(1, "2/3", turn=None),
            _record(2, "2/3", turn=None),
            _record(3, "3/6", correct=True),
            _record(4, "2/3"),  # same (table, turn) after an accepted play: a new turn
            _record(5, "2/3", reference="1/3"),  # another top card: a new turn
        ]
    )
    assert [len(t["attempts"]) for t in turns] == [1, 1, 1, 1, 1]
    assert [t["turn"] for t in turns[:2]] == [1, 2]
    diagnose(turns)


def test_values_outside_the_deck_and_stray_reasons_are_left_out() -> None:
    turns = turns_from_attempts(
        [
            _record(1, "2/4"),  # not a card of the deck: cannot come from a game
            _record(2, "2/3", turn=6, hand=["2/3", "7/9"], reason="same_top"),
            _record(3, "3/6", turn=7, correct=True, reason="added_same"),
        ]
    )
    assert [t["turn"] for t in turns] == [6, 7]
    assert turns[0]["hand"] == ["2/3"] and turns[0]["attempts"][0]["reason"] == "same_top"
    assert turns[1]["attempts"][0]["reason"] is None  # a right claim has no reason
    diagnose(turns)


def test_cohen_kappa() -> None:
    assert cohen_kappa(0, 0, 0, 0) is None
    assert cohen_kappa(10, 0, 0, 10) == pytest.approx(1.0)
    assert cohen_kappa(0, 10, 10, 0) == pytest.approx(-1.0)
    # 2x2 table from a textbook: 20 yes/yes, 5, 10, 15 no/no -> kappa 0.4
    assert cohen_kappa(20, 5, 10, 15) == pytest.approx(0.4)
    assert cohen_kappa(5, 0, 0, 0) is None  # one class only


def test_reason_agreement_counts_every_rule() -> None:
    result = reason_agreement(
        [(("M0", "M1"), "added_same"), (("M2",), "added_same"), (("M3",), "guessed")]
    )
    m1 = result["M1"]
    assert (m1.n, m1.both, m1.tags_only, m1.reason_only, m1.neither) == (3, 1, 0, 1, 1)
    assert (result["M3"].tags_only, result["M3"].neither) == (1, 2)
    assert not m1.enough
    with pytest.raises(ValueError):
        reason_agreement([(("M1",), "because")])
