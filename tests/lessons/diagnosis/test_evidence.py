"""Evidence and status: never one event, likely above chance, resolved after clean chances."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons.diagnosis import (
    DEFAULT_DECK_CARDS,
    RULE_IDS,
    THRESHOLDS,
    attempt_evidence,
    rule_evidence,
    status_for,
    student_evidence,
)
from lessons.diagnosis.evidence import binomial_tail

HAND = list(DEFAULT_DECK_CARDS)
# Wrong plays that fit M4 on three different top cards (M4 is rare in the default deck).
M4_PLAYS = [((4, 6), (2, 12)), ((2, 3), (8, 24)), ((5, 6), (2, 12))]


def _wrong(reference, played, hand=HAND, claim="equal"):
    return attempt_evidence(reference, played, claim, hand)


def _clean_m4_chance():
    """A correct claim while holding a card that would have fitted M4."""
    return attempt_evidence((4, 6), (8, 12), "equal", [(8, 12), (2, 12), (1, 3)])


def test_thresholds_are_the_guides():
    assert dict(THRESHOLDS) == {
        "emerging_min_matches": 2,
        "likely_min_matches": 3,
        "likely_min_distinct_references": 2,
        "likely_min_lift": 3.0,
        "resolved_clean_opportunities": 10,
    }


def test_m4_plays_fit_m4():
    for reference, played in M4_PLAYS:
        assert "M4" in _wrong(reference, played).tags


@given(st.sampled_from(DEFAULT_DECK_CARDS), st.sampled_from(DEFAULT_DECK_CARDS))
def test_one_event_is_never_a_status(reference, played):
    attempt = _wrong(reference, played, hand=[played])
    for evidence in student_evidence([attempt]).values():
        assert evidence.status == "none"


def test_one_rare_event_with_a_huge_lift_is_still_nothing():
    evidence = rule_evidence([_wrong(*M4_PLAYS[0])], "M4")
    assert evidence.k == 1 and evidence.lift is not None and evidence.lift > 3
    assert evidence.status == "none"


def test_two_matches_are_emerging():
    evidence = rule_evidence([_wrong(*M4_PLAYS[0]), _wrong(*M4_PLAYS[1])], "M4")
    assert (evidence.k, evidence.n, evidence.distinct_references) == (2, 2, 2)
    assert evidence.status == "emerging"


def test_three_matches_on_two_top_cards_above_chance_are_likely():
    attempts = [_wrong(r, p) for r, p in M4_PLAYS] + [_wrong((1, 2), (1, 3))]
    evidence = rule_evidence(attempts, "M4")
    assert (evidence.k, evidence.n, evidence.distinct_references) == (3, 4, 3)
    assert evidence.lift is not None and evidence.lift >= 3
    assert evidence.p0 == pytest.approx(sum(a.p0.get("M4", 0) for a in attempts) / 4)
    assert evidence.lift == pytest.approx(0.75 / evidence.p0)
    assert evidence.p_value is not None and evidence.p_value < 0.05
    assert evidence.status == "likely"


def test_three_matches_on_one_top_card_are_only_emerging():
    attempts = [_wrong((4, 6), (2, 12))] * 3
    evidence = rule_evidence(attempts, "M4")
    assert evidence.distinct_references == 1 and evidence.status == "emerging"


def test_matches_at_chance_level_are_only_emerging():
    # Each hand held only the played card: any wrong play would have fitted (p0 = 1).
    attempts = [_wrong(r, p, hand=[p]) for r, p in M4_PLAYS]
    evidence = rule_evidence(attempts, "M4")
    assert evidence.p0 == 1.0 and evidence.lift == 1.0 and evidence.status == "emerging"


def test_resolved_after_ten_clean_opportunities_and_back_on_relapse():
    history = [_wrong(r, p) for r, p in M4_PLAYS]
    history += [_clean_m4_chance() for _ in range(9)]
    assert rule_evidence(history, "M4").status == "likely"
    # Claims where M4 could not fire (no such card in hand) do not count.
    history += [attempt_evidence((1, 3), (2, 6), "equal", [(2, 6), (1, 2)])] * 5
    assert rule_evidence(history, "M4").clean_opportunities == 9
    history.append(_clean_m4_chance())
    evidence = rule_evidence(history, "M4")
    assert evidence.clean_opportunities == 10 and evidence.status == "resolved"
    history.append(_wrong((5, 6), (2, 12)))
    assert rule_evidence(history, "M4").status == "likely"


def test_a_single_event_followed_by_clean_play_is_not_resolved():
    history = [_wrong(*M4_PLAYS[0])] + [_clean_m4_chance() for _ in range(12)]
    assert rule_evidence(history, "M4").status == "none"


def test_wrong_denominator_claims_reach_emerging_never_likely():
    attempts = [
        attempt_evidence((4, 6), (10, 12), "denominator", HAND),
        attempt_evidence((1, 3), (1, 6), "denominator", HAND),
        attempt_evidence((2, 3), (4, 12), "denominator", HAND),
        attempt_evidence((5, 6), (5, 12), "denominator", HAND),
    ]
    evidence = rule_evidence(attempts, "D1")
    assert evidence.k == 4 and evidence.lift == 1.0 and evidence.status == "emerging"


def test_mixed_claims_do_not_change_the_lift():
    equal_only = [_wrong(r, p) for r, p in M4_PLAYS]
    mixed = equal_only + [attempt_evidence((4, 6), (10, 12), "denominator", HAND)] * 3
    assert rule_evidence(mixed, "M4").n == 6
    assert rule_evidence(mixed, "M4").lift == pytest.approx(rule_evidence(equal_only, "M4").lift)


def test_correct_claims_are_not_evidence_against_n():
    evidence = student_evidence([_clean_m4_chance()] * 3)
    assert list(evidence) == list(RULE_IDS)
    assert all(e.k == 0 and e.n == 0 and e.lift is None for e in evidence.values())


@pytest.mark.parametrize(
    ("k", "distinct", "lift", "clean", "status"),
    [
        (0, 0, None, 50, "none"),
        (1, 1, 50.0, 0, "none"),
        (2, 2, 50.0, 0, "emerging"),
        (3, 2, 3.0, 0, "likely"),
        (3, 2, 2.99, 0, "emerging"),
        (3, 1, 9.0, 0, "emerging"),
        (3, 2, 9.0, 9, "likely"),
        (3, 2, 9.0, 10, "resolved"),
        (2, 1, 1.0, 10, "resolved"),
        (1, 1, 9.0, 10, "none"),
    ],
)
def test_status_cut_offs(k, distinct, lift, clean, status):
    assert status_for(k, distinct, lift, clean) == status


def test_binomial_tail():
    assert binomial_tail(0, 5, 0.3) == 1.0
    assert binomial_tail(1, 1, 0.5) == pytest.approx(0.5)
    assert binomial_tail(3, 3, 0.1) == pytest.approx(0.001)
    assert binomial_tail(2, 4, 0.0) == 0.0
    assert 0.0 < binomial_tail(600, 2000, 0.25) < 1e-3


def test_evidence_is_json_ready():
    attempt = _wrong(*M4_PLAYS[0])
    data = json.loads(json.dumps(attempt.as_dict()))
    assert data["reference"] == "4/6" and data["played"] == "2/12"
    assert data["tags"] == ["M0", "M4"] and "M4" in data["opportunities"]
    json.dumps(rule_evidence([attempt], "M4").as_dict())


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError):
        rule_evidence([], "M11")


def _simulate(seed: int, prefers: str | None, turns: int = 300) -> list:
    """Play `turns` claims from random 7-card hands of the default deck.

    A student with a misconception plays a card that fits `prefers` whenever the hand has one;
    otherwise (and always when `prefers` is None) any card at random.
    """
    rng = random.Random(seed)
    history = []
    for _ in range(turns):
        hand = rng.sample(HAND, 7)
        reference = rng.choice(HAND)
        fitting = [c for c in hand if prefers in attempt_evidence(reference, c, "equal", []).tags]
        played = rng.choice(fitting or hand)
        # Like the play page, call a same-denominator card a "same denominator" claim.
        claim = "denominator" if played[1] == reference[1] else "equal"
        history.append(attempt_evidence(reference, played, claim, hand))
    return history


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_player_is_never_likely_and_sits_at_chance(seed):
    evidence = student_evidence(_simulate(seed, None))
    assert all(e.status != "likely" for e in evidence.values())
    lifts = [e.lift for e in evidence.values() if e.k >= 10]
    assert lifts and all(0.5 < lift < 1.8 for lift in lifts)


@pytest.mark.parametrize("rule", ["M1", "M2", "M2a"])
def test_a_systematic_player_is_likely_on_their_rule(rule):
    evidence = student_evidence(_simulate(7, rule))
    assert evidence[rule].status == "likely"
    assert evidence[rule].lift is not None and evidence[rule].lift >= 3
