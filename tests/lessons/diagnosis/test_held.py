""" "held": resolved, then a second re-check round passed at least 7 days (168 h) later."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons.diagnosis import HELD_MIN_DAYS, diagnose, probe_next
from lessons.diagnosis.chance import binomial_cdf
from lessons.diagnosis.model import HABIT_FLOOR, RESOLVED_MISS
from lessons.diagnosis.probe import WarmUp, _current_round, _Round, _undecided

from .test_recheck import game, m1_round, probe

PARIS_WINTER = timezone(timedelta(hours=1))
PARIS_SUMMER = timezone(timedelta(hours=2))
START = datetime(2026, 12, 1, 9, 0, tzinfo=PARIS_WINTER)


def timed(
    turns: list[dict[str, Any]], at: datetime, step: timedelta = timedelta(seconds=20)
) -> list[dict[str, Any]]:
    """Return the turns with an "at" each, from `at`, one every `step`."""
    return [{**turn, "at": (at + i * step).isoformat()} for i, turn in enumerate(turns)]


def clean_round(
    round_id: str, start: int, count: int = 13, slips: Collection[int] = ()
) -> list[dict[str, Any]]:
    """A warm-up round offering M1's trap on every item, taken at the `slips` items."""
    return [probe(start + i, "2/5" if i in slips else "2/8", round_id) for i in range(count)]


def found_then_resolved(resolved_at: datetime = START + timedelta(days=1)) -> list[dict[str, Any]]:
    """M1 found on 1 December, resolved by a clean round the next day."""
    return timed(m1_round("a"), START) + timed(clean_round("b", 100), resolved_at)


def test_a_clean_second_round_a_week_later_gives_held_and_says_both_rounds() -> None:
    turns = found_then_resolved()
    assert diagnose(turns)["M1"]["status"] == "resolved"
    later = START + timedelta(days=1 + HELD_MIN_DAYS)
    result: dict[str, Any] = diagnose(turns + timed(clean_round("c", 200, 14), later))["M1"]
    assert result["status"] == "held"
    assert result["held_at_turn"] == len(turns) + 13
    assert [(c["offers"], c["taken"]) for c in result["checks"]] == [(13, 0), (14, 0)]
    assert [c["at"][:10] for c in result["checks"]] == ["2026-12-02", "2026-12-09"]


def test_held_needs_168_hours_whatever_the_offsets() -> None:
    turns = found_then_resolved()  # resolved from 2 December 09:00 +01:00 (08:00 UTC)
    # 9 December 09:00 +02:00 is 07:00 UTC: 167 hours later, not a week.
    early = START.replace(tzinfo=PARIS_SUMMER) + timedelta(days=8)
    assert diagnose(turns + timed(clean_round("c", 200), early))["M1"]["status"] == "resolved"
    # 9 December 08:00 UTC: exactly 168 hours.
    week = datetime(2026, 12, 9, 8, 0, tzinfo=UTC)
    assert diagnose(turns + timed(clean_round("c", 200), week))["M1"]["status"] == "held"
    just_short = week - timedelta(seconds=1)
    assert diagnose(turns + timed(clean_round("c", 200), just_short))["M1"]["status"] == "resolved"


def test_a_clean_round_too_soon_stays_resolved_and_a_later_one_gives_held() -> None:
    turns = found_then_resolved()
    soon = turns + timed(clean_round("c", 200), START + timedelta(days=4))
    result: dict[str, Any] = diagnose(soon)["M1"]
    assert result["status"] == "resolved" and len(result["checks"]) == 2
    later = soon + timed(clean_round("d", 300), START + timedelta(days=8))  # 7 days after "b"
    assert diagnose(later)["M1"]["status"] == "held"


def test_the_second_round_is_judged_as_a_whole_one_slip_does_not_sink_it() -> None:
    turns = found_then_resolved()
    later = START + timedelta(days=9)
    slipped = turns + timed(clean_round("c", 200, 5, slips={0}), later)
    assert diagnose(slipped)["M1"]["status"] == "likely"  # 1 of 5 so far: not clean
    whole = turns + timed(clean_round("c", 200, 20, slips={0}), later)
    result: dict[str, Any] = diagnose(whole)["M1"]
    assert result["status"] == "held" and result["checks"][-1] == {
        "at": later.isoformat(),
        "offers": 20,
        "taken": 1,
    }


def test_a_failed_second_round_is_a_relapse_and_a_later_round_checks_again() -> None:
    turns = found_then_resolved()
    failed = turns + timed(clean_round("c", 200, 24, slips={0, 5}), START + timedelta(days=9))
    assert diagnose(failed)["M1"]["status"] == "likely"
    # The next round resolves again, it does not hold at once: held needs a week after it.
    again = failed + timed(clean_round("d", 300), START + timedelta(days=10))
    result: dict[str, Any] = diagnose(again)["M1"]
    assert result["status"] == "resolved" and len(result["checks"]) == 1
    assert (
        diagnose(again + timed(clean_round("e", 400), START + timedelta(days=17)))["M1"]["status"]
        == "held"
    )


def test_a_fitting_game_claim_after_held_is_a_relapse() -> None:
    turns = found_then_resolved() + timed(clean_round("c", 200), START + timedelta(days=8))
    assert diagnose(turns)["M1"]["status"] == "held"
    relapse = [*turns, {**game(500, "2/3"), "at": (START + timedelta(days=9)).isoformat()}]
    result: dict[str, Any] = diagnose(relapse)["M1"]
    assert result["status"] == "likely" and result["checks"] == []
    assert result["held_at_turn"] is None


def test_turns_without_at_never_give_held() -> None:
    untimed = m1_round("a") + clean_round("b", 100) + [game(150)] + clean_round("c", 200)
    result: dict[str, Any] = diagnose(untimed)["M1"]
    assert result["status"] == "resolved" and result["held_at_turn"] is None
    # A timed history, its times taken away: resolved, never held.
    timed_turns = found_then_resolved() + timed(clean_round("c", 200), START + timedelta(days=8))
    stripped = [{k: v for k, v in turn.items() if k != "at"} for turn in timed_turns]
    assert diagnose(stripped)["M1"]["status"] == "resolved"


@pytest.mark.parametrize(
    "bad", ["2026-12-02T09:00:00", "yesterday", 1733130000, "2026-13-02T09:00+01:00"]
)
def test_a_bad_at_is_a_clear_error(bad: object) -> None:
    turn = {**m1_round("a")[0], "at": bad}
    with pytest.raises(ValueError, match="'at'"):
        diagnose([turn])


def undecided_now(turns: list[dict[str, Any]], round_id: str) -> list[str]:
    warm_up = WarmUp(round_id=round_id)
    for turn in turns:
        warm_up.add(turn)
    first, current = _current_round(warm_up.turns, round_id)
    return _undecided(warm_up.diagnosis, _Round(current), warm_up.rules, first, len(current))


def test_the_warm_up_checks_a_resolved_rule_again_in_a_later_timed_round() -> None:
    turns = found_then_resolved()
    assert "M1" in undecided_now(turns, "c")
    assert probe_next(turns, round_id="c") is not None
    later = START + timedelta(days=8)
    partway = turns + timed(clean_round("c", 200, 12), later)
    assert "M1" in undecided_now(partway, "c")
    done = turns + timed(clean_round("c", 200, 13), later)
    assert "M1" not in undecided_now(done, "c")  # held: decided
    # Untimed: a resolved rule is decided, as before.
    stripped = [{k: v for k, v in turn.items() if k != "at"} for turn in turns]
    assert "M1" not in undecided_now(stripped, "c")


# ------------------------------------------------------------------ properties

answers = st.lists(st.booleans(), min_size=1, max_size=24)  # True: the trap taken
rounds = st.lists(st.tuples(st.integers(0, 20 * 24), answers), min_size=1, max_size=4)
zones = st.sampled_from([UTC, PARIS_WINTER, PARIS_SUMMER, timezone(timedelta(hours=-5))])


def history(schedule: Sequence[tuple[int, list[bool]]], zone: timezone) -> list[dict[str, Any]]:
    turns = timed(m1_round("a"), START)
    at = START + timedelta(hours=1)
    for n, (gap_hours, taken) in enumerate(schedule):
        at += timedelta(hours=gap_hours)
        slips = {i for i, t in enumerate(taken) if t}
        turns += timed(clean_round(f"r{n}", 100 * (n + 1), len(taken), slips), at.astimezone(zone))
    return turns


def passes(check: dict[str, Any]) -> bool:
    return binomial_cdf(check["taken"], check["offers"], HABIT_FLOOR) <= RESOLVED_MISS


@settings(max_examples=150, deadline=None)
@given(rounds, zones)
def test_held_only_after_two_clean_rounds_a_week_apart(
    schedule: list[tuple[int, list[bool]]], zone: timezone
) -> None:
    turns = history(schedule, zone)
    result: dict[str, Any] = diagnose(turns)["M1"]
    stripped = [{k: v for k, v in turn.items() if k != "at"} for turn in turns]
    assert diagnose(stripped)["M1"]["status"] != "held"
    if result["status"] != "held":
        return
    checks = result["checks"]
    assert len(checks) >= 2 and all(passes(c) for c in checks)
    first = datetime.fromisoformat(checks[0]["at"])
    assert any(datetime.fromisoformat(c["at"]) - first >= timedelta(days=7) for c in checks[1:])


@settings(max_examples=100, deadline=None)
@given(rounds, zones, zones)
def test_the_time_zone_of_the_stamps_changes_nothing(
    schedule: list[tuple[int, list[bool]]], zone: timezone, other: timezone
) -> None:
    one: dict[str, Any] = diagnose(history(schedule, zone))["M1"]
    two: dict[str, Any] = diagnose(history(schedule, other))["M1"]
    assert one["status"] == two["status"] and one["held_at_turn"] == two["held_at_turn"]
