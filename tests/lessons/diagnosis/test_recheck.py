""" "resolved" needs a clean re-check: a later warm-up round offering the rule's trap, not taken."""

from __future__ import annotations

from lessons.diagnosis import Diagnosis, diagnose

# A warm-up item on 1/4: 2/8 equal, 2/5 (M1), 1/8 (M2), 3/4 (M3).
OPTIONS = ["2/8", "2/5", "1/8", "3/4"]
OTHER = ("2/6", ["4/12", "3/7", "2/12", "5/6"])  # 4/12 equal, 3/7 M1, 2/12 M2, 5/6 M3


def probe(number, played, round_id=None, item=("1/4", OPTIONS), reason=None):
    reference, options = item
    turn = {
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


def m1_round(round_id, start=0, fits=8):
    """A first round where the student takes the M1 trap on two references every time."""
    return [
        probe(start + i, "2/5" if i % 2 else "3/7", round_id, ("1/4", OPTIONS) if i % 2 else OTHER)
        for i in range(fits)
    ]


def game(number, played="3/6"):
    return {
        "turn": number,
        "reference": "1/2",
        "denominator": 2,
        "hand": ["3/6", "2/3", "1/6"],  # 2/3 fits M1, 1/6 M2
        "attempts": [{"played": played, "claim": None, "asked": False, "reason": None}],
        "drew": False,
    }


def test_clean_answers_in_the_round_that_found_the_habit_do_not_resolve_it():
    turns = m1_round("a") + [probe(100 + i, "2/8", "a") for i in range(40)]
    result = diagnose(turns)["M1"]
    assert result["status"] == "likely" and result["recheck_run"] == 0


def test_a_later_round_with_enough_clean_offers_resolves_and_says_when():
    first = m1_round("a")
    diagnosis = Diagnosis()
    for data in first:
        diagnosis.add(data)
    needed = diagnosis.result()["M1"]["clean_needed"]
    assert diagnosis.status("M1") == "likely" and 5 <= needed <= 24
    turns = list(first)
    for i in range(needed):
        turns.append(probe(200 + i, "2/8", "b"))
        diagnosis.add(turns[-1])
        want = "resolved" if i + 1 >= needed else "likely"
        assert diagnosis.status("M1") == want, i
    result = diagnosis.result()["M1"]
    assert result["rechecked_at_turn"] == len(turns) - 1
    assert turns[result["rechecked_at_turn"]]["round"] == "b"
    assert diagnose(turns) == diagnosis.result()


def test_a_fitting_claim_after_resolved_makes_it_likely_again_and_restarts_the_check():
    first = m1_round("a")
    needed = diagnose(first)["M1"]["clean_needed"]
    turns = first + [probe(200 + i, "2/8", "b") for i in range(needed)]
    assert diagnose(turns)["M1"]["status"] == "resolved"
    again = [*turns, game(300, "2/3")]
    result = diagnose(again)["M1"]
    assert result["status"] == "likely" and result["rechecked_at_turn"] is None
    # A new round checks again.
    later = [*again, *[probe(400 + i, "2/8", "c") for i in range(needed + 5)]]
    assert diagnose(later)["M1"]["status"] == "resolved"


def test_a_taken_trap_during_the_re_check_restarts_the_count():
    first = m1_round("a")
    needed = diagnose(first)["M1"]["clean_needed"]
    turns = first + [probe(200 + i, "2/8", "b") for i in range(needed - 1)]
    turns.append(probe(299, "2/5", "b"))
    turns += [probe(300 + i, "2/8", "b") for i in range(needed + 3)]
    result = diagnose(turns)["M1"]
    # The fit was in round "b": only a later round can check again.
    assert result["status"] == "likely" and result["recheck_run"] == 0


def test_unnamed_rounds_are_split_by_game_turns():
    first = [{**t} for t in m1_round(None)]
    for t in first:
        t.pop("round", None)
    needed = diagnose(first)["M1"]["clean_needed"]
    same_round = first + [probe(200 + i, "2/8") for i in range(needed)]
    assert diagnose(same_round)["M1"]["status"] == "likely"
    later = [*first, game(150), *[probe(200 + i, "2/8") for i in range(needed)]]
    assert diagnose(later)["M1"]["status"] == "resolved"


def test_wrong_answers_on_other_traps_neither_count_nor_reset_the_re_check():
    first = m1_round("a")
    needed = diagnose(first)["M1"]["clean_needed"]
    turns = first + [probe(200 + i, "2/8", "b") for i in range(needed - 1)]
    turns.append(probe(250, "1/8", "b"))  # the M2 trap
    assert diagnose(turns)["M1"]["recheck_run"] == needed - 1
    turns.append(probe(251, "2/8", "b"))
    assert diagnose(turns)["M1"]["status"] == "resolved"


def test_a_rule_never_likely_has_no_re_check():
    turns = [probe(i, "2/8", "b") for i in range(30)]
    result = diagnose(turns)["M1"]
    assert result["status"] == "none" and result["recheck_run"] == 0
    assert result["rechecked_at_turn"] is None and result["clean_needed"] is None
