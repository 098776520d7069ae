"""reading: the low-accuracy need's mark and count, and what one wrong play fits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from lessons.diagnosis import RULE_IDS
from lessons.evidence.loading import Row, RuleStatus
from lessons.evidence.reading import (
    LOW_ACCURACY_BELOW,
    LOW_ACCURACY_MIN_CLAIMS,
    first_claims,
    fitting_rules,
    low_accuracy,
)

MOMENT = datetime(2026, 11, 2, 10, tzinfo=UTC)


def _row(correct: bool, turn: int | None = None, index: int = 0) -> Row:
    played = (3, 6) if correct else (2, 3)
    return Row(
        1, None, 5, MOMENT, (1, 2), None, played, "equal",
        "equal" if correct else "wrong", 1000, MOMENT.date(), correct, index + 1, turn,
    )  # fmt: skip


def _statuses(likely: str | None = None) -> dict[str, RuleStatus]:
    return {
        rule: RuleStatus(rule, "likely" if rule == likely else "none", 0, 0, 0.0, None, 0, 0, 0, 0)
        for rule in RULE_IDS
    }


@pytest.mark.parametrize(
    ("right", "claims", "named"),
    [
        (6, 10, True),  # 60 %: under the mark, enough claims
        (7, 10, False),  # 70 %: the mark itself is not under it
        (0, 9, False),  # too few claims to name anything
        (13, 20, True),
        (14, 20, False),
    ],
)
def test_low_accuracy_mark_and_count(right: int, claims: int, named: bool) -> None:
    assert LOW_ACCURACY_BELOW == 0.70 and LOW_ACCURACY_MIN_CLAIMS == 10
    rows = [_row(i < right, index=i) for i in range(claims)]
    need = low_accuracy(rows, _statuses())
    assert (need is not None) == named
    if need is not None:
        assert (need.right, need.claims) == (right, claims)


def test_a_likely_misconception_is_named_instead() -> None:
    rows = [_row(False, index=i) for i in range(12)]
    assert low_accuracy(rows, _statuses("M1")) is None
    assert low_accuracy(rows, _statuses()) is not None


def test_first_claims_keep_one_row_per_turn() -> None:
    rows = [_row(False, 1, 0), _row(False, 1, 1), _row(True, 1, 2), _row(False, 2, 3)]
    assert [row.id for row in first_claims(rows)] == [1, 4]
    # Rows without a turn (older logs) are a turn each.
    loose = [_row(False, None, i) for i in range(3)]
    assert len(first_claims(loose)) == 3


def test_what_a_wrong_play_fits_leaves_out_the_umbrella_and_parents() -> None:
    assert fitting_rules(("M0", "M4", "M5", "M6")) == ("M4", "M5", "M6")
    assert fitting_rules(("M0", "M2", "M2a", "M4")) == ("M2a", "M4")
    assert fitting_rules(("U",)) == ()
    assert fitting_rules(("M0",)) == ()
