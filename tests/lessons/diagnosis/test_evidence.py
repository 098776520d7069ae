"""One judged play's evidence (tags, chance rates, opportunities), as the attempt log stores it.

Statuses are diagnose()'s alone (test_diagnose.py); the old per-attempt status path is gone.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lessons.diagnosis as diagnosis
from games.engine.fractions import FractionValue
from lessons.diagnosis import DEFAULT_DECK_CARDS, attempt_evidence, diagnose
from lessons.diagnosis.evidence import AttemptEvidence

HAND = list(DEFAULT_DECK_CARDS)
# Wrong plays that fit M4 on three different top cards (M4 is rare in the default deck).
M4_PLAYS = [((4, 6), (2, 12)), ((2, 3), (8, 24)), ((5, 6), (2, 12))]


def _wrong(
    reference: FractionValue,
    played: FractionValue,
    hand: list[FractionValue] = HAND,
    claim: str = "equal",
) -> AttemptEvidence:
    return attempt_evidence(reference, played, claim, hand)


def test_m4_plays_fit_m4() -> None:
    for reference, played in M4_PLAYS:
        assert "M4" in _wrong(reference, played).tags


def test_evidence_is_json_ready() -> None:
    attempt = _wrong(*M4_PLAYS[0])
    data = json.loads(json.dumps(attempt.as_dict()))
    assert data["reference"] == "4/6" and data["played"] == "2/12"
    assert data["tags"] == ["M0", "M4"] and "M4" in data["opportunities"]


@pytest.mark.parametrize(
    "name",
    ["THRESHOLDS", "STATUS_RULES_TEXT", "status_for", "student_evidence", "rule_evidence"],
)
def test_the_old_status_path_is_gone(name: str) -> None:
    # One truth: no second way to give a rule a status.
    assert not hasattr(diagnosis, name)


@given(st.sampled_from(DEFAULT_DECK_CARDS), st.sampled_from(DEFAULT_DECK_CARDS))
def test_one_play_is_never_a_status(reference: str, played: str) -> None:
    turn = {
        "turn": 0,
        "reference": "{}/{}".format(*reference),
        "denominator": None,
        "hand": ["{}/{}".format(*played)],
        "attempts": [
            {"played": "{}/{}".format(*played), "claim": "equal", "asked": True, "reason": None}
        ],
        "drew": False,
    }
    for figures in diagnose([turn]).values():
        assert figures["status"] in ("none", "not_possible")
