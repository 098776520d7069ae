"""Bad options, bad actions, bad setups, seats out of range; views that never leak; events
filtered per seat; JSON round trips and size."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import RULESETS, Game, IllegalAction, card_name, events_for
from games.engine.cards import DECKS

from .helpers import assert_conserved, new, rejects, turn_or_awaited


@pytest.mark.parametrize(
    ("ruleset", "players", "options"),
    [
        ("bingo", 4, None),
        ("classic", 1, None),
        ("classic", 11, None),
        ("classic", "4", None),
        ("classic", True, None),
        ("family_quick", 11, None),
        ("fractions", 6, None),
        ("classic", 4, {"nope": 1}),
        ("classic", 4, ["stacking"]),
        ("classic", 4, {"target_score": -1}),
        ("classic", 4, {"target_score": "500"}),
        ("classic", 4, {"target_score": True}),
        ("classic", 4, {"scoring": "best"}),
        ("classic", 4, {"stacking": 1}),
        ("classic", 4, {"uno_penalty": 2.5}),
        ("classic", 3, {"teams": True}),
        ("classic", 2, {"teams": True}),
        ("classic", 6, {"teams": True, "scoring": "elimination"}),
        ("classic", 6, {"rotating_partners": True}),
        ("classic", 4, {"rotating_partners": True, "scoring": "lowest_wins"}),
        ("classic", 4, {"fractions_plus4_draws": 4}),
        ("classic", 4, {"family_quick_functions": ["rev"]}),
        ("fractions", 3, {"teams": True}),
        ("fractions", 3, {"jump_in": True}),
        ("fractions", 3, {"fractions_plus4_draws": 0}),
        ("fractions", 3, {"wrong_attempt_penalty": -1}),
        ("family_quick", 4, {"plus4_bluffing": False}),
        ("family_quick", 4, {"seven_o": True}),
    ],
)
def test_bad_options_raise_bad_option(ruleset: str, players: Any, options: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        Game.new(ruleset, players, options=options)
    assert info.value.code == "bad_option"
    assert info.value.messages["fr"].startswith("Option invalide")
    assert info.value.message_for("en").startswith("Invalid option")


def test_seed_must_be_an_int() -> None:
    with pytest.raises(IllegalAction) as info:
        Game.new("classic", 2, seed="1")  # type: ignore[arg-type]
    assert info.value.code == "bad_option"


def test_every_option_combination_of_classic_variants_starts() -> None:
    opts = {
        "teams": True,
        "stacking": True,
        "seven_o": True,
        "jump_in": True,
        "plus4_challenge": False,
        "plus4_bluffing": False,
        "uno_penalty": 3,
        "scoring": "lowest_wins",
        "target_score": 200,
    }
    g = Game.new("classic", 6, options=opts, seed=2)
    assert g.view(0)["options"] == opts | {"rotating_partners": False}


@pytest.mark.parametrize(
    "setup",
    [
        "nope",
        {"dealer": 5},
        {"dealer": "0"},
        {"hands": [["1b"]]},
        {"hands": [["1b"], "2b"]},
        {"hands": [["zz"], ["1b"]]},
        {"hands": [["0r"], ["0r"]]},  # one 0 of each colour only
        {"start": "3/6r"},
        {"pile": "1b"},
        {"extra": 1},
    ],
)
def test_bad_setup(setup: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        Game.new("classic", 2, setup=setup)
    assert info.value.code == "bad_setup"


def test_seats_out_of_range() -> None:
    g = Game.new("classic", 3, seed=1)
    for seat in (-1, 3, "1", None, 1.0):
        with pytest.raises(IllegalAction) as info:
            g.apply(seat, {"type": "draw"})  # type: ignore[arg-type]
        assert info.value.code == "bad_seat"
        with pytest.raises(IllegalAction):
            g.legal_actions(seat)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        g.view(3)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("draw", "bad_action"),
        ({}, "bad_action"),
        ({"type": "fly"}, "bad_action"),
        ({"type": "draw", "card": "1b"}, "bad_action"),
        ({"type": "play"}, "unknown_card"),
        ({"type": "play", "card": 7}, "unknown_card"),
        ({"type": "play", "card": "3/6r"}, "unknown_card"),
        ({"type": "play", "card": "couleur", "colour": "x"}, "bad_colour"),
        ({"type": "play", "card": "couleur", "colour": "rj"}, "bad_colour"),
        ({"type": "pass"}, "bad_action"),
        ({"type": "accept"}, "bad_action"),
        ({"type": "challenge"}, "bad_action"),
        ({"type": "quickos"}, "bad_action"),
        ({"type": "catch", "target": 0}, "bad_action"),
        ({"type": "next_round"}, "bad_action"),
    ],
)
def test_bad_actions_change_nothing(action: Any, code: str) -> None:
    g = new(hands=[["1v"], ["couleur", "3r"], ["2j"]], start="5r")
    rejects(g, 1, action, code)


def test_messages_in_both_languages() -> None:
    g = new(hands=[["1v"], ["3j", "3r"], ["2j"]], start="5r")
    err = rejects(g, 1, {"type": "play", "card": "3j"}, "no_match")
    assert err.message == err.messages["fr"] == "3 jaune ne va pas sur 5 rouge."
    assert err.message_for("en") == "yellow 3 does not go on red 5."


def test_card_names() -> None:
    assert card_name("7r", "fr") == "7 rouge" and card_name("7r", "en") == "red 7"
    assert card_name("+02v", "fr") == "+2 vert" and card_name("rev j", "en") == "yellow Reverse"
    assert card_name("stop b", "fr") == "Passer bleu" and card_name("couleur", "en") == "Wild"
    assert card_name("+04", "fr") == "+4" and card_name("3/6r", "fr") == "3/6 rouge"
    assert card_name("joker", "fr") == "Joker" and card_name("hugo r", "en") == "red Hugo"
    assert card_name("quickos", "fr") == "Quickos"
    for ruleset in RULESETS:
        for code in set(DECKS[ruleset]):
            assert card_name(code, "fr") and card_name(code, "en")
    with pytest.raises(ValueError):
        card_name("zz", "fr")
    with pytest.raises(ValueError):
        card_name("7r", "de")


def _random_game(ruleset: str, players: int, seed: int, steps: int, **options: Any) -> Game:
    g = Game.new(ruleset, players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        seat = 0 if g.round_over else turn_or_awaited(g)
        acts = g.legal_actions(seat)
        g.apply(seat, rng.choice(acts))
    return g


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_never_leak(ruleset: str) -> None:
    for seed in range(5):
        g = _random_game(ruleset, 4 if ruleset != "fractions" else 3, seed, 40)
        for seat in [None, *range(g.n)]:
            v = g.view(seat)
            text = json.dumps(v)
            assert "pile" not in v and "hands" not in v
            assert v["hand"] == (g.hands[seat] if seat is not None else [])
            assert v["hand_sizes"] == [len(h) for h in g.hands]
            assert v["awaiting"] is None or set(v["awaiting"]) <= {"seat", "kind", "total"}
            assert '"f":' not in text and '"bluff"' not in text
            if seat is not None and v["drawn"] is not None:
                assert v["drawn"] in g.hands[seat]


def test_events_for_hides_drawn_cards_from_others() -> None:
    g = new(hands=[["1v"], ["3j", "4j"], ["2j"]], start="5r", pile=["8b"])
    events = g.apply(1, {"type": "draw"})
    assert events_for(events, 1)[0]["cards"] == ["8b"]
    for seat in (0, 2, None):
        shown = events_for(events, seat)[0]
        assert "cards" not in shown and "visible_to" not in shown and shown["count"] == 1
    assert events[0]["cards"] == ["8b"]  # the originals are left as they were
    assert Game.events_for is not None


VIEW_KEYS = (
    "seat",
    "hand",
    "hand_sizes",
    "turn",
    "acting",
    "awaiting",
    "direction",
    "top",
    "colour",
    "denominator",
    "draw_pile_size",
    "scores",
    "round_over",
    "round_winner",
    "winner",
    "options",
    "teams",
    "team_scores",
    "uno_window",
    "game_over",
    "eliminated",
    "round",
    "dealer",
    "drawn",
    "discard_size",
    "ruleset",
    "players",
)


def test_view_keys() -> None:
    g = Game.new("classic", 4, seed=1, options={"teams": True})
    v = g.view(2)
    assert set(VIEW_KEYS) <= set(v)
    assert "reference" in Game.new("fractions", 3, seed=1).view(0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_json_round_trip_exact_and_conserved(ruleset: str) -> None:
    for seed in range(3):
        g = _random_game(ruleset, 3, seed, 120, target_score=100)
        d = json.loads(json.dumps(g.to_dict()))
        g2 = Game.from_dict(d)
        assert g2.to_dict() == g.to_dict()
        assert g2.view(1) == g.view(1) and g2.legal_actions(1) == g.legal_actions(1)
        assert_conserved(g)


def test_state_of_ten_players_stays_under_16_kb() -> None:
    g = _random_game("classic", 10, 5, 200)
    assert len(json.dumps(g.to_dict())) < 16 * 1024


def test_from_dict_rejects_a_broken_state() -> None:
    d = Game.new("classic", 2, seed=1).to_dict()
    d["pile"] = d["pile"][1:]
    with pytest.raises(IllegalAction) as info:
        Game.from_dict(d)
    assert info.value.code == "bad_state"
    with pytest.raises(IllegalAction):
        Game.from_dict({"v": 99})


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", range(8))
def test_random_games_end_and_keep_invariants(ruleset: str, seed: int) -> None:
    options: dict[str, Any] = {"target_score": 150}
    if ruleset == "classic":
        rng = random.Random(seed)
        for key in ("stacking", "seven_o", "jump_in", "plus4_bluffing", "plus4_challenge"):
            options[key] = rng.random() < 0.5
        options["scoring"] = rng.choice(["winner_takes", "lowest_wins", "elimination"])
    if ruleset == "fractions":
        options["wrong_attempt_penalty"] = seed % 2
    g = Game.new(ruleset, 4 if ruleset != "fractions" else 3, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(20_000):
        if g.over:
            break
        v = g.view(None)
        if v["round_over"]:
            seat = next(s for s in range(g.n) if s not in v["eliminated"])
        elif rng.random() < 0.3:  # out-of-turn actions too: catch, jump-in, Quickos, UNO
            seat = rng.choice([s for s in range(g.n) if g.legal_actions(s)])
        else:
            seat = turn_or_awaited(g)
        acts = g.legal_actions(seat)
        assert acts
        plays = [a for a in acts if a["type"] == "play"]
        events = g.apply(seat, rng.choice(plays if plays and rng.random() < 0.8 else acts))
        assert all(isinstance(e["type"], str) for e in events)
        json.dumps(events)
        # The live view (with its per-round cache) equals a view rebuilt from scratch.
        assert g.view(None) == Game.from_dict(g.to_dict()).view(None)
        assert_conserved(g)
        v = g.view(None)
        assert (v["turn"] is None) or (v["awaiting"] is None or v["awaiting"]["kind"] == "uno")
    assert g.over
