"""The frames the server builds: explanations of wrong fraction plays, hints and events."""

from __future__ import annotations

from games.engine import Game, IllegalAction
from games.errors import TableError
from games.protocol import error_frame, event_frames, event_items, state_frame
from games.services.outcomes import _refusal

SETUP = {
    "dealer": 0,
    "hands": [["1/3r", "5/6v", "1/2b"], ["joker", "2/3r", "10/12v", "1/6b"]],
    "start": "1/3v",
}


def _refused(game: Game, seat: int, action: dict) -> TableError:  # type: ignore[type-arg]
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        return _refusal(exc)
    raise AssertionError("the play was accepted")


def test_wrong_equal_claim_is_explained_in_both_languages() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    refused = _refused(game, 1, {"type": "play", "card": "2/3r", "claim": "equal"})
    fr, en = error_frame(refused, "fr"), error_frame(refused, "en")
    assert fr["code"] == "not_equivalent"
    assert "2/3" in fr["details"]["explanation"] and "1/3" in fr["details"]["explanation"]
    assert fr["details"]["explanation"] != en["details"]["explanation"]


def test_wrong_play_after_a_named_denominator_is_explained() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    game.apply(1, {"type": "play", "card": "joker", "denominator": 12})
    refused = _refused(game, 0, {"type": "play", "card": "1/2b", "claim": "denominator"})
    frame = error_frame(refused, "en")
    assert frame["code"] == "wrong_denominator"
    assert "12" in frame["details"]["explanation"]


def test_no_hint_in_fractions_but_optional_hint_in_classic() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    info = {"settings": {"highlight_playable": True}, "players": []}
    assert "playable" not in state_frame(game, 1, 0, info)
    classic = Game.new("classic", 2, seed=1)
    turn = classic.view(None)["turn"]
    frame = state_frame(classic, turn, 0, info)
    assert isinstance(frame["playable"], list)
    assert set(frame["playable"]) <= set(frame["view"]["hand"])


def test_event_frames_hide_other_players_drawn_cards() -> None:
    events = [{"type": "drew", "seat": 1, "count": 2, "cards": ["3r", "4j"], "visible_to": [1]}]
    info = {"players": [{"seat": 0, "name": "Léa"}, {"seat": 1, "name": "Hugo"}]}
    (other,) = event_frames(events, 0, info, "fr")
    (own,) = event_frames(events, 1, info, "en")
    assert "cards" not in other["event"] and "Hugo" in other["text"]
    assert own["event"]["cards"] == ["3r", "4j"] and "red 3" in own["text"]


def test_a_state_after_a_change_carries_its_events_each_as_the_seat_may_see_it() -> None:
    game = Game.new("fractions", 2, seed=1, setup=SETUP)
    events = [
        {"type": "drew", "seat": 1, "count": 1, "cards": ["3/6r"], "visible_to": [1]},
        {"type": "turn", "seat": 0},
    ]
    info = {"players": [{"seat": 0, "name": "Léa"}, {"seat": 1, "name": "Hugo"}]}
    frame = state_frame(game, 0, 5, info, event_items(events, 0, info, "fr"))
    assert list(frame) == [
        *("type", "state_id", "events", "view", "table"),
        *("refused", "denominator_cards"),  # a Uno Fractions seat's own facts (issue 30)
    ]
    drew, turn = frame["events"]
    assert drew["event"] == {"type": "drew", "seat": 1, "count": 1}
    assert "Hugo" in drew["text"] and "3/6" not in drew["text"]
    assert turn["event"]["seat"] == 0 and turn["text"]
    # On connect and after `sync` a state has no events: the log is not played twice.
    assert "events" not in state_frame(game, 0, 5, info)
