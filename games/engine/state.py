"""The game state as plain JSON-ready values, and its compact dict form."""

from __future__ import annotations

import random
from typing import Any

from .cards import RULESETS, deck_for
from .errors import IllegalAction

STATE_VERSION = 1

# Internal "awaiting" record (key: meaning), stored as is in to_dict():
#   s: seat that must answer; k: "challenge" | "stack" | "penalty" | "quickos";
#   t: cards the answer "accept" draws; b: seat that played the pending +2/+4;
#   f: that +4 was a bluff; pc, pr, pd: colour, reference, denominator before that +4.
Awaiting = dict[str, Any]
Event = dict[str, Any]
Action = dict[str, Any]


class State:
    """Hold every field of a game; no rules here, only storage and (de)serialisation."""

    __slots__ = (
        "ruleset",
        "n",
        "opts",
        "seed",
        "rc",
        "hands",
        "pile",
        "discard",
        "dealer",
        "turn",
        "direction",
        "colour",
        "ref",
        "den",
        "aw",
        "drawn",
        "uno_flag",
        "uno_win",
        "lp",
        "dp",
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
    seed: int  # the game's seed; each shuffle uses Random(seed, rc) so no RNG state is stored
    rc: int  # how many random draws (shuffles) the game made so far
    hands: list[list[str]]
    pile: list[str]  # draw pile, top card last
    discard: list[str]  # discard pile, top card last
    dealer: int
    turn: int  # -1: nobody (waiting on a reply, or round over)
    direction: int
    colour: str | None
    ref: str | None  # fractions: the reference fraction ("1/3"), None after a named denominator
    den: int  # fractions: the denominator a next fraction may match by, 0 = none
    aw: Awaiting | None
    drawn: str | None  # card the turn player drew and may still play
    uno_flag: int  # seat that called UNO with two cards on its turn, or -1
    uno_win: int  # seat holding one uncalled card that may be caught, or -1
    lp: int  # seat that laid the top card (-1: the start card, or not known)
    # Dead passes: turns in a row that found nothing to draw and ended in a pass, since a card
    # last moved (played or drawn). At n_active the round is blocked and ends (scoring.py).
    dp: int
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
    view_base: dict[str, Any] | None  # view fields fixed for the round (a cache; not stored)

    def _rng(self) -> random.Random:
        """Return a fresh generator for the next random step (deterministic from the seed)."""
        self.rc += 1
        return random.Random(self.seed * 1_000_003 + self.rc)

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as a compact JSON-safe dict (an exact round trip)."""
        return {
            "v": STATE_VERSION,
            "ruleset": self.ruleset,
            "n": self.n,
            "opts": {k: (list(v) if isinstance(v, list) else v) for k, v in self.opts.items()},
            "seed": self.seed,
            "rc": self.rc,
            "hands": [list(h) for h in self.hands],
            "pile": list(self.pile),
            "discard": list(self.discard),
            "dealer": self.dealer,
            "turn": self.turn,
            "dir": self.direction,
            "colour": self.colour,
            "ref": self.ref,
            "den": self.den,
            "aw": dict(self.aw) if self.aw is not None else None,
            "drawn": self.drawn,
            "uf": self.uno_flag,
            "uw": self.uno_win,
            "lp": self.lp,
            "dp": self.dp,
            "round": self.round,
            "ro": self.round_over,
            "rw": _copy_winner(self.round_winner),
            "w": _copy_winner(self.winner),
            "over": self.over,
            "scores": list(self.scores),
            "ts": list(self.team_scores) if self.team_scores is not None else None,
            "out": [s for s, o in enumerate(self.out) if o],
        }

    def _load(self, d: dict[str, Any]) -> None:
        """Fill the fields from a to_dict() result; raise ``bad_state`` when it is not one."""
        try:
            if d["v"] != STATE_VERSION or d["ruleset"] not in RULESETS:
                raise ValueError("version or ruleset")
            self.ruleset = d["ruleset"]
            self.n = int(d["n"])
            self.opts = {k: (list(v) if isinstance(v, list) else v) for k, v in d["opts"].items()}
            self.seed = int(d["seed"])
            self.rc = int(d["rc"])
            self.hands = [list(h) for h in d["hands"]]
            self.pile = list(d["pile"])
            self.discard = list(d["discard"])
            self.dealer = int(d["dealer"])
            self.turn = int(d["turn"])
            self.direction = int(d["dir"])
            self.colour = d["colour"]
            self.ref = d["ref"]
            self.den = int(d["den"])
            self.aw = dict(d["aw"]) if d["aw"] is not None else None
            self.drawn = d["drawn"]
            self.uno_flag = int(d["uf"])
            self.uno_win = int(d["uw"])
            self.lp = int(d.get("lp", -1))
            self.dp = int(d.get("dp", 0))  # absent from states stored before blocked rounds
            self.round = int(d["round"])
            self.round_over = bool(d["ro"])
            self.round_winner = _copy_winner(d["rw"])
            self.winner = _copy_winner(d["w"])
            self.over = bool(d["over"])
            self.scores = list(d["scores"])
            self.team_scores = list(d["ts"]) if d["ts"] is not None else None
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


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """Shuffle in place (Fisher-Yates on rng.random(): about twice as fast as rng.shuffle)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _copy_winner(w: int | list[int] | None) -> int | list[int] | None:
    return list(w) if isinstance(w, list) else w
