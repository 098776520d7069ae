"""The game state as plain JSON-ready values, and its compact dict form."""

from __future__ import annotations

import random
from math import floor
from typing import Any, NotRequired, TypedDict, cast

from .cards import RULESETS, deck_for
from .errors import IllegalAction

# Version 2 names every field in words; version 1 (short keys) is still read (_from_v1).
STATE_VERSION = 2


class Awaiting(TypedDict):
    """The answer a seat owes: to a +4 (challenge), a +2/+4 (stack, penalty) or Quickos."""

    seat: int  # the seat that must answer
    kind: str  # "challenge" | "stack" | "penalty" | "quickos"
    total: int  # the cards the answer "accept" draws
    by: int  # the seat that played the pending +2/+4
    # A challengeable +4 only: whether it was a bluff, and the top's facts before it.
    bluff: NotRequired[bool]
    prev_colour: NotRequired[str | None]
    prev_reference: NotRequired[str | None]
    prev_denominator: NotRequired[int]


Event = dict[str, Any]
Action = dict[str, Any]


class State:
    """Hold every field of a game; no rules here, only storage and (de)serialisation."""

    __slots__ = (
        "ruleset",
        "n",
        "opts",
        "seed",
        "shuffles",
        "hands",
        "pile",
        "discard",
        "dealer",
        "turn",
        "direction",
        "colour",
        "ref",
        "den",
        "awaiting",
        "drawn",
        "uno_flag",
        "uno_win",
        "last_player",
        "dead_passes",
        "refused",
        "round",
        "round_over",
        "round_winner",
        "winner",
        "over",
        "scores",
        "team_scores",
        "out",
        "n_active",
        "start_events",
        "view_base",
    )

    ruleset: str
    n: int
    opts: dict[str, Any]
    seed: int  # the game's seed; each shuffle uses Random(seed, shuffles): no RNG state is stored
    shuffles: int  # how many random draws (shuffles) the game made so far
    hands: list[list[str]]
    pile: list[str]  # draw pile, top card last
    discard: list[str]  # discard pile, top card last
    dealer: int
    turn: int  # -1: nobody (waiting on a reply, or round over)
    direction: int
    colour: str | None
    ref: str | None  # fractions: the reference fraction ("1/3"), None after a named denominator
    den: int  # fractions: the denominator a next fraction may match by, 0 = none
    awaiting: Awaiting | None
    drawn: str | None  # card the turn player drew and may still play
    uno_flag: int  # seat that called UNO with two cards on its turn, or -1
    uno_win: int  # seat holding one uncalled card that may be caught, or -1
    last_player: int  # seat that laid the top card (-1: the start card, or not known)
    # Turns in a row that found nothing to draw and ended in a pass, since a card last moved
    # (played or drawn). At n_active the round is blocked and ends (scoring.py).
    dead_passes: int
    # Fractions: the fraction cards refused to the turn seat since the last applied action
    # other than a penalised wrong attempt, each with the rules ruled out ("equal",
    # "denominator"): trying one again under a ruled-out rule is refused unjudged
    # (``already_refused``). Stored only when not empty (older states round-trip unchanged).
    refused: dict[str, list[str]]
    round: int
    round_over: bool
    round_winner: int | list[int] | None
    winner: int | list[int] | None
    over: bool
    scores: list[int]
    team_scores: list[int] | None
    out: list[bool]  # eliminated seats (Uno Challenge)
    n_active: int
    start_events: list[dict[str, Any]]  # events of the first deal; not stored
    view_base: dict[str, Any] | None  # a view's frame for the round (a cache; not stored)

    def _rng(self) -> random.Random:
        """Return a fresh generator for the next random step (deterministic from the seed)."""
        self.shuffles += 1
        return random.Random(self.seed * 1_000_003 + self.shuffles)

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as a JSON-safe dict, every field named (an exact round trip)."""
        return {
            "version": STATE_VERSION,
            "ruleset": self.ruleset,
            "players": self.n,
            "options": {k: (list(v) if isinstance(v, list) else v) for k, v in self.opts.items()},
            "seed": self.seed,
            "shuffles": self.shuffles,
            "hands": [list(h) for h in self.hands],
            "pile": list(self.pile),
            "discard": list(self.discard),
            "dealer": self.dealer,
            "turn": self.turn,
            "direction": self.direction,
            "colour": self.colour,
            "reference": self.ref,
            "denominator": self.den,
            "awaiting": dict(self.awaiting) if self.awaiting is not None else None,
            "drawn": self.drawn,
            "uno_called": self.uno_flag,
            "uno_open": self.uno_win,
            "last_player": self.last_player,
            "dead_passes": self.dead_passes,
            "round": self.round,
            "round_over": self.round_over,
            "round_winner": _copy_winner(self.round_winner),
            "winner": _copy_winner(self.winner),
            "over": self.over,
            "scores": list(self.scores),
            "team_scores": list(self.team_scores) if self.team_scores is not None else None,
            "out": [s for s, o in enumerate(self.out) if o],
        } | ({"refused": {c: list(r) for c, r in self.refused.items()}} if self.refused else {})

    def _load(self, stored: dict[str, Any]) -> None:
        """Fill the fields from a to_dict() result; raise ``bad_state`` when it is not one."""
        try:
            d = _from_v1(stored) if stored.get("v") == 1 else stored
            if d["version"] != STATE_VERSION or d["ruleset"] not in RULESETS:
                raise ValueError("version or ruleset")
            self.ruleset = d["ruleset"]
            self.n = int(d["players"])
            self.opts = {
                k: (list(v) if isinstance(v, list) else v) for k, v in d["options"].items()
            }
            self.seed = int(d["seed"])
            self.shuffles = int(d["shuffles"])
            self.hands = [list(h) for h in d["hands"]]
            self.pile = list(d["pile"])
            self.discard = list(d["discard"])
            self.dealer = int(d["dealer"])
            self.turn = int(d["turn"])
            self.direction = int(d["direction"])
            self.colour = d["colour"]
            self.ref = d["reference"]
            self.den = int(d["denominator"])
            awaiting = d["awaiting"]
            self.awaiting = cast(Awaiting, dict(awaiting)) if awaiting is not None else None
            self.drawn = d["drawn"]
            self.uno_flag = int(d["uno_called"])
            self.uno_win = int(d["uno_open"])
            self.last_player = int(d["last_player"])
            self.dead_passes = int(d["dead_passes"])
            refused = d.get("refused") or {}
            self.refused = {str(c): [str(r) for r in rules] for c, rules in refused.items()}
            self.round = int(d["round"])
            self.round_over = bool(d["round_over"])
            self.round_winner = _copy_winner(d["round_winner"])
            self.winner = _copy_winner(d["winner"])
            self.over = bool(d["over"])
            self.scores = list(d["scores"])
            self.team_scores = list(d["team_scores"]) if d["team_scores"] is not None else None
            out = set(d["out"])
            self.out = [s in out for s in range(self.n)]
            self.n_active = self.n - len(out)
            self.start_events = []
            self.view_base = None
            if len(self.hands) != self.n or len(self.scores) != self.n:
                raise ValueError("seat count")
            held = sorted(c for h in self.hands for c in h) + sorted(self.pile + self.discard)
            if sorted(held) != sorted(deck_for(self.ruleset, self.opts)):
                raise ValueError("cards do not make up the deck")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise IllegalAction("bad_state", why=str(exc)) from exc


# Version 1's short keys, and the keys of its awaiting record, by their version 2 names.
_V1_KEYS = {
    "n": "players",
    "opts": "options",
    "rc": "shuffles",
    "dir": "direction",
    "ref": "reference",
    "den": "denominator",
    "aw": "awaiting",
    "uf": "uno_called",
    "uw": "uno_open",
    "lp": "last_player",
    "dp": "dead_passes",
    "ro": "round_over",
    "rw": "round_winner",
    "w": "winner",
    "ts": "team_scores",
}
_V1_AWAITING_KEYS = {
    "s": "seat",
    "k": "kind",
    "t": "total",
    "b": "by",
    "f": "bluff",
    "pc": "prev_colour",
    "pr": "prev_reference",
    "pd": "prev_denominator",
}


def _from_v1(d: dict[str, Any]) -> dict[str, Any]:
    """Return a version 1 state (short keys, as games stored before 2026-11-26) in version 2."""
    new = {_V1_KEYS.get(k, k): v for k, v in d.items() if k != "v"}
    new["version"] = STATE_VERSION
    new.setdefault("last_player", -1)
    new.setdefault("dead_passes", 0)  # absent from states stored before blocked rounds
    awaiting = new.get("awaiting")
    if isinstance(awaiting, dict):
        new["awaiting"] = {_V1_AWAITING_KEYS.get(k, k): v for k, v in awaiting.items()}
    return new


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """Shuffle in place (Fisher-Yates on rng.random(), faster than rng.shuffle)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        # floor, not int(): the same index for a product >= 0 (stored games replay from
        # their seed), and a cheaper call (docs/performance.md).
        j = floor(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _copy_winner(w: int | list[int] | None) -> int | list[int] | None:
    return list(w) if isinstance(w, list) else w
