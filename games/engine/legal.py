"""Legal actions: every action a seat may take now, each variant spelled out."""

from __future__ import annotations

from .cards import COLOUR, COLOURS, KIND, MATCHING, SYMBOL, deck_denominators
from .errors import IllegalAction
from .scoring import Scoring
from .state import Action

# The four plays of each Joker and +4 (one per colour named), copied into each list (copying
# a dict costs less than building it: docs/performance.md).
_COLOUR_PLAYS = {
    card: tuple({"type": "play", "card": card, "colour": c} for c in COLOURS)
    for card, kind in KIND.items()
    if kind in ("wild", "+4")
}


class Legal(Scoring):
    """List legal actions (the plays, replies and out-of-turn actions of a seat)."""

    __slots__ = ()

    def legal_actions(self, seat: int) -> list[Action]:
        """Return every legal action of ``seat`` now (plays without a fractions claim)."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("bad_seat", {"seat": seat})
        if self.over:
            return []
        if self.round_over:
            return [{"type": "next_round"}]
        if self.out[seat]:
            return []
        acts: list[Action] = []
        hand = self.hands[seat]
        aw = self.awaiting
        if aw is not None:
            self._replies(seat, hand, acts)
        elif self.turn == seat:
            # The turn player's actions (play, draw, pass after a draw, call UNO), written
            # here rather than in a method of their own: this runs at every step of a game.
            drawn = self.drawn
            if drawn is not None:
                if self._playable(drawn, hand):
                    self._variants(drawn, seat, hand, acts)
                acts.append({"type": "pass"})
            else:
                self._turn_plays(seat, hand, acts)
                acts.append({"type": "draw"})
            if len(hand) == 2 and self.uno_flag != seat:
                acts.append({"type": "uno"})
        if self.opts.get("jump_in"):
            self._jump_in(seat, hand, acts)
        if self.uno_win >= 0:
            if self.uno_win == seat:
                acts.append({"type": "uno"})
            else:
                acts.append({"type": "catch", "target": self.uno_win})
        return acts

    def _replies(self, seat: int, hand: list[str], acts: list[Action]) -> None:
        """Append the answers ``seat`` may give to what is awaited (a +4, a +2, Quickos)."""
        aw = self.awaiting
        assert aw is not None
        kind = aw["kind"]
        if aw["seat"] == seat:
            if kind == "challenge":
                acts.append({"type": "challenge"})
            acts.append({"type": "accept"})
            if self.opts.get("stacking") and kind != "quickos":
                top_kind = KIND[self.discard[-1]]
                for card in dict.fromkeys(hand):
                    if KIND[card] == top_kind and self._plus4_ok(card, hand):
                        self._variants(card, seat, hand, acts)
            if self._may_stack(seat) and len(hand) == 2 and self.uno_flag != seat:
                acts.append({"type": "uno"})
        if kind == "quickos" and seat != aw["by"] and "quickos" in hand:
            acts.append({"type": "quickos"})

    def _jump_in(self, seat: int, hand: list[str], acts: list[Action]) -> None:
        """Append the plays of a card identical to the top that ``seat`` may jump in with."""
        if seat == self.turn or seat == self.last_player:
            return
        aw = self.awaiting
        top = self.discard[-1]
        stacking_reply = aw is not None and aw["seat"] == seat and self.opts["stacking"]
        if top in hand and not stacking_reply and self._plus4_ok(top, hand):
            self._variants(top, seat, hand, acts)

    def _turn_plays(self, seat: int, hand: list[str], acts: list[Action]) -> None:
        """Append the plays open to the turn player (before any draw)."""
        opts = self.opts
        if self.ruleset == "fractions":
            for card in dict.fromkeys(hand):
                if self._playable(card, hand):
                    self._variants(card, seat, hand, acts)
            return
        # Classic and Family Quick, inlined: this runs at every step of a game.
        colour = self.colour
        match = MATCHING[colour, SYMBOL[self.discard[-1]]]
        seven = opts.get("seven_o", False)
        bluff: bool | None = None
        for card in dict.fromkeys(hand):
            if card in match:
                if seven and card[0] == "7":
                    self._variants(card, seat, hand, acts)
                else:
                    acts.append({"type": "play", "card": card})
                continue
            kind = KIND[card]
            if kind == "wild":
                acts += map(dict.copy, _COLOUR_PLAYS[card])
            elif kind == "+4":
                if bluff is None:
                    bluff = not opts.get("plus4_bluffing", True) and self._is_bluff(hand)
                if not bluff:
                    acts += map(dict.copy, _COLOUR_PLAYS[card])
            elif kind == "fq" and (colour is None or COLOUR[card] == colour):
                self._variants(card, seat, hand, acts)

    def _may_stack(self, seat: int) -> bool:
        """Tell whether ``seat`` is awaited and may answer by stacking a card."""
        aw = self.awaiting
        return aw is not None and aw["seat"] == seat and bool(self.opts.get("stacking"))

    def _plus4_ok(self, card: str, hand: list[str]) -> bool:
        """Tell whether a +4 may be played under the bluffing option (other cards: True)."""
        if KIND[card] != "+4":
            return self._finish_error(card, hand) is None
        if not self.opts.get("plus4_bluffing", True) and self._is_bluff(hand):
            return False
        return self._finish_error(card, hand) is None

    def _playable(self, card: str, hand: list[str]) -> bool:
        """Tell whether ``card`` may be played on its owner's turn."""
        if self.ruleset == "fractions":
            return self._fits(card) and self._plus4_ok(card, hand)
        if card in MATCHING[self.colour, SYMBOL[self.discard[-1]]]:
            return True  # a plain coloured card that fits: no +4 or finishing rule applies
        # Outside fractions only a +4 has a laying rule (no finishing rule).
        return self._matches(card) and (KIND[card] != "+4" or self._plus4_ok(card, hand))

    def _variants(self, card: str, seat: int, hand: list[str], acts: list[Action]) -> None:
        """Append the play actions of one card (colour, denominator, function, target)."""
        kind = KIND[card]
        if self.ruleset == "fractions":
            acts.append({"type": "play", "card": card})
            if kind in ("+2", "wild", "+4"):
                acts.extend(
                    {"type": "play", "card": card, "denominator": d}
                    for d in deck_denominators(self.ruleset, self.opts)
                )
            return
        if kind == "wild" or kind == "+4":
            acts += map(dict.copy, _COLOUR_PLAYS[card])
        elif kind == "fq":
            for fn in self.opts["family_quick_functions"]:
                if fn == "swap" and len(hand) > 1:
                    acts.extend(
                        {"type": "play", "card": card, "function": fn, "target": t}
                        for t in self._targets(seat)
                    )
                else:
                    acts.append({"type": "play", "card": card, "function": fn})
        elif (
            self.opts.get("seven_o") and SYMBOL[card] == "7" and len(hand) > 1 and self.n_active > 1
        ):
            acts.extend({"type": "play", "card": card, "target": t} for t in self._targets(seat))
        else:
            acts.append({"type": "play", "card": card})

    def _targets(self, seat: int) -> list[int]:
        """Return the seats ``seat`` may target (the others still in play)."""
        return [t for t in range(self.n) if t != seat and not self.out[t]]
