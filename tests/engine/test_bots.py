"""Bots: scripted situations for each choice, the student's mistakes, and games that end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from games.engine import Game
from games.engine.bots import (
    MISCONCEPTIONS,
    bot_move,
    heuristic_move,
    next_bot_step,
    play_bot_step,
    random_move,
    student_intent,
    validate_profile,
)

from .strategies import Config, configs

FRACTION_HANDS = [
    ["1/3r", "2/6r", "4/12r", "joker"],
    ["2/3j", "3/6b", "5/6r", "8/12v", "1/6b"],
    ["1/6r", "1/2v", "16/48b", "+04"],
]


def _game(ruleset: str, hands: list[list[str]], start: str, **options: Any) -> Game:
    return Game.new(
        ruleset,
        len(hands),
        options=options or None,
        seed=3,
        setup={"dealer": 0, "hands": hands, "start": start},
    )


def _rng() -> random.Random:
    return random.Random(5)


# --- heuristic -----------------------------------------------------------------------------


def test_heuristic_plays_a_matching_card_and_keeps_the_wild() -> None:
    game = _game("classic", [["1b", "2b", "3b"], ["couleur", "5r", "9b", "+04"]], "7r")
    assert heuristic_move(game, 1, _rng()) == {"type": "play", "card": "5r"}


def test_heuristic_names_the_colour_it_holds_most() -> None:
    game = _game("classic", [["1b", "2b", "3b"], ["couleur", "3b", "4b", "5j"]], "7r")
    assert heuristic_move(game, 1, _rng()) == {"type": "play", "card": "couleur", "colour": "b"}


def test_heuristic_calls_uno_before_its_second_last_card() -> None:
    game = _game("classic", [["1b", "2b", "3b"], ["5r", "6r"]], "7r")
    rng = _rng()
    assert heuristic_move(game, 1, rng) == {"type": "uno"}
    game.apply(1, {"type": "uno"})
    assert heuristic_move(game, 1, rng) == {"type": "play", "card": "6r"}


def test_heuristic_catches_a_missing_uno_out_of_turn() -> None:
    game = _game("classic", [["1b", "2b", "3b"], ["5r", "6r"], ["1j", "2j", "3j"]], "7r")
    game.apply(1, {"type": "play", "card": "5r"})  # no UNO called
    assert heuristic_move(game, 0, _rng()) == {"type": "catch", "target": 1}
    assert heuristic_move(game, 1, _rng()) == {"type": "uno"}


def test_heuristic_draws_then_plays_the_drawn_card_or_passes() -> None:
    game = Game.new(
        "classic",
        2,
        seed=3,
        setup={
            "dealer": 0,
            "hands": [["1b", "2b"], ["5j", "6j", "8b"]],
            "start": "7r",
            "pile": ["9r"],
        },
    )
    rng = _rng()
    assert heuristic_move(game, 1, rng) == {"type": "draw"}
    game.apply(1, {"type": "draw"})
    assert heuristic_move(game, 1, rng) == {"type": "play", "card": "9r"}


@pytest.mark.parametrize(("cards", "answer"), [(8, "challenge"), (3, "accept")])
def test_heuristic_challenges_a_plus4_from_a_big_hand_only(cards: int, answer: str) -> None:
    bluffer = ["+04", *["1j", "2j", "3j", "4j", "5j", "6j", "7j"][: cards - 1]]
    game = _game("classic", [["1b", "2b", "3b"], bluffer, ["5b", "6b", "7b"]], "7r")
    game.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert game.view(None)["awaiting"] == {"seat": 2, "kind": "challenge"}
    assert heuristic_move(game, 2, _rng()) == {"type": answer}


def test_heuristic_stacks_when_it_can_and_accepts_otherwise() -> None:
    hands = [["1b", "2b", "3b"], ["+02r", "4r", "5r"], ["+02b", "6b", "7b"], ["1j", "2j", "3j"]]
    game = _game("classic", hands, "7r", stacking=True)
    game.apply(1, {"type": "play", "card": "+02r"})
    assert heuristic_move(game, 2, _rng()) == {"type": "play", "card": "+02b"}
    game.apply(2, {"type": "play", "card": "+02b"})
    assert game.view(None)["awaiting"]["kind"] == "stack"
    assert heuristic_move(game, 3, _rng()) == {"type": "accept"}


def test_heuristic_turns_a_plus4_back_with_quickos() -> None:
    hands = [["1b", "2b", "3b"], ["+04", "4r", "5r"], ["6b", "7b", "8b"], ["quickos", "2j", "3j"]]
    game = _game("family_quick", hands, "7r")
    game.apply(1, {"type": "play", "card": "+04", "colour": "j"})
    assert game.view(None)["awaiting"] == {"seat": 2, "kind": "quickos"}
    assert heuristic_move(game, 3, _rng()) == {"type": "quickos"}
    assert heuristic_move(game, 2, _rng()) == {"type": "accept"}


def test_heuristic_picks_a_family_quick_function() -> None:
    hands = [["1b", "2b", "3b"], ["hugo r", "4j", "5j"], ["6b", "7b", "8b"]]
    game = _game("family_quick", hands, "7r")
    action = heuristic_move(game, 1, _rng())
    assert action == {"type": "play", "card": "hugo r", "function": "+2"}


def test_heuristic_swaps_on_a_seven_with_the_smallest_hand() -> None:
    hands = [["1b", "2b", "3b", "4b"], ["7r", "1b", "2b"], ["6b", "8b"]]
    game = _game("classic", hands, "7j", seven_o=True)
    assert heuristic_move(game, 1, _rng()) == {"type": "play", "card": "7r", "target": 2}


def test_heuristic_starts_the_next_round_and_jumps_in() -> None:
    game = _game(
        "classic", [["1b", "2b"], ["5r"], ["5r", "6j", "8j"]], "7r", target_score=500, jump_in=True
    )
    game.apply(1, {"type": "play", "card": "5r"})
    assert game.view(None)["round_over"]
    assert heuristic_move(game, 2, _rng()) == {"type": "next_round"}
    hands = [["1b", "2b", "5r"], ["5r", "9j", "1b"], ["6j", "8j", "9j"]]
    jump = _game("classic", hands, "7r", jump_in=True)
    jump.apply(1, {"type": "play", "card": "5r"})
    assert heuristic_move(jump, 0, _rng()) == {"type": "play", "card": "5r"}


def test_heuristic_names_the_denominator_it_holds_most() -> None:
    hands = [["1/3r", "2/6r"], ["joker", "2/12j", "10/12b", "1/6v"], ["1/6r", "1/2v"]]
    game = _game("fractions", hands, "1/2r")
    assert heuristic_move(game, 1, _rng()) == {"type": "play", "card": "joker", "denominator": 12}


# --- student -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "start", "expected"),
    [
        ("M1", "1/2r", {"2/3j", "5/6r"}),
        ("M2", "1/3j", {"1/6b"}),
        ("M3", "4/12j", {"8/12v"}),
        ("M4", "1/2r", set()),
    ],
)
def test_student_tries_a_card_fitting_its_misconception(
    error: str, start: str, expected: set[str]
) -> None:
    game = _game("fractions", FRACTION_HANDS, start)
    action, intent = student_intent(game, 1, _rng(), {error: 1.0})
    if not expected:  # no card of the hand fits: the student plays correctly
        assert intent is None
        return
    assert intent == error
    assert action is not None and action["card"] in expected and action["claim"] == "equal"


@pytest.mark.parametrize("rule", sorted(MISCONCEPTIONS))
def test_every_misconception_rule_matches_its_research_example(rule: str) -> None:
    examples = {
        "M1": (1, 2, 2, 3),
        "M2": (1, 3, 1, 6),
        "M2a": (4, 6, 4, 12),
        "M3": (5, 12, 9, 12),
        "M4": (4, 6, 2, 12),
        "M5": (2, 3, 6, 12),
        "M6": (1, 6, 10, 12),
        "M7": (1, 3, 3, 6),
    }
    assert MISCONCEPTIONS[rule](*examples[rule])


def test_student_wrong_attempt_is_recorded_then_a_correct_move_played() -> None:
    game = _game("fractions", FRACTION_HANDS, "1/2r")
    step = play_bot_step(game, 1, "student", _rng(), {"M1": 1.0})
    assert step is not None and len(step.wrong) == 1
    wrong = step.wrong[0]
    assert wrong.code == "not_equivalent" and wrong.error_type == "M1"
    assert wrong.details["reference"] == "1/2" and wrong.details["played"] in ("2/3", "5/6")
    assert step.action == {"type": "play", "card": "3/6b", "claim": "equal"}
    assert wrong.events == [] and [e["type"] for e in step.events] == ["played"]
    assert game.view(None)["top"] == "3/6b"


def test_student_wrong_attempt_under_a_penalty_draws_then_plays() -> None:
    game = _game("fractions", FRACTION_HANDS, "1/2r", wrong_attempt_penalty=1)
    step = play_bot_step(game, 1, "student", _rng(), {"M1": 1.0})
    assert step is not None and step.wrong[0].code == "not_equivalent"
    assert [e["type"] for e in step.wrong[0].events] == ["wrong_attempt", "drew"]
    assert step.events[0] == {
        "type": "played",
        "seat": 1,
        "card": "3/6b",
        "rule": "equal",
        "claim": "equal",
    }
    assert game.view(None)["hand_sizes"][1] == 5  # 5 cards + 1 penalty - 1 played


def test_student_misses_an_equal_fraction_by_drawing() -> None:
    game = _game("fractions", FRACTION_HANDS, "1/2r")
    step = play_bot_step(game, 1, "student", _rng(), {"miss": 1.0})
    assert step is not None and step.action == {"type": "draw"} and step.error_type == "miss"


def test_student_claims_the_rule_it_uses_when_correct() -> None:
    game = _game("fractions", FRACTION_HANDS, "1/2r")
    assert student_intent(game, 1, _rng(), {})[0] == {
        "type": "play",
        "card": "3/6b",
        "claim": "equal",
    }
    same_den = _game("fractions", [FRACTION_HANDS[0], ["8/12b", "1/6b", "1/2b"], ["1/2v"]], "4/12j")
    assert student_intent(same_den, 1, _rng(), None)[0] == {
        "type": "play",
        "card": "8/12b",
        "claim": "denominator",
    }


def test_student_mistakes_follow_the_profile_rates() -> None:
    wrong = 0
    for seed in range(200):
        game = _game("fractions", FRACTION_HANDS, "1/2r")
        _, intent = student_intent(game, 1, random.Random(seed), {"M1": 0.3})
        wrong += intent == "M1"
    assert 35 <= wrong <= 85  # about 60 of 200


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ({"M99": 0.1}, "unknown error type"),
        ({"M1": 1.5}, r"in \[0, 1\]"),
        ({"M1": True}, r"in \[0, 1\]"),
        ({"M1": "0.2"}, r"in \[0, 1\]"),
        ({"M1": 0.7, "M2": 0.5}, "more than 1"),
    ],
)
def test_bad_profiles_are_refused_clearly(profile: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_profile(profile)


def test_unknown_bot_kind_is_refused() -> None:
    game = _game("classic", [["1b"], ["2b"]], "7r")
    with pytest.raises(ValueError, match="unknown bot kind"):
        bot_move(game, 1, "genius", _rng())


# --- random and whole games ----------------------------------------------------------------


def test_random_bot_only_plays_legal_actions_and_is_seeded() -> None:
    game = _game("classic", [["1b", "2b", "3b"], ["couleur", "5r", "9b", "+04"]], "7r")
    picks = [random_move(game, 1, random.Random(s)) for s in range(30)]
    legal = game.legal_actions(1)
    assert all(p in legal for p in picks)
    assert picks == [random_move(game, 1, random.Random(s)) for s in range(30)]


MAX_MOVES = 30_000


@settings(
    max_examples=45,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(config=configs())
def test_every_bot_game_ends_within_bounded_moves(config: Config) -> None:
    game = Game.new(config.ruleset, config.players, options=config.options, seed=config.seed)
    rng = random.Random(config.seed)
    kinds = [
        ("heuristic", "random", "student")[(config.seed + s) % 3] for s in range(config.players)
    ]
    profiles = [{"M1": 0.2, "M2": 0.1, "miss": 0.1}] * config.players
    for _ in range(MAX_MOVES):
        if next_bot_step(game, kinds, rng, profiles) is None:
            break
    view = game.view(None)
    assert view["winner"] is not None, f"{config} did not end within {MAX_MOVES} moves"
    assert view["game_over"]


@pytest.mark.parametrize(
    ("ruleset", "players"), [("classic", 4), ("fractions", 5), ("family_quick", 10)]
)
def test_heuristic_bots_finish_a_game_with_default_options(ruleset: str, players: int) -> None:
    game = Game.new(ruleset, players, seed=11)
    rng = random.Random(11)
    moves = 0
    while next_bot_step(game, ["heuristic"] * players, rng) is not None:
        moves += 1
        assert moves < MAX_MOVES
    assert game.view(None)["winner"] is not None


@pytest.mark.parametrize("ruleset", ["classic", "fractions", "family_quick"])
def test_heuristic_bot_beats_the_random_bot(ruleset: str) -> None:
    wins = 0
    for seed in range(40):
        game = Game.new(ruleset, 2, options={"target_score": 0}, seed=seed)
        rng = random.Random(seed)
        while next_bot_step(game, ["heuristic", "random"], rng) is not None:
            pass
        wins += game.view(None)["winner"] == 0
    assert wins >= 32  # measured: 39-40 of 40
