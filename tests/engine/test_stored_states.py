"""Games stored by the first engine (version 1, short keys) load and play on unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import Game
from games.engine.errors import IllegalAction
from games.engine.state import STATE_VERSION

STORED = Path(__file__).parent / "stored"
# Each file: a state that version 1 stored, with the views and legal actions it gave then.
FILES = sorted(STORED.glob("state_v1_*.json"))


def _stored(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_version_1_state_shows_every_seat_what_it_showed_then(path: Path) -> None:
    stored = _stored(path)
    assert stored["state"]["v"] == 1
    game = Game.from_dict(stored["state"])
    for seat, view in stored["views"].items():
        assert game.view(int(seat)) == view
        assert game.legal_actions(int(seat)) == stored["legal"][seat]
    assert game.view(None) == stored["spectator"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_version_1_state_is_stored_again_with_named_fields(path: Path) -> None:
    game = Game.from_dict(_stored(path)["state"])
    again = game.to_dict()
    assert again["version"] == STATE_VERSION == 2
    assert all(len(key) > 2 for key in again), "every field is named in words"
    assert Game.from_dict(again).to_dict() == again


def test_the_awaited_challenge_keeps_its_bluff_and_the_card_below() -> None:
    game = Game.from_dict(_stored(STORED / "state_v1_classic.json")["state"])
    assert game.awaiting == {
        "seat": 0,
        "kind": "challenge",
        "total": 4,
        "by": 2,
        "bluff": True,
        "prev_colour": "r",
        "prev_reference": None,
        "prev_denominator": 0,
    }
    assert game.last_player == 2
    events = game.apply(0, {"type": "challenge"})
    assert events[0]["bluff"] is True
    assert game.colour == "r" and game.turn == 0  # the challenger plays on the card below


def test_a_version_1_state_without_the_later_fields_loads_with_their_defaults() -> None:
    state = dict(_stored(STORED / "state_v1_fractions.json")["state"])
    del state["dp"], state["lp"]  # stored before blocked rounds and jump-in existed
    game = Game.from_dict(state)
    assert (game.dead_passes, game.last_player) == (0, -1)


@pytest.mark.parametrize("version", [0, 3, "2", None])
def test_a_state_of_an_unknown_version_is_refused(version: object) -> None:
    state = Game.new("classic", 2, seed=1).to_dict()
    state["version"] = version
    with pytest.raises(IllegalAction) as info:
        Game.from_dict(state)
    assert info.value.code == "bad_state"
