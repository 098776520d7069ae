"""diagnose(): its contract, the evidence stream, reasons, resolved, and bad input."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import pytest

from lessons.diagnosis import (
    DEFAULT_DECK_VALUES,
    REASON_LABELS,
    REASONS,
    RULE_IDS,
    Diagnosis,
    diagnose,
    first_claim_accuracy,
)
from lessons.diagnosis.model import ALPHA_LIKELY, ALPHA_SHARES

FIGURES = {"status", "k", "expected", "n", "p_value"}


def attempt(
    played: str, claim: str | None = None, asked: bool = False, reason: str | None = None
) -> dict[str, Any]:
    return {"played": played, "claim": claim, "asked": asked, "reason": reason}


def turn(
    number: int,
    reference: str | None,
    hand: Sequence[str],
    *attempts: dict[str, Any],
    drew: bool = False,
    denominator: int | None = None,
) -> dict[str, Any]:
    return {
        "turn": number,
        "reference": reference,
        "denominator": denominator,
        "hand": list(hand),
        "attempts": list(attempts),
        "drew": drew,
    }


# M2 plays (same top number) on three different references, each hand holding 4 wrong options
# of which one fits M2: chance gives each fit 1/4 (M2 and M2a here).
M2_TURNS = [
    ("1/3", ["1/6", "5/6", "16/24", "3/6"], "1/6"),
    ("1/2", ["1/6", "5/6", "2/3", "8/12"], "1/6"),
    ("2/3", ["2/12", "1/2", "5/6", "1/6"], "2/12"),
]


def m2_student(rounds: int, reason: str | None = None) -> list[dict[str, Any]]:
    turns = []
    for i in range(rounds):
        reference, hand, played = M2_TURNS[i % len(M2_TURNS)]
        turns.append(turn(i, reference, hand, attempt(played, reason=reason), drew=True))
    return turns


def test_every_rule_gets_the_figures_and_m0_u_never_a_status() -> None:
    result = diagnose(m2_student(12))
    assert list(result) == list(RULE_IDS)
    for rule, figures in result.items():
        assert figures.keys() >= FIGURES, rule
    assert result["M0"]["k"] == 12 and result["M0"]["status"] == "none"
    assert result["U"]["status"] == "none" and result["D1"]["status"] == "none"
    json.dumps(result)  # plain data, for exports and researchers


def test_rules_the_default_deck_cannot_show_are_not_possible() -> None:
    result = diagnose([])
    assert {r for r, f in result.items() if f["status"] == "not_possible"} == {"M8", "M9", "M10"}
    improper = [*DEFAULT_DECK_VALUES, "3/2", "7/6", "9/6"]
    assert diagnose([], deck=improper)["M8"]["status"] == "none"


def test_a_repeated_m2_habit_is_likely_with_exact_chance_figures() -> None:
    result = diagnose(m2_student(9))
    m2 = result["M2"]
    assert (m2["k"], m2["n"]) == (9, 9)
    assert m2["expected"] == pytest.approx(9 * 0.25)
    assert m2["p_value"] == pytest.approx(0.25**9)
    assert m2["alpha"] == pytest.approx(ALPHA_LIKELY * ALPHA_SHARES["M2"] / 15)
    assert m2["status"] == "likely" and m2["references"] == 3
    assert result["M5"]["status"] == "none"


def test_few_fits_are_only_emerging_and_one_reference_is_never_likely() -> None:
    assert diagnose(m2_student(4))["M2"]["status"] == "emerging"  # p = 0.0039 <= 0.01
    assert diagnose(m2_student(2))["M2"]["status"] == "none"  # p = 0.0625
    hand = ["1/6", "5/6", "16/24", "3/6"]
    same_reference = [turn(i, "1/3", hand, attempt("1/6")) for i in range(12)]
    result: dict[str, Any] = diagnose(same_reference)["M2"]
    assert result["p_value"] < 1e-6 and result["status"] == "emerging"


def test_one_fitting_card_is_never_emerging_however_unlikely() -> None:
    # One M2 card among 26 wrong options, with M2's own reason: p = 1/26 x 1/4 < 0.01, but
    # one card never decides anything ("emerging" needs at least two fitting cards).
    others = ["5/6", "2/3", "3/6", "4/6", "10/12", "8/12", "16/24", "20/24", "32/48", "40/48"]
    hand = [*others, *others, "24/48", "24/48", "6/12", "12/24", "2/12", "1/6"]
    reason = next(code for code, rule in REASONS.items() if rule == "M2")
    result: dict[str, Any] = diagnose(
        [turn(0, "1/3", hand, attempt("1/6", "equal", True, reason))]
    )["M2"]
    assert result["k"] == 1 and result["p_value"] < 0.01
    assert result["status"] == "none"


def test_plays_at_chance_level_get_no_status() -> None:
    # On 1/3 with 1/6 and 5/6 held, chance gives M2 one play in two (1/6): played half the time.
    plays = ["1/6" if i % 2 else "5/6" for i in range(20)]
    result = diagnose([turn(i, "1/3", ["1/6", "5/6"], attempt(p)) for i, p in enumerate(plays)])
    assert (result["M2"]["k"], result["M2"]["expected"]) == (10, pytest.approx(10))
    assert all(f["status"] in ("none", "not_possible") for f in result.values())


def test_only_the_first_claim_of_a_turn_is_evidence() -> None:
    hand = ["1/6", "2/3", "16/24", "5/6"]
    probing = turn(
        0,
        "1/3",
        hand,
        attempt("2/3", "equal", asked=True),  # M3: the evidence
        attempt("2/3", "equal", asked=True),  # the same card again: counts once
        attempt("1/6"),  # M2: a probe
        attempt("16/24"),  # not accepted either (2/3)
        drew=True,
    )
    result = diagnose([probing])
    assert (result["M3"]["k"], result["M3"]["n"], result["M3"]["probes"]) == (1, 1, 1)
    assert (result["M2"]["k"], result["M2"]["probes"]) == (0, 1)
    assert first_claim_accuracy([probing]) == (0, 1)
    right_first = turn(1, "1/3", hand, attempt("2/6" if False else "1/6"), drew=True)
    assert first_claim_accuracy(
        [probing, right_first, turn(2, "1/3", ["2/6"], attempt("2/6"))]
    ) == (
        1,
        3,
    )


def test_a_claim_left_out_is_inferred_as_the_page_does() -> None:
    # Another denominator: "equal"; the current denominator: "denominator" (right).
    result = diagnose([turn(0, "1/3", ["1/6", "2/3"], attempt("2/3"))])
    assert result["M3"]["k"] == 0 and first_claim_accuracy(
        [turn(0, "1/3", ["1/6", "2/3"], attempt("2/3"))]
    ) == (1, 1)
    assert diagnose([turn(0, "1/3", ["1/6", "2/3"], attempt("1/6"))])["M2"]["k"] == 1


def test_after_a_named_denominator_only_d1_is_read() -> None:
    turns = [turn(0, None, ["1/6", "2/3"], attempt("1/6"), denominator=3, drew=True)]
    result = diagnose(turns)
    assert result["D1"]["k"] == 1 and result["D1"]["status"] == "none"
    assert all(result[r]["n"] == 0 for r in ("M1", "M2", "M3"))


def test_a_matching_reason_weighs_and_a_random_one_does_not_help() -> None:
    alone: dict[str, Any] = diagnose(m2_student(3))["M2"]
    without: float = alone["p_value"]
    matching: dict[str, Any] = diagnose(m2_student(3, reason="same_top"))["M2"]
    other: dict[str, Any] = diagnose(m2_student(3, reason="added_same"))["M2"]
    assert matching["p_value"] < without / 10 and matching["reasons"] == 3
    assert other["p_value"] >= without
    # A reason only weighs on a card that fits the rule it names.
    assert diagnose(m2_student(3, reason="same_bottom"))["M3"]["k"] == 0


def test_a_child_who_always_names_the_same_rule_gives_no_reason_evidence() -> None:
    def student(reason: str | None) -> dict[str, object]:
        turns = m2_student(3, reason=reason)
        # "The top numbers are the same" on four cards whose tops differ.
        hand = ["2/12", "1/2", "5/6", "4/12"]
        turns += [turn(10 + i, "1/3", hand, attempt("2/12", reason=reason)) for i in range(4)]
        return diagnose(turns)["M2"]

    always, silent = student("same_top"), student(None)
    assert always["reasons"] == 0 and always["p_value"] == pytest.approx(silent["p_value"])


def test_clean_game_turns_alone_never_resolve_a_likely_rule() -> None:
    # A re-check in a warm-up round is needed (tests/lessons/diagnosis/test_recheck.py).
    history = m2_student(9)
    clean = [
        turn(100 + i, "1/3", ["1/6", "2/6", "5/6"], attempt("2/6"))  # 1/6 held, right play
        for i in range(200)
    ]
    result: dict[str, Any] = diagnose(history + clean)["M2"]
    assert result["status"] == "likely"
    assert result["clean_run"] == 200 and result["clean_needed"] is not None
    assert result["recheck_offers"] == 0 and result["rechecked_at_turn"] is None


def test_a_rule_never_likely_is_never_resolved() -> None:
    turns = m2_student(4) + [
        turn(100 + i, "1/3", ["1/6", "2/6", "5/6"], attempt("2/6")) for i in range(200)
    ]
    assert diagnose(turns)["M2"]["status"] in ("emerging", "none")


def test_incremental_diagnosis_is_diagnose() -> None:
    turns = m2_student(7, reason="same_top") + [turn(50, "1/3", ["1/6", "2/6"], attempt("2/6"))]
    diagnosis = Diagnosis()
    for data in turns:
        diagnosis.add(data)
    assert diagnosis.result() == diagnose(turns)
    assert diagnose(tuple(turns)) == diagnose(turns)


def test_reasons() -> None:
    assert REASONS == {
        "added_same": "M1",
        "same_top": "M2",
        "same_bottom": "M3",
        "guessed": None,
    }
    assert set(REASON_LABELS) == set(REASONS)
    assert all(set(text) == {"fr", "en"} and all(text.values()) for text in REASON_LABELS.values())


GOOD = turn(0, "1/3", ["1/6", "2/3"], attempt("1/6", reason="same_top"), drew=True)


def _broken(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("turn",), KeyError),
        (("hand",), KeyError),
        (("attempts", 0, "reason"), KeyError),
        (("turn",), "3"),
        (("turn",), True),
        (("reference",), "1/0"),
        (("reference",), "one third"),
        (("reference",), (1, 3)),
        (("reference",), "7/9"),  # not a value of the deck
        (("denominator",), 6),  # not the reference's
        (("denominator",), 0),
        (("hand",), "1/6"),
        (("hand", 0), "1/7"),
        (("attempts",), None),
        (("attempts", 0), "1/6"),
        (("attempts", 0, "played"), "2/5"),
        (("attempts", 0, "claim"), "equivalent"),
        (("attempts", 0, "asked"), "yes"),
        (("attempts", 0, "reason"), "because"),
        (("drew",), None),
    ],
)
def test_bad_input_raises_value_error_with_a_clear_message(
    path: tuple[str | int, ...], value: object
) -> None:
    with pytest.raises(ValueError, match=r"turn|fraction|deck|must|missing|unknown"):
        diagnose([_broken(path, value)])


@pytest.mark.parametrize(
    ("turns", "deck"),
    [
        ("not a list", None),
        ({"turn": 0}, None),
        ([GOOD, 3], None),
        ([turn(0, None, ["1/6"], attempt("1/6"))], None),  # neither reference nor denominator
        ([turn(0, "1/3", ["2/6"], attempt("2/6"), attempt("1/6"))], None),  # play after a right one
        ([turn(0, "1/3", ["2/6"], attempt("2/6", reason="guessed"))], None),  # reason, right claim
        ([GOOD], []),
        ([GOOD], "1/3"),
        ([GOOD], ["1/3", "x"]),
    ],
)
def test_bad_turn_lists_and_decks_raise_value_error(turns: object, deck: object) -> None:
    with pytest.raises(ValueError):
        diagnose(turns, deck=deck)
