"""Classifier: the guide's examples, overlaps, correct claims, improper cards, bad input."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons.diagnosis import (
    RULE_IDS,
    RULES,
    RULES_BY_ID,
    RULES_VERSION,
    UMBRELLA_MEMBERS,
    claim_is_correct,
    classify,
    m1_readings,
)

# (reference, played, claim) -> every ID that fits, checked by hand against the rules.
EXAMPLES = [
    ((1, 2), (2, 3), "equal", ["M0", "M1"]),
    ((2, 3), (5, 6), "equal", ["M0", "M1"]),
    ((9, 12), (3, 6), "equal", ["M0", "M1", "M5"]),
    ((1, 3), (1, 6), "equal", ["M0", "M2", "M2a"]),
    ((2, 3), (2, 12), "equal", ["M0", "M2", "M2a"]),
    ((1, 2), (1, 3), "equal", ["M0", "M2", "M7"]),  # M2 without M2a (3 and 2 not multiples)
    ((4, 6), (4, 12), "equal", ["M0", "M2", "M2a", "M6"]),
    ((5, 12), (9, 12), "equal", ["M0", "M3"]),
    ((1, 6), (2, 6), "equal", ["M0", "M3", "M3a"]),
    ((4, 6), (2, 12), "equal", ["M0", "M4"]),
    ((2, 3), (6, 12), "equal", ["M0", "M5"]),
    ((1, 6), (10, 12), "equal", ["M6"]),
    ((1, 3), (3, 6), "equal", ["M0", "M7"]),
    ((3, 6), (1, 3), "equal", ["M0", "M7"]),  # second form: a/b = c/(d - c)
    ((2, 3), (3, 2), "equal", ["M8", "M10"]),
    ((4, 6), (3, 2), "equal", ["M8"]),
    ((1, 2), (9, 6), "equal", ["M9"]),
    ((2, 3), (7, 6), "equal", ["M10"]),
    ((11, 12), (7, 6), "equal", ["M10"]),
    ((6, 12), (3, 24), "equal", ["U"]),
    ((4, 6), (10, 12), "denominator", ["D1"]),
]


@pytest.mark.parametrize(("reference", "played", "claim", "expected"), EXAMPLES)
def test_guide_examples_get_exactly_the_rules_that_fit(
    reference: tuple[int, int], played: tuple[int, int], claim: str, expected: list[str]
) -> None:
    assert classify(reference, played, claim) == expected


def test_overlaps_named_by_the_guide() -> None:
    assert {"M1", "M5"} <= set(classify((9, 12), (3, 6), "equal"))
    assert {"M2", "M2a", "M6"} <= set(classify((4, 6), (4, 12), "equal"))


def test_every_rule_has_an_example_in_the_table() -> None:
    covered = {rule_id for *_, expected in EXAMPLES for rule_id in expected}
    assert covered == set(RULE_IDS)


@pytest.mark.parametrize(
    ("reference", "played", "expected"),
    [
        ((9, 6), (1, 2), ["M9"]),  # M9 with the roles swapped
        ((7, 6), (2, 3), ["M10"]),
        ((3, 2), (2, 3), ["M8", "M10"]),
        ((3, 6), (9, 12), ["M0", "M1", "M5"]),  # M5 multiplying again
        ((1, 3), (5, 3), ["M0", "M3", "M3a", "M10"]),  # 2 short of 1, 2 over 1
        ((1, 12), (13, 12), ["M0", "M3", "M3a", "M9"]),
        ((1, 3), (13, 12), ["U"]),  # 13/12 less its whole is 1/12, not 1/3
    ],
)
def test_improper_rules_work_in_both_directions(
    reference: tuple[int, int], played: tuple[int, int], expected: list[str]
) -> None:
    assert classify(reference, played, "equal") == expected


def test_m9_strips_every_whole_not_just_one() -> None:
    assert "M9" in classify((1, 3), (7, 3), "equal")  # 7/3 = 2 + 1/3
    assert "M9" in classify((7, 3), (2, 6), "equal")


def test_m3_depends_on_the_claim() -> None:
    assert "M3" in classify((5, 12), (9, 12), "equal")
    assert classify((5, 12), (9, 12), "denominator") == []


def test_denominator_claims() -> None:
    assert classify((4, 12), (10, 12), "denominator") == []
    assert classify((4, 12), (4, 12), "denominator") == []
    assert classify((10, 12), (4, 6), "denominator") == ["D1"]
    # Equal values, but the denominators differ: the named rule is still wrong.
    assert classify((1, 3), (2, 6), "denominator") == ["D1"]
    assert claim_is_correct((1, 3), (2, 6), "equal")
    assert not claim_is_correct((1, 3), (2, 6), "denominator")


positive = st.integers(min_value=1, max_value=60)


@given(positive, positive, positive, positive)
def test_equal_claims_of_equal_fractions_are_never_tagged(x: int, y: int, m1: int, m2: int) -> None:
    reference, played = (x * m1, y * m1), (x * m2, y * m2)
    assert classify(reference, played, "equal") == []
    assert claim_is_correct(reference, played, "equal")


@given(positive, positive, positive)
def test_same_denominator_claims_with_equal_denominators_are_never_tagged(
    a: int, c: int, b: int
) -> None:
    assert classify((a, b), (c, b), "denominator") == []


@given(positive, positive, positive, positive, st.sampled_from(["equal", "denominator"]))
def test_wrong_claims_always_get_a_tag_in_canonical_order(
    a: int, b: int, c: int, d: int, claim: str
) -> None:
    tags = classify((a, b), (c, d), claim)
    assert (tags == []) == claim_is_correct((a, b), (c, d), claim)
    assert tags == [rule_id for rule_id in RULE_IDS if rule_id in tags]
    assert ("M0" in tags) == bool(UMBRELLA_MEMBERS & set(tags))
    if "U" in tags or "D1" in tags:
        assert len(tags) == 1
    if "M2a" in tags:
        assert "M2" in tags
    if "M3a" in tags:
        assert "M3" in tags


@pytest.mark.parametrize(
    ("reference", "played", "claim"),
    [
        ((0, 3), (1, 3), "equal"),
        ((1, 0), (1, 3), "equal"),
        ((1, -2), (1, 3), "equal"),
        ((1, 2, 3), (1, 3), "equal"),
        ((True, 2), (1, 3), "equal"),
        ((1.0, 2), (1, 3), "equal"),
        ("1/2/3", (1, 3), "equal"),
        ((1, 2), (1, 3), "equivalent"),
        ((1, 2), (1, 3), ""),
    ],
)
def test_bad_input_is_refused(
    reference: Any,  # bad on purpose: a zero, a bool, a float, a 3-tuple
    played: tuple[int, int],
    claim: str,
) -> None:
    with pytest.raises(ValueError):
        classify(reference, played, claim)


def test_rulebook_is_complete_in_both_languages() -> None:
    assert re.fullmatch(r"\d{4}\.\d{2}-\d+", RULES_VERSION)
    assert [rule.id for rule in RULES] == list(RULE_IDS)
    assert set(RULES_BY_ID) == set(RULE_IDS)
    for rule in RULES:
        for text in (rule.name, rule.teacher, rule.family, rule.try_this):
            assert set(text) == {"fr", "en"}
            assert all(value.strip() for value in text.values())
        assert rule.detection and rule.basis and rule.confidence in ("high", "medium", "low")
        assert rule.claim in ("equal", "denominator")
        for reference, played in rule.examples:
            assert rule.id in classify(reference, played, rule.claim)
        data: dict[str, Any] = rule.as_dict()
        assert data["id"] == rule.id and all(" → " in e for e in data["examples"])
    assert RULES_BY_ID["M2a"].part_of == "M2" and RULES_BY_ID["M3a"].part_of == "M3"


def test_m1_gets_both_readings() -> None:
    assert m1_readings((1, 2), (2, 3), "en") == [
        "added 1 to top and bottom",
        "each is 1 piece short of 1",
    ]
    assert m1_readings((9, 12), (3, 6), "fr") == [
        "retiré 6 en haut et en bas",
        "il manque 3 parts à chacune pour faire 1",
    ]
    with pytest.raises(ValueError):
        m1_readings((1, 2), (1, 3), "fr")
    with pytest.raises(ValueError):
        m1_readings((1, 2), (2, 3), "de")
