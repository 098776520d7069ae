"""Aimed dealing (option aim_pairs): the trap is dealt, drawn and laid; nothing else changes."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine import Game
from games.engine.aim import aim_pairs, seat_before, set_up
from games.engine.bots import heuristic_move, play_bot_step
from games.engine.cards import FRACTION, deck_for
from games.management.invariants import check_game, check_views_hide

from .helpers import assert_conserved

# Pairs where the trap fits M1 on the reference (c - a == d - b), all values of the full deck.
M1_PAIRS = [
    ["1/2", "2/3"],
    ["2/3", "1/2"],
    ["1/3", "4/6"],
    ["4/6", "1/3"],
    ["5/6", "2/3"],
    ["2/3", "5/6"],
    ["2/6", "8/12"],
    ["8/12", "2/6"],
]
SEEDS = range(60)


def _aimed(seed: int, seat: int = 0, players: int = 4, **extra: Any) -> Game:
    options = {"aim_pairs": M1_PAIRS, "aim_seat": seat, **extra}
    return Game.new("fractions", players, options=options, seed=seed)


def _ready(g: Game, seat: int) -> set[str]:
    """Return the references of the pairs set up in the seat's hand."""
    return {p[0] for p in aim_pairs(g) if set_up(g.hands[seat], p)}


def _holds(hand: list[str], value: str) -> bool:
    return any(FRACTION.get(card) == value for card in hand)


@pytest.mark.parametrize("seat", [0, 2])
def test_every_aimed_deal_sets_up_pairs_and_gives_the_seat_before_their_references(
    seat: int,
) -> None:
    for seed in SEEDS:
        g = _aimed(seed, seat)
        ready = _ready(g, seat)
        assert ready, seed  # (pairs sharing a trap may be set up beyond AIM_DEAL_PAIRS)
        before = (seat - 1) % 4  # the seat before at the deal (a start Reverse turns play)
        assert any(_holds(g.hands[before], reference) for reference in ready), seed


def test_aiming_only_swaps_with_the_pile_the_other_hands_are_the_ordinary_deal() -> None:
    compared = 0
    for seed in SEEDS:
        aimed = _aimed(seed, seat=1)
        plain = Game.new("fractions", 4, seed=seed)
        assert aimed.dealer == plain.dealer
        before = 0  # the seat before seat 1 at the deal
        for g in (aimed, plain):
            assert_conserved(g)
        every = [c for h in aimed.hands for c in h] + aimed.pile + aimed.discard
        assert Counter(every) == Counter(deck_for("fractions", {}))
        if aimed.discard != plain.discard:
            continue  # another start card (a swap took the pile's top): its draws differ
        assert [len(h) for h in aimed.hands] == [len(h) for h in plain.hands]
        for other in range(4):
            if other not in (1, before):
                assert aimed.hands[other] == plain.hands[other], (seed, other)
        compared += 1
    assert compared > len(SEEDS) / 2


def test_the_aimed_seat_draws_a_right_card_for_a_trap_it_holds_alone() -> None:
    g = Game.new(
        "fractions",
        2,
        options={"aim_pairs": [["1/2", "2/3"]]},
        seed=3,
        setup={"dealer": 1, "hands": [["2/3r", "+04"], ["1/3j", "+02b"]], "start": "1/3v"},
    )
    assert g.turn == 0 and not _ready(g, 0)
    events = g.apply(0, {"type": "draw"})
    drawn = events[0]["cards"][0]
    # A right card for 1/2: the same value in another form.
    assert FRACTION[drawn] in {"3/6", "6/12", "12/24", "24/48"}
    assert _ready(g, 0) == {"1/2"}


def test_a_trap_that_is_a_right_card_itself_is_set_up_alone() -> None:
    # M3: 2/3 on 1/3 is legal (same bottom), so holding it alone is a choice of claims.
    assert set_up(["2/3r", "+04"], ("1/3", "2/3", (1, 3)))
    # M1: 2/3 on 1/2 is refused, so a right card for 1/2 is needed besides it.
    assert not set_up(["2/3r", "+04"], ("1/2", "2/3", (1, 2)))
    assert set_up(["2/3r", "1/2b"], ("1/2", "2/3", (1, 2)))


# Two pairs: 2/3 is a legal trap on 1/3 (same bottom); 4/6 is refused on 1/2.
MIXED_PAIRS = [["1/3", "2/3"], ["1/2", "4/6"]]


def _two_seats(seed: int, start: str) -> Game:
    # Seat 1 (the seat before the aimed seat 0) holds 1/2, the reference of the second pair.
    return Game.new(
        "fractions",
        2,
        options={"aim_pairs": MIXED_PAIRS, "aim_seat": 0},
        seed=seed,
        setup={"dealer": 1, "hands": [["5/6r", "+04"], ["1/2j", "+02b"]], "start": start},
    )


def test_the_aimed_seat_draws_a_legal_trap_for_the_reference_on_the_pile_first() -> None:
    for seed in range(12):
        g = _two_seats(seed, "1/3v")
        assert g.turn == 0 and not _ready(g, 0)
        drawn = g.apply(0, {"type": "draw"})[0]["cards"][0]
        # Not 4/6 (its reference is held by the seat before): the trap it meets at once.
        assert FRACTION[drawn] == "2/3", seed
        assert _ready(g, 0) == {"1/3"}


def test_the_aimed_seat_draws_first_a_trap_whose_reference_the_seat_before_holds() -> None:
    for seed in range(12):
        g = _two_seats(seed, "5/6v")
        assert g.turn == 0 and not _ready(g, 0)
        drawn = g.apply(0, {"type": "draw"})[0]["cards"][0]
        assert FRACTION[drawn] == "4/6", seed  # seat 1 may lay 1/2 next


def test_the_seat_before_draws_a_reference_it_may_lay_at_once_and_the_bot_lays_it() -> None:
    g = Game.new(
        "fractions",
        2,
        options={"aim_pairs": [["1/2", "2/3"]], "aim_seat": 0},
        seed=5,
        setup={
            "dealer": 0,
            "hands": [["2/3r", "3/6j", "+04"], ["1/3j", "5/6b", "4/6r"]],
            "start": "6/12v",
        },
    )
    assert g.turn == 1 and _ready(g, 0) == {"1/2"}
    rng = random.Random(0)
    assert heuristic_move(g, 1, rng) == {"type": "draw"}  # nothing fits 6/12
    events = g.apply(1, {"type": "draw"})
    drawn = events[0]["cards"][0]
    assert FRACTION[drawn] == "1/2"  # fits 6/12 by value: it may go down at once
    assert g.trap_cards(1) == frozenset({drawn})
    step = play_bot_step(g, 1, "heuristic", rng)
    assert step is not None and step.action["card"] == drawn
    assert g.turn == 0 and g.ref == "1/2" and _ready(g, 0) == {"1/2"}


def test_trap_cards_is_empty_without_aim_and_for_other_seats() -> None:
    plain = Game.new("fractions", 4, seed=1)
    assert all(plain.trap_cards(s) == frozenset() for s in range(4))
    g = _aimed(1, seat=2)
    before = seat_before(g, 2)
    for seat in range(4):
        if seat != before:
            assert g.trap_cards(seat) == frozenset()


def _meeting_share(options: dict[str, Any], games: int) -> float:
    """Share of seat 0's turns with a reference on top of a pair it holds set up."""
    pairs = tuple((r, t, tuple(map(int, r.split("/")))) for r, t in M1_PAIRS)
    met = turns = 0
    for seed in range(games):
        g = Game.new("fractions", 4, options=options, seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            seat = g.acting_seat()
            if seat is None:
                break
            if seat == 0 and g.turn == 0 and g.ref is not None:
                turns += 1
                met += any(p[0] == g.ref and set_up(g.hands[0], p) for p in pairs)  # type: ignore[arg-type]
            if play_bot_step(g, seat, "heuristic", rng) is None:
                break
    return met / turns


def test_aimed_games_meet_the_trap_several_times_as_often() -> None:
    plain = _meeting_share({}, 40)
    aimed = _meeting_share({"aim_pairs": M1_PAIRS}, 40)
    assert aimed >= 0.15
    assert aimed >= 3 * plain


def test_aimed_games_keep_every_invariant_and_views_hide_the_aim() -> None:
    for seed in range(8):
        g = _aimed(seed, seat=seed % 3, players=3, deck="full")
        rng = random.Random(seed)
        for step in range(400):
            assert check_game(g, "fractions") == []
            if step % 40 == 0:
                assert check_views_hide(g, rng) == []
                for seat in (None, 0, 1, 2):
                    assert "aim_pairs" not in g.view(seat)["options"]
            seat = g.acting_seat()
            if seat is None or play_bot_step(g, seat, "heuristic", rng) is None:
                break
        copy = Game.from_dict(g.to_dict())
        assert copy.to_dict() == g.to_dict()


def test_the_same_seed_and_aim_replay_the_same_game() -> None:
    first, second = _aimed(11), _aimed(11)
    assert first.to_dict() == second.to_dict()


def test_a_state_stored_before_the_deck_and_aim_options_still_loads() -> None:
    state = Game.new("fractions", 3, seed=2).to_dict()
    for key in ("deck", "aim_pairs", "aim_seat"):
        del state["options"][key]
    g = Game.from_dict(state)
    assert g.trap_cards(0) == frozenset()
    g.apply(g.turn, {"type": "draw"})
    assert_conserved(g)
