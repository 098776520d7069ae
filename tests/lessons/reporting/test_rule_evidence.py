"""The one-pass evidence of the dashboards equals lessons.diagnosis.student_evidence."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lessons.demo.simulate import PROFILES, SimulatedPlay, simulate_turn
from lessons.diagnosis import DEFAULT_DECK_CARDS, attempt_evidence, student_evidence
from lessons.reporting.rule_evidence import student_evidence_fast

cards = st.sampled_from(DEFAULT_DECK_CARDS)
plays = st.tuples(
    cards,
    cards,
    st.sampled_from(["equal", "denominator"]),
    st.lists(cards, min_size=1, max_size=7),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(plays, max_size=40))
def test_fast_evidence_equals_the_diagnosis(history: list) -> None:  # type: ignore[type-arg]
    attempts = [
        attempt_evidence(reference, played, claim, hand, claim_asked=asked)
        for reference, played, claim, hand, asked in history
    ]
    assert student_evidence_fast(attempts) == student_evidence(attempts)


def test_fast_evidence_on_simulated_students() -> None:
    rng = random.Random(7)
    for name, profile in PROFILES.items():
        turns = [simulate_turn(rng, profile) for _turn in range(300)]
        attempts = [
            attempt_evidence(
                turn.reference,
                turn.played,
                turn.claim,
                json.loads(turn.hand),
                claim_asked=True,
            )
            for turn in turns
            if isinstance(turn, SimulatedPlay)
        ]
        fast, slow = student_evidence_fast(attempts), student_evidence(attempts)
        assert fast == slow, name
        assert any(e.status != "none" for e in fast.values()) or name == "secure"
