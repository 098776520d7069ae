"""When the warm-up asks "why?" (lessons.diagnosis.why): where the reason informs, a few times a
round, never twice in a row after a right answer, the same decisions for the same turns.

Rounds are played by the simulated pupils of warmup_calibration (items from probe_next's
WarmUp); reason_asked() replays a round's stored turns and must decide as the round did.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons.diagnosis.probe import ROUND_CAP, WarmUp
from lessons.diagnosis.simulation.warmup_calibration import Pupil, answer
from lessons.diagnosis.stream import read_turn
from lessons.diagnosis.why import ASK_CAP, COVER_CAP, Why, reason_asked, reason_informs

PUPILS = {
    "competent": Pupil(wrong=0.05, reasons=True),
    "random": Pupil(wrong=0.4, reasons=True),
    "M1": Pupil(habit="M1", rate=0.5, reasons=True),
    "M3 30%": Pupil(habit="M3", rate=0.3, reasons=True),
}


def _round(pupil: Pupil, seed: int, round_id: Any = 7) -> tuple[list[dict[str, Any]], list[Any]]:
    """Play one round; return its turns (reasons kept only where asked) and each decision."""
    rng = random.Random(seed)
    warm_up = WarmUp(level=pupil.level, seed=seed, round_id=round_id)
    why = Why(warm_up)
    turns: list[dict[str, Any]] = []
    decisions: list[tuple[bool, bool, bool]] = []  # (asked, right, informs)
    while (item := warm_up.next_item()) is not None:
        data: dict[str, Any] = answer(rng, pupil, item, len(turns), round_id)
        turn = read_turn(data, warm_up.diagnosis.deck, len(turns))
        informs = reason_informs(warm_up, turn)
        asked = why.asks(turn)
        assert turn.first is not None
        decisions.append((asked, turn.first.correct, informs))
        if not asked:
            data["attempts"][0]["reason"] = None
        turns.append(data)
        warm_up.add(data)
    return turns, decisions


@pytest.mark.parametrize("kind", sorted(PUPILS))
def test_never_twice_in_a_row_after_a_right_answer_and_at_most_the_cap(kind: str) -> None:
    for seed in range(25):
        _turns, decisions = _round(PUPILS[kind], seed)
        asked = [(a, right) for a, right, _ in decisions]
        assert all(not (asked[i] == asked[i + 1] == (True, True)) for i in range(len(asked) - 1))
        assert sum(a for a, _, informs in decisions if informs) <= ASK_CAP
        assert sum(a for a, _, informs in decisions if not informs) <= COVER_CAP


def test_a_competent_pupil_is_asked_a_few_times_not_after_every_item() -> None:
    counts = []
    for seed in range(40):
        _turns, decisions = _round(PUPILS["competent"], seed)
        counts.append((sum(a for a, _, _ in decisions), len(decisions)))
    assert all(asked < items for asked, items in counts)
    assert sorted(asked for asked, _ in counts)[len(counts) // 2] <= 4  # median: a few
    assert any(asked >= 1 for asked, _ in counts)  # now and then, after right answers too


@pytest.mark.parametrize("kind", ["M1", "M3 30%", "random"])
def test_every_informing_answer_is_asked_until_the_cap(kind: str) -> None:
    for seed in range(25):
        _turns, decisions = _round(PUPILS[kind], seed)
        total = 0
        for asked, _right, informs in decisions:
            if informs:
                assert asked == (total < ASK_CAP)
                total += asked


def test_a_reason_informs_only_on_a_wrong_answer_offering_an_undecided_named_rule() -> None:
    warm_up = WarmUp(seed=3, round_id="r")
    item = {"reference": "1/2", "options": ["3/6", "2/3", "1/6", "2/12"]}
    deck = warm_up.diagnosis.deck

    def turn(played: str) -> Any:
        data = {
            "turn": 0,
            "source": "probe",
            "round": "r",
            "reference": item["reference"],
            "denominator": 2,
            "hand": item["options"],
            "attempts": [{"played": played, "claim": "equal", "asked": True, "reason": None}],
            "drew": False,
        }
        return read_turn(data, deck)

    assert reason_informs(warm_up, turn("2/3"))  # wrong, an M1 trap, M1 undecided
    assert not reason_informs(warm_up, turn("3/6"))  # right: a right answer's reason never weighs


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), kind=st.sampled_from(sorted(PUPILS)))
def test_replaying_the_stored_turns_gives_the_rounds_own_decisions(seed: int, kind: str) -> None:
    turns, decisions = _round(PUPILS[kind], seed, round_id=seed % 1000)
    assert 1 <= len(turns) <= ROUND_CAP
    replayed = [
        reason_asked(turns[: i + 1], seed=seed, round_id=seed % 1000) for i in range(len(turns))
    ]
    assert replayed == [asked for asked, _, _ in decisions]
    # The same turns, seed and round: the same answer, every time.
    assert reason_asked(turns, seed=seed, round_id=seed % 1000) == replayed[-1]


def test_game_turns_before_the_round_are_read_but_never_asked_about() -> None:
    game = {
        "turn": 0,
        "reference": "1/2",
        "denominator": 2,
        "hand": ["2/3", "3/6"],
        "attempts": [{"played": "2/3", "claim": "equal", "asked": False, "reason": None}],
        "drew": False,
    }
    turns, _decisions = _round(PUPILS["M1"], 5, round_id="w")
    # The first answer after a game turn is decided as if the game turn were not asked about.
    alone = reason_asked(turns[:1], seed=5, round_id="w")
    assert isinstance(reason_asked([game, *turns[:1]], seed=5, round_id="w"), bool)
    assert isinstance(alone, bool)
    with pytest.raises(ValueError):
        reason_asked([*turns[:1], game], seed=5, round_id="w")  # the last turn is no answer
    with pytest.raises(ValueError):
        reason_asked(turns[:1], seed=5, round_id="another")
    with pytest.raises(ValueError):
        reason_asked([], seed=5, round_id="w")


def test_a_right_answer_after_a_right_answer_asked_is_not_asked() -> None:
    # Find a round where a right answer was asked, and check the next right answer was not.
    seen = 0
    for seed in range(60):
        _turns, decisions = _round(PUPILS["competent"], seed)
        for before, after in zip(decisions, decisions[1:], strict=False):
            if before[:2] == (True, True) and after[1]:
                seen += 1
                assert not after[0]
    assert seen > 0
