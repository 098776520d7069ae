""" "resolved" needs a clean re-check: a later warm-up round offering the rule's trap, not taken."""

from __future__ import annotations

from typing import Any

from lessons.diagnosis import Diagnosis, diagnose
from lessons.diagnosis.model import RESOLVED_MIN_CLEAN, recheck_needed

# A warm-up item on 1/4: 2/8 equal, 2/5 (M1), 1/8 (M2), 3/4 (M3).
OPTIONS = ["2/8", "2/5", "1/8", "3/4"]
OTHER = ("2/6", ["4/12", "3/7", "2/12", "5/6"])  # 4/12 equal, 3/7 M1, 2/12 M2, 5/6 M3


def probe(
    number: int,
    played: str,
    round_id: str | None = None,
    item: tuple[str, list[str]] = ("1/4", OPTIONS),
    reason: str | None = None,
) -> dict[str, Any]:
    reference, options = item
    turn: dict[str, Any] = {
        "turn": number,
        "source": "probe",
        "reference": reference,
        "denominator": int(reference.split("/")[1]),
        "hand": list(options),
        "attempts": [{"played": played, "claim": "equal", "asked": True, "reason": reason}],
        "drew": False,
    }
    if round_id is not None:
        turn["round"] = round_id
    return turn


def m1_round(round_id: str | None, start: int = 0, fits: int = 8) -> list[dict[str, Any]]:
    """A first round where the student takes the M1 trap on two references every time."""
    return [
        probe(start + i, "2/5" if i % 2 else "3/7", round_id, ("1/4", OPTIONS) if i % 2 else OTHER)
        for i in range(fits)
    ]


def game(number: int, played: str = "3/6") -> dict[str, Any]:
    return {
        "turn": number,
        "reference": "1/2",
        "denominator": 2,
        "hand": ["3/6", "2/3", "1/6"],  # 2/3 fits M1, 1/6 M2
        "attempts": [{"played": played, "claim": None, "asked": False, "reason": None}],
        "drew": False,
    }


def test_the_offers_a_re_check_needs_rule_out_a_30_percent_habit_at_1_percent() -> None:
    assert RESOLVED_MIN_CLEAN == recheck_needed(0) == 13  # 0.7**13 = 0.97%, 0.7**12 = 1.4%
    assert recheck_needed(1) == 20
    assert recheck_needed(2) > 24  # two traps taken: no re-check round can pass


def test_clean_answers_in_the_round_that_found_the_habit_do_not_resolve_it() -> None:
    turns = m1_round("a") + [probe(100 + i, "2/8", "a") for i in range(40)]
    result: dict[str, Any] = diagnose(turns)["M1"]
    assert result["status"] == "likely" and result["recheck_offers"] == 0


def test_a_later_round_with_enough_clean_offers_resolves_and_says_when() -> None:
    first = m1_round("a")
    diagnosis = Diagnosis()
    for data in first:
        diagnosis.add(data)
    assert diagnosis.status("M1") == "likely"
    assert diagnosis.result()["M1"]["clean_needed"] == 13
    turns = list(first)
    for i in range(13):
        turns.append(probe(200 + i, "2/8", "b"))
        diagnosis.add(turns[-1])
        assert diagnosis.status("M1") == ("resolved" if i + 1 >= 13 else "likely"), i
    result: dict[str, Any] = diagnosis.result()["M1"]
    assert result["rechecked_at_turn"] == len(turns) - 1
    assert turns[result["rechecked_at_turn"]]["round"] == "b"
    assert (result["recheck_offers"], result["recheck_taken"]) == (13, 0)
    assert diagnose(turns) == diagnosis.result()


def test_one_slip_in_the_re_check_needs_more_offers_and_two_sink_it() -> None:
    first = m1_round("a")
    slip = [*first, probe(200, "2/5", "b")]
    assert diagnose(slip)["M1"]["clean_needed"] == 20
    turns = slip + [probe(201 + i, "2/8", "b") for i in range(18)]
    assert diagnose(turns)["M1"]["status"] == "likely"  # 19 offers
    assert diagnose([*turns, probe(300, "2/8", "b")])["M1"]["status"] == "resolved"  # 20
    # Two taken: more offers than a round of 24 items holds.
    two = [*slip, probe(201, "2/5", "b"), *[probe(202 + i, "2/8", "b") for i in range(22)]]
    assert diagnose(two)["M1"]["status"] == "likely"


def test_a_fitting_claim_after_resolved_makes_it_likely_again_and_a_later_round_checks() -> None:
    first = m1_round("a")
    turns = first + [probe(200 + i, "2/8", "b") for i in range(13)]
    assert diagnose(turns)["M1"]["status"] == "resolved"
    again = [*turns, game(300, "2/3")]
    result: dict[str, Any] = diagnose(again)["M1"]
    assert result["status"] == "likely" and result["rechecked_at_turn"] is None
    later = [*again, *[probe(400 + i, "2/8", "c") for i in range(13)]]
    assert diagnose(later)["M1"]["status"] == "resolved"
    # Taken in the same round after passing: likely again, and that round no longer checks.
    same = [*turns, probe(250, "2/5", "b"), *[probe(251 + i, "2/8", "b") for i in range(30)]]
    assert diagnose(same)["M1"]["status"] == "likely"


def test_a_game_fit_after_likely_moves_the_check_to_a_later_round() -> None:
    first = m1_round("a")
    turns = [*first, game(100, "2/3"), *[probe(200 + i, "2/8", "b") for i in range(13)]]
    assert diagnose(turns)["M1"]["status"] == "resolved"


def test_unnamed_rounds_are_split_by_game_turns() -> None:
    first = [{**t} for t in m1_round(None)]
    same_round = first + [probe(200 + i, "2/8") for i in range(13)]
    assert diagnose(same_round)["M1"]["status"] == "likely"
    later = [*first, game(150), *[probe(200 + i, "2/8") for i in range(13)]]
    assert diagnose(later)["M1"]["status"] == "resolved"


def test_a_wrong_answer_on_another_trap_is_an_offer_not_taken() -> None:
    first = m1_round("a")
    turns = first + [probe(200 + i, "2/8", "b") for i in range(12)]
    turns.append(probe(250, "1/8", "b"))  # the M2 trap: M1's trap offered, not taken
    result: dict[str, Any] = diagnose(turns)["M1"]
    assert result["status"] == "resolved" and result["recheck_taken"] == 0


def test_clean_game_turns_after_likely_do_not_count_as_a_re_check() -> None:
    first = m1_round("a")
    turns = first + [game(100 + i) for i in range(100)]
    result: dict[str, Any] = diagnose(turns)["M1"]
    assert result["status"] == "likely" and result["recheck_offers"] == 0


def test_a_rule_never_likely_has_no_re_check() -> None:
    turns = [probe(i, "2/8", "b") for i in range(30)]
    result: dict[str, Any] = diagnose(turns)["M1"]
    assert result["status"] == "none" and result["recheck_offers"] == 0
    assert result["rechecked_at_turn"] is None and result["clean_needed"] is None
