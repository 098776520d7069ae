"""Dealing and drawing: the dealer draw, the deal, the start card, draws and reshuffles."""

from __future__ import annotations

import random
from typing import Any

from .aim import aim_deal, aim_draw, aim_pairs
from .cards import COLOUR, DEN, FRACTION, KIND, deck_for, draw_rank
from .errors import IllegalAction
from .options import hand_size
from .rules import Rules
from .state import Event, shuffle


class Dealing(Rules):
    """Deal rounds and move cards from the pile to the hands."""

    __slots__ = ()

    def _start_round(self, setup: dict[str, Any] | None) -> list[Event]:
        """Deal a round (scripted by ``setup`` if given) and turn the start card."""
        n, ruleset = self.n, self.ruleset
        self.view_base = None
        active = [s for s in range(n) if not self.out[s]]
        full = deck_for(ruleset, self.opts)
        deck = list(full)
        rng = self._rng()
        events: list[Event] = []
        self.direction, self.awaiting, self.drawn = 1, None, None
        self.uno_flag = self.uno_win = self.last_player = -1
        self.dead_passes = 0
        self.refused = {}
        self.round_over, self.round_winner = False, None
        self.colour, self.ref, self.den = None, None, 0
        s = _check_setup(setup, full, n) if setup is not None else {}
        dealer = s.get("dealer")
        if dealer is None:
            dealer, draws = _draw_dealer(rng, deck, active)
            events.append({"type": "dealer_draw", "draws": draws, "dealer": dealer})
        self.dealer = dealer
        named: list[str] = [c for h in s.get("hands", []) for c in h]
        named += s.get("pile", [])
        if "start" in s:
            named.append(s["start"])
        for card in named:
            deck.remove(card)  # counts were checked by _check_setup
        shuffle(rng, deck)
        if "hands" in s:
            self.hands = [list(h) for h in s["hands"]]
        else:
            size = hand_size(ruleset, n)
            self.hands = [[] for _ in range(n)]
            for seat in active:
                self.hands[seat] = deck[-size:]
                del deck[-size:]
        pile = deck + list(reversed(s.get("pile", [])))
        if "start" in s:
            pile.append(s["start"])
        if not pile:
            raise IllegalAction("bad_setup", why=("il ne reste aucune carte", "no card is left"))
        self.pile, self.discard = pile, []
        if "hands" not in s and aim_pairs(self):
            aim_deal(self, self._rng())  # aimed practice: games/engine/aim.py
        card = self._turn_start_card(rng, events)
        events.append({"type": "round_started", "round": self.round, "dealer": dealer})
        events.extend(self._start_effect(card))
        return events

    def _turn_start_card(self, rng: random.Random, events: list[Event]) -> str:
        """Turn the start card, returning the ones the sheets send back into the pile."""
        pile = self.pile
        guard = len(pile)  # a scripted pile made only of such cards must still start
        while True:
            card = pile.pop()
            kind = KIND[card]
            if guard == 0:
                break
            guard -= 1
            if self.ruleset == "family_quick" and kind in ("fq", "quickos"):
                pile.insert(0, card)  # Family Quick: put under the pile, turn another
                events.append({"type": "start_returned", "card": card, "to": "bottom"})
            elif (kind == "+4" and self.ruleset != "family_quick") or (
                kind == "wild" and self.ruleset == "fractions"
            ):
                pile.insert(rng.randrange(len(pile) + 1), card)
                events.append({"type": "start_returned", "card": card, "to": "shuffled"})
            else:
                break
        self.discard.append(card)
        return card

    def _start_effect(self, card: str) -> list[Event]:
        """Apply the start card as the sheets say and choose the first player."""
        kind = KIND[card]
        self.colour = COLOUR[card]
        if kind == "frac":
            self.ref = FRACTION[card]
            self.den = DEN[card]
        first = self._nxt(self.dealer)
        events: list[Event] = [{"type": "start", "card": card, "colour": self.colour}]
        if kind == "+2" or kind == "+4":
            events += self._draw(first, 2 if kind == "+2" else 4, "start")
            events.append({"type": "skipped", "seat": first})
            self.turn = self._nxt(first)
        elif kind == "rev":
            self.direction = -1
            # Family Quick: the dealer starts; the other sheets: the player right of the dealer.
            self.turn = self.dealer if self.ruleset == "family_quick" else self._nxt(self.dealer)
            events.append({"type": "reversed", "direction": -1})
        elif kind == "stop":
            events.append({"type": "skipped", "seat": first})
            self.turn = self._nxt(first)
        else:
            self.turn = first  # after a Joker the first player names the colour by playing
        events.append({"type": "turn", "seat": self.turn})
        return events

    def _draw(self, seat: int, count: int, reason: str) -> list[Event]:
        """Move ``count`` cards from the pile to a hand, reshuffling the discards if needed."""
        events: list[Event] = []
        pile = self.pile
        if pile and self.opts.get("aim_pairs"):
            aim_draw(self, seat)  # only reorders the hidden pile (games/engine/aim.py)
        if count == 1 and pile:
            got = [pile.pop()]  # the everyday draw
        elif len(pile) >= count:
            got = pile[len(pile) - count :]
            del pile[len(pile) - count :]
            got.reverse()
        else:
            got = []
            for _ in range(count):
                if not self.pile and not self._reshuffle(events):
                    break
                got.append(self.pile.pop())
        if got:
            self.dead_passes = 0  # a card moved: the round is not blocked
        self.hands[seat].extend(got)
        events.append(
            {
                "type": "drew",
                "seat": seat,
                "count": len(got),
                "reason": reason,
                "cards": got,
                "visible_to": [seat],
            }
        )
        return events

    def _reshuffle(self, events: list[Event]) -> bool:
        """Shuffle the discards (less the top, and the card under a challengeable +4) into
        a new pile; return False when there is nothing to shuffle."""
        keep = 2 if self.awaiting is not None and self.awaiting["kind"] == "challenge" else 1
        if len(self.discard) <= keep:
            return False
        kept = self.discard[-keep:]
        pile = self.discard[:-keep]
        shuffle(self._rng(), pile)
        self.pile, self.discard = pile, kept
        events.append({"type": "reshuffled", "count": len(pile)})
        return True


def _draw_dealer(rng: random.Random, deck: list[str], seats: list[int]) -> tuple[int, list[Any]]:
    """Choose the dealer: each seat draws a card, highest number deals, ties draw again."""
    draws: list[Any] = []
    while True:
        cards = rng.sample(deck, len(seats))
        draws.append([[s, c] for s, c in zip(seats, cards, strict=True)])
        ranks = [draw_rank(c) for c in cards]
        best = max(ranks)
        tied = [s for s, r in zip(seats, ranks, strict=True) if r == best]
        if len(tied) == 1:
            return tied[0], draws
        seats = tied


def _check_setup(setup: object, deck: tuple[str, ...], n: int) -> dict[str, Any]:
    """Return a valid ``setup`` or raise ``bad_setup``: known keys, cards of the deck."""

    def bad(fr: str, en: str) -> IllegalAction:
        return IllegalAction("bad_setup", why=(fr, en))

    if not isinstance(setup, dict):
        raise bad("la préparation est un dictionnaire", "setup must be a dict")
    unknown = set(setup) - {"dealer", "hands", "start", "pile"}
    if unknown:
        raise bad(f"clés inconnues {sorted(unknown)}", f"unknown keys {sorted(unknown)}")
    dealer = setup.get("dealer")
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        raise bad("donneur hors des sièges", "dealer is not a seat")
    named: list[Any] = []
    hands = setup.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or len(hands) != n:
            raise bad(f"il faut {n} mains", f"{n} hands are needed")
        for h in hands:
            if not isinstance(h, list):
                raise bad("une main est une liste de cartes", "a hand is a list of cards")
            named.extend(h)
    pile = setup.get("pile")
    if pile is not None:
        if not isinstance(pile, list):
            raise bad("la pioche est une liste de cartes", "pile must be a list of cards")
        named.extend(pile)
    if "start" in setup:
        named.append(setup["start"])
    counts: dict[Any, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    for c in named:
        if not isinstance(c, str) or counts.get(c, 0) <= 0:
            raise bad(
                f"la carte {c!r} n’est pas (ou plus) dans le paquet",
                f"card {c!r} is not (or no longer) in the deck",
            )
        counts[c] -= 1
    return {k: v for k, v in setup.items() if v is not None}
