"""The selfplay management command plays bot games and reports checked figures."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def _run(*args: str) -> dict[str, float]:
    out = io.StringIO()
    call_command("selfplay", *args, stdout=out)
    text = out.getvalue()
    assert "invariants: OK" in text
    figures = {}
    for key in ("games", "moves", "games/s", "moves/s", "average moves per game"):
        match = re.search(rf"^{re.escape(key)}: ([0-9.]+)$", text, re.MULTILINE)
        assert match, f"{key!r} missing from:\n{text}"
        figures[key] = float(match.group(1))
    return figures


@pytest.mark.parametrize(
    ("ruleset", "players", "bot"),
    [
        ("classic", 4, "heuristic"),
        ("classic", 3, "random"),
        ("fractions", 3, "student"),
        ("family_quick", 5, "heuristic"),
    ],
)
def test_selfplay_prints_consistent_figures(ruleset: str, players: int, bot: str) -> None:
    figures = _run(
        "--ruleset",
        ruleset,
        "--players",
        str(players),
        "--games",
        "4",
        "--seed",
        "1",
        "--bot",
        bot,
        "--options",
        '{"target_score": 0}',
    )
    assert figures["games"] == 4
    assert figures["moves"] > 4 * 5
    assert figures["average moves per game"] == pytest.approx(figures["moves"] / 4, abs=0.05)
    assert figures["games/s"] > 0 and figures["moves/s"] > 0


def test_selfplay_is_reproducible_with_a_seed() -> None:
    args = ("--games", "3", "--seed", "7", "--players", "4", "--options", '{"target_score": 0}')
    assert _run(*args)["moves"] == _run(*args)["moves"]


def test_selfplay_plays_variants_together() -> None:
    options = '{"stacking": true, "seven_o": true, "jump_in": true, "target_score": 100}'
    figures = _run("--games", "2", "--players", "4", "--options", options)
    assert figures["games"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--options", "{not json"), "not valid JSON"),
        (("--options", "[1]"), "JSON object"),
        (("--options", '{"no_such_option": 1}'), "cannot create the game"),
        (("--players", "11"), "cannot create the game"),
        (("--games", "0"), "at least 1"),
    ],
)
def test_selfplay_rejects_bad_input_clearly(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("selfplay", *args, stdout=io.StringIO())


def test_selfplay_fails_on_an_invariant_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.management.commands import selfplay

    monkeypatch.setattr(selfplay, "check_game", lambda *args: ["card count 107 != deck size 108"])
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 invariant violation"):
        call_command("selfplay", "--games", "2", stdout=io.StringIO(), stderr=err)
    assert "card count 107" in err.getvalue()


def test_selfplay_student_profile_makes_mistakes() -> None:
    out = io.StringIO()
    call_command(
        "selfplay",
        "--ruleset",
        "fractions",
        "--players",
        "3",
        "--games",
        "4",
        "--bot",
        "student",
        "--profile",
        '{"M1": 0.4, "M2": 0.2, "miss": 0.2}',
        stdout=out,
    )
    text = out.getvalue()
    match = re.search(r"^student mistakes: (\d+)$", text, re.MULTILINE)
    assert match and int(match.group(1)) > 0 and "invariants: OK" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bot", "student", "--profile", '{"M42": 0.1}'), "unknown error type"),
        (("--bot", "student", "--profile", "{oops"), "--profile"),
        (("--bot", "heuristic", "--profile", '{"M1": 0.1}'), "needs --bot student"),
    ],
)
def test_selfplay_rejects_bad_profiles(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("selfplay", "--games", "1", *args, stdout=io.StringIO())
