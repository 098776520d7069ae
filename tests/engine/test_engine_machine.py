"""Stateful property tests: any ruleset, any valid options, any sequence of actions.

Invariants after every step: the cards are all there, one seat owns the turn or is awaited
(and may act), views show nothing their seat cannot see, and the JSON round trip is exact.
Rules: legal actions are always accepted, arbitrary actions are either accepted (and then
legal) or refused without any change, bots move the game on, a restored copy plays on alike.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from games.engine import Game, IllegalAction
from games.engine.bots import next_bot_step
from games.engine.cards import DECKS, deck_for
from games.management.invariants import (
    check_actor,
    check_conservation,
    check_view_shape,
    check_views_hide,
)

from .strategies import Config, configs

ACTION_TYPES = ("draw", "pass", "uno", "challenge", "accept", "quickos", "next_round")


def _core(action: dict[str, Any]) -> tuple[Any, ...]:
    """Reduce an action to what legal_actions must list (choices such as colour aside)."""
    return (
        action["type"],
        action.get("card"),
        action.get("target") if action["type"] == "catch" else None,
    )


def _arbitrary_action(
    data: st.DataObject, config: Config, hand: list[str], n: int
) -> dict[str, Any]:
    """Draw an action that may or may not be legal, well-formed or not."""
    # The deck in use and the default one: a card of another deck level is an unknown card.
    deck = sorted(set(DECKS[config.ruleset]) | set(deck_for(config.ruleset, config.options)))
    choice = data.draw(st.integers(0, 9), label="action kind")
    if choice <= 4:
        cards = hand if hand and choice <= 2 else deck
        action: dict[str, Any] = {"type": "play", "card": data.draw(st.sampled_from(cards))}
        extras = data.draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "colour": st.sampled_from(["r", "j", "v", "b", "x"]),
                    "denominator": st.sampled_from([2, 3, 5, 6, 12, 24, 48]),
                    "target": st.integers(-1, n),
                    "function": st.sampled_from(["rev", "stop", "+2", "swap", "jump"]),
                    "claim": st.sampled_from(["equal", "denominator", "maybe"]),
                },
            ),
            label="play extras",
        )
        action.update(extras)
        return action
    if choice <= 7:
        return {"type": data.draw(st.sampled_from(ACTION_TYPES))}
    if choice == 8:
        return {"type": "catch", "target": data.draw(st.integers(-1, n))}
    return data.draw(
        st.sampled_from(
            [{"type": "bogus"}, {"type": "play"}, {"type": "draw", "extra": 1}, {"card": "7r"}]
        )
    )


class EngineMachine(RuleBasedStateMachine):
    """Drive one game with legal, arbitrary and bot actions, checking it after every step."""

    game: Game
    config: Config

    @initialize(config=configs())
    def start(self, config: Config) -> None:
        self.config = config
        self.game = Game.new(
            config.ruleset, config.players, options=dict(config.options), seed=config.seed
        )
        self.rng = random.Random(config.seed)

    # --- rules ----------------------------------------------------------------------------

    @precondition(lambda self: self.game.view(None)["winner"] is None)
    @rule(data=st.data())
    def legal_action_is_accepted(self, data: st.DataObject) -> None:
        game = self.game
        actor = game.view(None)["acting"]
        seats = [s for s in range(self.config.players) if game.legal_actions(s)]
        seat = actor if actor in seats and data.draw(st.booleans()) else None
        if seat is None:
            seat = data.draw(st.sampled_from(seats), label="seat")
        action = dict(data.draw(st.sampled_from(game.legal_actions(seat)), label="action"))
        game.apply(seat, action)  # must not raise

    @rule()
    def every_listed_action_is_accepted(self) -> None:
        state = self.game.to_dict()
        for seat in range(self.config.players):
            for action in self.game.legal_actions(seat):
                copy = Game.from_dict(state)
                try:
                    copy.apply(seat, dict(action))
                except IllegalAction as exc:
                    raise AssertionError(f"listed {action} by {seat} refused: {exc}") from exc

    @rule(data=st.data())
    def arbitrary_action_is_legal_or_changes_nothing(self, data: st.DataObject) -> None:
        game = self.game
        n = self.config.players
        seat = data.draw(st.integers(0, n - 1), label="seat")
        hand = game.view(seat)["hand"]
        action = _arbitrary_action(data, self.config, hand, n)
        before = json.dumps(game.to_dict(), sort_keys=True)
        legal = {_core(a) for a in game.legal_actions(seat)}
        try:
            events = game.apply(seat, action)
        except IllegalAction as exc:
            event(f"refused: {exc.code}")
            assert exc.code, "an IllegalAction has a code"
            assert json.dumps(game.to_dict(), sort_keys=True) == before, (
                f"{action} by {seat} was refused ({exc.code}) but changed the game"
            )
            return
        event(f"accepted: {action['type']}")
        assert events, f"{action} by {seat} was accepted without events"
        if events[0]["type"] != "wrong_attempt":  # fractions penalty: refused, yet it draws
            assert _core(action) in legal, f"{action} by {seat} was accepted but not listed"

    @rule(data=st.data())
    def bad_seat_is_refused(self, data: st.DataObject) -> None:
        seat = data.draw(st.sampled_from([-1, self.config.players, None, "0"]))
        before = self.game.to_dict()
        # The bad seats are not ints on purpose: the engine checks its callers.
        calls: tuple[Callable[[], object], ...] = (
            lambda: self.game.apply(seat, {"type": "draw"}),  # type: ignore[arg-type]
            lambda: self.game.legal_actions(seat),  # type: ignore[arg-type]
        )
        for call in calls:
            try:
                call()
            except IllegalAction as exc:
                assert exc.code == "bad_seat"
            else:
                raise AssertionError(f"seat {seat!r} was accepted")
        assert self.game.to_dict() == before

    @precondition(lambda self: self.game.view(None)["winner"] is None)
    @rule(steps=st.integers(1, 25), kind=st.sampled_from(["heuristic", "random"]))
    def bots_play(self, steps: int, kind: str) -> None:
        kinds = [kind] * self.config.players
        for _ in range(steps):
            if next_bot_step(self.game, kinds, self.rng) is None:
                break

    @rule(steps=st.integers(1, 15), seed=st.integers(0, 2**16))
    def restored_copy_plays_on_alike(self, steps: int, seed: int) -> None:
        copy = Game.from_dict(json.loads(json.dumps(self.game.to_dict())))
        kinds = ["heuristic"] * self.config.players
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        for _ in range(steps):
            a = next_bot_step(self.game, kinds, rng_a)
            b = next_bot_step(copy, kinds, rng_b)
            assert (a and (a.seat, a.action, a.events)) == (b and (b.seat, b.action, b.events))
            if a is None:
                break
        assert copy.to_dict() == self.game.to_dict()

    # --- invariants -------------------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        problems = check_conservation(self.config.ruleset, self.game.view(None))
        assert not problems, problems

    @invariant()
    def one_seat_acts_or_the_round_is_over(self) -> None:
        problems = check_actor(self.game, self.game.view(None))
        assert not problems, problems

    @invariant()
    def views_never_leak(self) -> None:
        game = self.game
        hands = game.to_dict()["hands"]
        problems = check_view_shape(game.view(None), None, None)
        for seat in range(self.config.players):
            problems += check_view_shape(game.view(seat), seat, hands[seat])
        problems += check_views_hide(game, self.rng)
        assert not problems, problems

    @invariant()
    def json_round_trip_is_exact(self) -> None:
        state = self.game.to_dict()
        text = json.dumps(state)
        restored = Game.from_dict(json.loads(text))
        assert restored.to_dict() == state
        assert json.dumps(restored.to_dict()) == text
        for seat in [None, *range(self.config.players)]:
            assert restored.view(seat) == self.game.view(seat)


# Derandomized for a stable CI; ENGINE_PROPS_EXAMPLES=2000 (say) hunts with fresh seeds, and
# ENGINE_PROPS_STEPS=200 drives each game further.
_HUNT = int(os.environ.get("ENGINE_PROPS_EXAMPLES", "0"))
_STEPS = int(os.environ.get("ENGINE_PROPS_STEPS", "40"))
EngineMachine.TestCase.settings = settings(
    max_examples=_HUNT or 150,
    stateful_step_count=_STEPS,
    derandomize=not _HUNT,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestEngineMachine = EngineMachine.TestCase
