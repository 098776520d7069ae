"""Every option takes only the values the rules README (and docs/engine.md) gives it."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.options import DEFAULTS, INT_VALUES

# A player count every option of the ruleset accepts (teams need an even count from 4).
PLAYERS = {"fractions": 3, "classic": 4, "family_quick": 4}

# For each option: values it takes, and values of the right type it refuses.
GOOD_AND_BAD: dict[str, tuple[list[Any], list[Any]]] = {
    "target_score": ([0, 1, 500, 100_000], [-1, 100_001]),
    "uno_penalty": ([0, 1, 2, 10], [-1, 11]),
    "fractions_plus4_draws": ([2, 4], [0, 1, 3, 5, 6, 10]),
    "wrong_attempt_penalty": ([0, 1, 10], [-1, 11]),
    "scoring": (["winner_takes", "lowest_wins", "elimination"], ["", "Winner_takes", "best"]),
    "deck": (["sixths", "twelfths", "full", "improper"], ["", "Full", "huge", "48"]),
    # Aimed practice: [reference, trap] values of the deck in use, a trap never equal to it.
    "aim_pairs": (
        [[], [["1/2", "2/3"]], [["1/2", "2/3"], ["2/3", "1/2"], ["1/6", "5/6"]]],
        [
            [["1/2", "3/6"]],  # equal values: no trap
            [["1/2", "2/4"]],  # 2/4 is not a fraction of the deck
            [["1/2", "3/2"]],  # 3/2 only in the improper deck
            [["1/2"]],
            [["1/2", "2/3", "5/6"]],
            [["1/2", "2/3"], ["1/2", "2/3"]],
            [[1, 2]],
            [("1/2", "2/3")],
            [["1/2", "2/3"]] * 401,
        ],
    ),
    "aim_seat": ([0, 1, 2], [-1, 3, 5]),  # three players: seats 0 to 2
    "family_quick_functions": (
        [["rev"], ["swap", "+2"], ["rev", "stop", "+2", "swap"]],
        [[], ["rev", "rev"], ["jump"], ["+4"], ["rev", "stop", "+2", "swap", "swap"]],
    ),
}
# Values of a wrong type, refused by every option whatever its kind.
WRONG_TYPES: list[Any] = [None, "2", 2.0, [2], {"v": 2}]


def _options() -> list[tuple[str, str]]:
    return [(ruleset, key) for ruleset, defaults in DEFAULTS.items() for key in defaults]


def _refused(ruleset: str, options: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        Game.new(ruleset, PLAYERS[ruleset], options=options, seed=1)
    assert info.value.code == "bad_option", info.value
    assert info.value.messages["fr"] and info.value.messages["en"]
    return info.value


@pytest.mark.parametrize(("ruleset", "key"), _options())
def test_each_option_takes_its_values(ruleset: str, key: str) -> None:
    default = DEFAULTS[ruleset][key]
    good = [True, False] if isinstance(default, bool) else GOOD_AND_BAD[key][0]
    for value in good:
        if ruleset == "family_quick" and key == "plus4_challenge" and value:
            continue  # Family Quick's +4 is never challenged (tested below)
        if key == "scoring" and value == "elimination" and ruleset == "fractions":
            options = {key: value, "target_score": 30}
        else:
            options = {key: value}
        g = Game.new(ruleset, PLAYERS[ruleset], options=options, seed=1)
        if key.startswith("aim_"):
            assert g.opts[key] == value
            assert key not in g.view(0)["options"]  # the aim is not shown to players
        else:
            assert g.view(0)["options"][key] == value


@pytest.mark.parametrize(("ruleset", "key"), _options())
def test_each_option_refuses_other_values(ruleset: str, key: str) -> None:
    default = DEFAULTS[ruleset][key]
    bad = [0, 1, "true", "false"] if isinstance(default, bool) else GOOD_AND_BAD[key][1]
    if isinstance(default, int) and not isinstance(default, bool):
        bad = bad + [True, False]  # a bool is not a count
    if key == "family_quick_functions":
        bad = bad + ["rev", [1]]
    for value in bad + WRONG_TYPES:
        _refused(ruleset, {key: value})


@pytest.mark.parametrize("ruleset", list(DEFAULTS))
def test_keys_of_other_rulesets_are_refused(ruleset: str) -> None:
    others = {key for defaults in DEFAULTS.values() for key in defaults} - set(DEFAULTS[ruleset])
    assert others
    for key in sorted(others):
        default = next(d[key] for d in DEFAULTS.values() if key in d)
        _refused(ruleset, {key: default})


def test_fractions_plus4_draws_three_is_refused_and_names_the_two_values() -> None:
    err = _refused("fractions", {"fractions_plus4_draws": 3})
    assert "2 ou 4" in err.messages["fr"]
    assert "2 or 4" in err.messages["en"]


@pytest.mark.parametrize("draws", [2, 4])
def test_fractions_plus4_gives_the_chosen_count(draws: int) -> None:
    setup = {"dealer": 0, "hands": [["1/2b"], ["+04", "1/3r"], ["1/6j"]], "start": "40/48v"}
    g = Game.new(
        "fractions",
        3,
        options={"fractions_plus4_draws": draws, "plus4_challenge": False},
        seed=1,
        setup=setup,
    )
    events = g.apply(1, {"type": "play", "card": "+04"})
    drew = next(e for e in events if e["type"] == "drew")
    assert (drew["seat"], drew["count"]) == (2, draws)


def test_integer_ranges_end_where_the_docs_say() -> None:
    for key, allowed in INT_VALUES.items():
        ruleset = next(r for r, d in DEFAULTS.items() if key in d)
        for value in (min(allowed) - 1, max(allowed) + 1):
            _refused(ruleset, {key: value})


def test_family_quick_plus4_challenge_stays_false() -> None:
    _refused("family_quick", {"plus4_challenge": True})
