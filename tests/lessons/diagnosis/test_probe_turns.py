"""diagnose() reads warm-up answers (turns with "source": "probe") as evidence, checked."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from lessons.diagnosis import diagnose


def probe(
    number: int,
    reference: str,
    options: list[str],
    played: str,
    reason: str | None = None,
    **extra: object,
) -> dict[str, Any]:
    turn: dict[str, Any] = {
        "turn": number,
        "source": "probe",
        "reference": reference,
        "denominator": int(reference.split("/")[1]),
        "hand": list(options),
        "attempts": [{"played": played, "claim": "equal", "asked": True, "reason": reason}],
        "drew": False,
    }
    turn.update(extra)
    return turn


ITEM = ("1/4", ["2/8", "2/5", "1/8", "3/4"])  # equal, M1, M2, M3 (2/5, 1/8, 3/4: not in the deck)


def test_a_probe_turn_outside_the_deck_is_evidence_with_its_own_chance_rates() -> None:
    result = diagnose([probe(0, *ITEM, "2/5")])
    assert result["M1"]["k"] == 1 and result["M1"]["n"] == 1
    # Three wrong options, one fits each rule: chance 1/3 each.
    for rule in ("M1", "M2", "M3"):
        assert result[rule]["expected"] == pytest.approx(1 / 3)
        assert result[rule]["opportunities"] == 1


def test_the_same_turn_as_a_game_turn_is_refused_outside_the_deck() -> None:
    game = probe(0, *ITEM, "2/5")
    game["source"] = "game"
    with pytest.raises(ValueError, match="not a fraction of the deck"):
        diagnose([game])


def test_a_right_answer_keeps_no_reason_and_a_wrong_one_weighs_its_reason() -> None:
    right: dict[str, dict[str, Any]] = diagnose([probe(0, *ITEM, "2/8", reason="added_same")])
    assert right["M1"]["k"] == 0 and right["M1"]["n"] == 0
    turns = [probe(i, *ITEM, "2/5", reason="added_same") for i in range(3)]
    silent = [probe(i, *ITEM, "2/5") for i in range(3)]
    said: dict[str, Any] = diagnose(turns)["M1"]
    unsaid: dict[str, Any] = diagnose(silent)["M1"]
    assert said["p_value"] < unsaid["p_value"]


def test_game_and_probe_turns_mix_and_source_game_is_the_default() -> None:
    game = {
        "turn": 1,
        "reference": "1/2",
        "denominator": 2,
        "hand": ["2/3", "3/6"],
        "attempts": [{"played": "2/3", "claim": None, "asked": False, "reason": None}],
        "drew": True,
    }
    tagged = dict(game, source="game")
    assert diagnose([probe(0, *ITEM, "2/5"), game]) == diagnose([probe(0, *ITEM, "2/5"), tagged])
    assert diagnose([probe(0, *ITEM, "2/5"), game])["M1"]["k"] == 2


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda t: t.update(source="warmup"), "unknown source"),
        (lambda t: t.update(reference=None), "needs a reference"),
        (lambda t: t.update(hand=["2/8"]), "2 to 6 different cards"),
        (lambda t: t.update(hand=["2/8", "2/8", "2/5"]), "2 to 6 different cards"),
        (lambda t: t.update(hand=["1/2"] + [f"{i}/9" for i in range(1, 7)]), "2 to 6"),
        (lambda t: t.update(drew=True), "no draw"),
        (lambda t: t.update(round=True), "'round'"),
        (lambda t: t.update(round=[1]), "'round'"),
        (lambda t: t["attempts"].append(dict(t["attempts"][0])), "exactly one answer"),
        (lambda t: t.update(attempts=[]), "exactly one answer"),
        (lambda t: t["attempts"][0].update(played="5/7"), "not one of the options"),
        (lambda t: t["attempts"][0].update(claim="denominator"), "claims 'equal'"),
        (lambda t: t["attempts"][0].update(asked="yes"), "'asked'"),
        (lambda t: t["attempts"][0].update(reason="because"), "unknown reason"),
        (lambda t: t["attempts"][0].pop("reason"), "missing key 'reason'"),
        (lambda t: t.update(hand=["2/8", "0/5"]), "not a fraction"),
        (lambda t: t.update(denominator=5), "not the reference's"),
    ],
)
def test_a_bad_probe_turn_is_refused_and_named(
    change: Callable[[dict[str, Any]], object], match: str
) -> None:
    turn = copy.deepcopy(probe(7, *ITEM, "2/5"))
    change(turn)
    with pytest.raises(ValueError, match=match):
        diagnose([turn])


def test_a_named_round_is_accepted() -> None:
    assert diagnose([probe(0, *ITEM, "2/5", round="w1"), probe(1, *ITEM, "2/5", round=3)])
