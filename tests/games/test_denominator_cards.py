"""The seat's frame names its +2, Joker and +4 that may be played now (issue 30 §1.2).

The page opened the denominator chooser for a +2 that could not go on the pile, and said so
only after the child had chosen. `denominator_cards` lets it open the chooser for these only.
"""

from __future__ import annotations

from games.engine import Game
from games.protocol import state_frame

INFO: dict[str, object] = {"players": [], "settings": {}}
# Seat 1 plays first on 1/3 (green): the green +2 fits, the red one does not.
SETUP = {
    "dealer": 0,
    "hands": [["1/2b", "5/6v", "+02b"], ["+02v", "+02r", "joker", "+04", "2/6r", "1/2r"]],
    "start": "1/3v",
}


def test_only_the_special_cards_that_fit_now_are_named() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    frame = state_frame(game, 1, 0, INFO, lang="fr")
    # The +4 may be played (bluffing is allowed); the red +2 does not go on green.
    assert frame["denominator_cards"] == ["+02v", "+04", "joker"]
    assert frame["refused"] == {}


def test_not_on_ones_turn_nothing_is_named_and_a_watcher_gets_nothing() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    assert state_frame(game, 0, 0, INFO)["denominator_cards"] == []
    watcher = state_frame(game, None, 0, INFO)
    assert "denominator_cards" not in watcher and "refused" not in watcher


def test_a_last_joker_is_not_named() -> None:
    setup = {"dealer": 0, "hands": [["1/2b", "5/6v"], ["joker"]], "start": "1/3v"}
    game = Game.new("fractions", 2, seed=1, setup=setup)
    assert state_frame(game, 1, 0, INFO)["denominator_cards"] == []  # cannot finish on a Joker


def test_classic_frames_have_neither() -> None:
    game = Game.new("classic", 2, seed=1)
    frame = state_frame(game, 0, 0, INFO)
    assert "denominator_cards" not in frame and "refused" not in frame
