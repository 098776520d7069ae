"""Check a game's invariants from the outside: cards conserved, one actor, views that hide.

Used by the ``selfplay`` command and the property tests. Every check returns a list of
problems (empty when the game is sound), so a caller can report them all at once.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game
from games.engine.cards import deck_for

# The default decks' sizes; a fractions game with another `deck` level has that level's size.
DECK_SIZES = {"fractions": 116, "classic": 108, "family_quick": 68}
REPLY_KINDS = frozenset({"challenge", "stack", "penalty", "quickos"})
# Words that, in a view key, would name hidden cards (the draw pile, other hands).
SECRET_KEY_WORDS = ("deck", "pile", "hands", "stock")


def check_conservation(ruleset: str, view: dict[str, Any]) -> list[str]:
    """Check that hands + draw pile + discard pile hold the whole deck (of the level in use)."""
    total = sum(view["hand_sizes"]) + view["draw_pile_size"] + view["discard_size"]
    size = len(deck_for(ruleset, view.get("options") or {}))
    if total != size:
        return [
            f"card count {total} != deck size {size} (hands "
            f"{view['hand_sizes']}, draw pile {view['draw_pile_size']}, "
            f"discard {view['discard_size']})"
        ]
    return []


def check_actor(game: Game, view: dict[str, Any]) -> list[str]:
    """Check that one seat owns the turn or is awaited (and may act), or the round is over."""
    turn, awaiting = view["turn"], view["awaiting"]
    legal = [game.legal_actions(s) for s in range(view["players"])]
    if view["winner"] is not None:
        if turn is not None or awaiting is not None or view["acting"] is not None or any(legal):
            return [f"game over (winner {view['winner']}) yet turn {turn}, awaiting {awaiting}"]
        return []
    if view["round_over"]:
        acting = view["acting"]
        only_next = all(acts == [{"type": "next_round"}] for acts in legal)
        if turn is not None or acting is not None or not only_next:
            return [f"round over yet turn {turn}, acting {acting} or actions besides next_round"]
        return []
    return _turn_or_reply_problems(view) + _actor_problems(view, legal)


def _turn_or_reply_problems(view: dict[str, Any]) -> list[str]:
    """Check that a round in play has a turn owner or an awaited reply, never both."""
    turn, awaiting = view["turn"], view["awaiting"]
    if turn is not None:
        if awaiting is not None and awaiting["kind"] != "uno":
            return [f"turn {turn} and a reply awaited at once: {awaiting}"]
    elif awaiting is None or awaiting["kind"] not in REPLY_KINDS:
        return [f"no turn owner and no reply awaited: awaiting {awaiting}"]
    return []


def _actor_problems(view: dict[str, Any], legal: list[list[dict[str, Any]]]) -> list[str]:
    """Check that the acting seat is the turn owner or the awaited seat, in play, with a move."""
    turn, awaiting, actor = view["turn"], view["awaiting"], view["acting"]
    problems = []
    # The engine's answer to "who must act now": the turn owner, else the seat that must answer.
    expected = turn
    if turn is None and awaiting is not None and awaiting["kind"] in REPLY_KINDS:
        expected = awaiting["seat"]
    if actor != expected:
        problems.append(f"acting {actor} is neither turn {turn} nor the reply awaited {awaiting}")
    if actor is not None:
        if not 0 <= actor < view["players"] or actor in view["eliminated"]:
            problems.append(f"actor {actor} is not a seat in play")
        elif not legal[actor]:
            problems.append(f"actor {actor} has no legal action")
    return problems


def _entries(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """List (path, value) for the view's keys and the keys of its nested dicts (views are flat)."""
    found = list(view.items())
    for key, value in view.items():
        if isinstance(value, dict):
            found.extend((f"{key}.{k}", v) for k, v in value.items())
    return found


def check_view_shape(view: dict[str, Any], seat: int | None, hand: list[str] | None) -> list[str]:
    """Check that a view shows its own hand only, and no card list under a secret name."""
    problems = []
    if seat is None and view["hand"]:
        problems.append(f"spectator view shows a hand: {view['hand']}")
    if seat is not None and hand is not None and sorted(view["hand"]) != sorted(hand):
        problems.append(f"view({seat}) hand {view['hand']} != the seat's hand {hand}")
    for path, value in _entries(view):
        if not isinstance(value, list) or not any(isinstance(v, str) for v in value):
            continue
        key = path.rsplit(".", 1)[-1].lower()
        if any(w in key for w in SECRET_KEY_WORDS):
            problems.append(f"view({seat}) lists cards at {path}")
    return problems


def shuffle_hidden(state: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """Return a copy of ``to_dict()`` output with every card ``seat`` cannot see redealt.

    The other hands and the draw pile are shuffled together and dealt back in the same sizes:
    the seat's information is the same, so its view must be too.
    """
    hands = [list(h) for h in state["hands"]]
    hidden = [c for s, h in enumerate(hands) if s != seat for c in h] + list(state["pile"])
    rng.shuffle(hidden)
    for s, h in enumerate(hands):
        if s != seat:
            hands[s] = [hidden.pop() for _ in h]
    return {**state, "hands": hands, "pile": hidden}


def check_views_hide(game: Game, rng: random.Random) -> list[str]:
    """Check that no view changes when the cards its seat cannot see are redealt."""
    state = game.to_dict()
    problems = []
    for seat in [None, *range(state["players"])]:
        other = Game.from_dict(shuffle_hidden(state, seat, rng))
        if other.view(seat) != game.view(seat):
            problems.append(f"view({seat}) depends on cards that seat cannot see")
    return problems


def check_game(game: Game, ruleset: str, rng: random.Random | None = None) -> list[str]:
    """Run every check on a game; with ``rng``, also redeal hidden cards to test the views."""
    spectator = game.view(None)
    problems = check_conservation(ruleset, spectator) + check_actor(game, spectator)
    problems += check_view_shape(spectator, None, None)
    hands = game.to_dict()["hands"]
    for seat in range(spectator["players"]):
        problems += check_view_shape(game.view(seat), seat, hands[seat])
    if rng is not None:
        problems += check_views_hide(game, rng)
    return problems
