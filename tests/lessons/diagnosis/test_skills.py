"""Skills: tags per claim, factor, standards, and states with their cut-offs."""

from __future__ import annotations

from datetime import date

import pytest

from lessons.diagnosis import (
    SKILL_CUTOFFS,
    SKILL_IDS,
    SKILLS,
    STATE_LABELS,
    STATES,
    Opportunity,
    factor,
    progress_by_skill,
    skill_progress,
    skill_tags,
    standards_tags,
)

MON, TUE = date(2026, 11, 16), date(2026, 11, 17)


@pytest.mark.parametrize(
    ("reference", "played", "tags"),
    [
        ((4, 12), (10, 12), ["S1"]),
        ((1, 3), (2, 6), ["S2"]),
        ((2, 6), (1, 3), ["S2", "S5"]),
        ((2, 3), (8, 12), ["S3"]),
        ((8, 12), (2, 3), ["S3", "S5"]),
        ((1, 2), (24, 48), ["S4"]),
        ((12, 24), (6, 12), ["S4", "S5"]),
        ((1, 2), (9, 6), ["S2", "S6"]),
        ((3, 2), (3, 2), ["S1", "S6"]),
        ((1, 4), (2, 8), []),  # outside the deck's denominators
    ],
)
def test_skill_tags(reference: tuple[int, int], played: tuple[int, int], tags: list[str]) -> None:
    assert skill_tags(reference, played) == tags


def test_factor() -> None:
    assert factor((1, 3), (2, 6)) == 2.0
    assert factor((1, 2), (1, 3)) == 1.5
    assert factor((20, 48), (5, 12)) == 4.0
    assert factor((5, 12), (7, 12)) == 1.0


def test_standards() -> None:
    assert standards_tags((2, 3), (8, 12)) == ["4.NF.A.1"]
    assert standards_tags((8, 12), (2, 3)) == ["4.NF.A.1"]  # S3 and S5 share it
    assert standards_tags((4, 12), (10, 12)) == ["3.NF.A.3d"]
    assert standards_tags((1, 2), (9, 6)) == ["3.NF.A.3b", "3.NF.A.3c", "MA 4.NF.A.1"]
    assert list(SKILLS) == list(SKILL_IDS)
    for skill in SKILLS.values():
        for text in (skill.name, skill.description, skill.france):
            assert set(text) == {"fr", "en"} and all(text.values())
        assert skill.ccss


def test_cut_offs_are_published() -> None:
    assert dict(SKILL_CUTOFFS) == {
        "window": 10,
        "familiar_min_accuracy": 0.70,
        "proficient_min_accuracy": 0.90,
        "proficient_min_streak": 3,
        "mastered_min_days": 2,
    }
    assert set(STATE_LABELS) == set(STATES)


def _run(results: str, session: str = "s1", day: date = MON) -> list[Opportunity]:
    return [Opportunity(mark == "1", session, day) for mark in results]


@pytest.mark.parametrize(
    ("results", "state"),
    [
        ("", "not_started"),
        ("0", "attempted"),
        ("1", "familiar"),  # 100% but no run of 3 yet
        ("111", "proficient"),
        ("1111110000", "attempted"),  # 60%
        ("1111111000", "familiar"),  # exactly 70%
        ("0111111111", "proficient"),  # exactly 90%, last 3 right
        ("1111111110", "familiar"),  # 90% but the last one missed
        ("111111100" + "1", "familiar"),  # 80%
        ("0000000000" + "1111111111", "proficient"),  # only the last 10 count
    ],
)
def test_states_on_the_last_ten(results: str, state: str) -> None:
    assert skill_progress(_run(results)).state == state


def test_mastered_needs_proficient_in_two_sessions_on_different_days() -> None:
    first = _run("1111", "s1", MON)
    assert skill_progress(first).state == "proficient"
    same_day = first + _run("11", "s2", MON)
    assert skill_progress(same_day).state == "proficient"
    next_day = first + _run("1", "s3", TUE)
    progress = skill_progress(next_day)
    assert progress.state == "mastered"
    assert progress.reached == {
        "attempted": MON,
        "familiar": MON,
        "proficient": MON,
        "mastered": TUE,
    }
    assert progress.proficient_sessions == (("s1", MON), ("s3", TUE))


def test_one_session_over_two_days_is_not_mastery() -> None:
    assert skill_progress(_run("111", "s1", MON) + _run("1", "s1", TUE)).state == "proficient"


def test_misses_demote_mastery() -> None:
    history = _run("1111", "s1", MON) + _run("1", "s2", TUE) + _run("00", "s2", TUE)
    progress = skill_progress(history)
    assert progress.state == "familiar"
    assert progress.reached["mastered"] == TUE
    assert (progress.streak, progress.opportunities, progress.window) == (0, 7, 7)
    assert progress.accuracy == pytest.approx(5 / 7)


def test_progress_by_skill() -> None:
    claims = [
        ((1, 3), (2, 6), True, "s1", MON),
        ((2, 6), (1, 3), True, "s1", MON),
        ((2, 3), (8, 12), False, "s1", MON),
    ]
    progress = progress_by_skill(claims)
    assert list(progress) == list(SKILL_IDS)
    assert progress["S2"].opportunities == 2 and progress["S2"].state == "familiar"
    assert progress["S3"].state == "attempted"
    assert progress["S5"].opportunities == 1
    assert progress["S1"].state == "not_started"
