"""The Game: creation, views, and applying actions (their checks and their effects)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from .aim import trap_cards
from .cards import (
    COLOURS,
    DEN,
    FRACTION,
    KIND,
    MATCHING,
    RULESETS,
    SYMBOL,
    cards_for,
    deck_denominators,
)
from .errors import IllegalAction
from .legal import Legal
from .options import check_players, validate_options
from .state import Action, Event
from .view import build_view, events_for

# Keys each action type may carry ("type" included).
_ACTION_KEYS = {
    "play": frozenset({"type", "card", "colour", "denominator", "target", "function", "claim"}),
    "draw": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "uno": frozenset({"type"}),
    "catch": frozenset({"type", "target"}),
    "challenge": frozenset({"type"}),
    "accept": frozenset({"type"}),
    "quickos": frozenset({"type"}),
    "next_round": frozenset({"type"}),
}
_CLAIMS = (None, "equal", "denominator")
# The rules a play claims (no claim: either rule is enough, so a refusal rules out both).
_RULES_OF_CLAIM: dict[str | None, frozenset[str]] = {
    None: frozenset({"equal", "denominator"}),
    "equal": frozenset({"equal"}),
    "denominator": frozenset({"denominator"}),
}
# The refusals that judge a fraction play (the others are slips: not your turn, ...).
_JUDGED_FRACTION_CODES = frozenset({"not_equivalent", "wrong_denominator", "no_match"})


class _Params(NamedTuple):
    """A play's checked parameters: named colour and denominator, claim, target, effect."""

    colour: str | None
    named: int | None
    claim: str | None
    target: int | None
    effect: str


# A bare play's parameters ({"type", "card"}: nothing named), by card kind: built once.
_BARE_PARAMS = {kind: _Params(None, None, None, None, kind) for kind in set(KIND.values())}
_COLOUR_SET = frozenset(COLOURS)


def _bad_action(fr: str, en: str) -> IllegalAction:
    """Return a ``bad_action`` error with its reason in French and English."""
    return IllegalAction("bad_action", why=(fr, en))


def _action_kind(action: object) -> str:
    """Return an action's type, or raise ``bad_action`` for a shape no action has."""
    if not isinstance(action, dict):
        raise _bad_action("une action est un dictionnaire", "an action is a dict")
    kind = action.get("type")
    keys = _ACTION_KEYS.get(kind) if type(kind) is str else None
    if keys is None:
        raise _bad_action(f"type d’action inconnu {kind!r}", f"unknown action type {kind!r}")
    if not keys.issuperset(action):
        extra = sorted(str(k) for k in action if k not in keys)
        raise _bad_action(f"clés inconnues {extra}", f"unknown keys {extra}")
    return str(kind)


def _named_parameters(a: Action, denominators: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """Return a play's named colour, denominator and claim, or raise the first that is wrong.

    ``denominators`` are those the deck in use has (cards.deck_denominators): naming another
    would leave no card to play.
    """
    colour = a.get("colour")
    if colour is not None and (type(colour) is not str or colour not in _COLOUR_SET):
        raise IllegalAction("bad_colour", {"colour": colour})
    named = a.get("denominator")
    if named is not None and (type(named) is not int or named not in denominators):
        raise IllegalAction(
            "bad_denominator",
            {"denominator": named, "denominators": list(denominators)},
            denominators=_list_words(denominators),
        )
    claim = a.get("claim")
    if claim is not None and claim not in _CLAIMS:
        raise _bad_action(
            "« claim » vaut equal ou denominator", "'claim' must be equal or denominator"
        )
    return colour, named, claim


def _list_words(numbers: tuple[int, ...]) -> tuple[str, str]:
    """Return "2, 3 ou 6" and "2, 3 or 6" (an empty list: "aucun" / "none")."""
    if not numbers:
        return "aucun", "none"
    words = [str(n) for n in numbers]
    head = ", ".join(words[:-1])
    if not head:
        return words[0], words[0]
    return f"{head} ou {words[-1]}", f"{head} or {words[-1]}"


class Game(Legal):
    """One game of a ruleset: the state plus every rule; pure, seeded, JSON-serialisable."""

    __slots__ = ()

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        ruleset: str,
        players: int,
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        setup: dict[str, Any] | None = None,
    ) -> Game:
        """Start a game and deal its first round (``start_events`` tells what happened)."""
        if ruleset not in RULESETS:
            raise IllegalAction(
                "bad_option", why=(f"jeu inconnu {ruleset!r}", f"unknown ruleset {ruleset!r}")
            )
        n = check_players(ruleset, players)
        opts = validate_options(ruleset, n, options)
        if seed is None:
            seed = random.randrange(2**32)  # stored, so the game still replays exactly
        elif type(seed) is not int:
            raise IllegalAction(
                "bad_option", why=("la graine est un entier", "seed must be an int")
            )
        g = cls.__new__(cls)
        g.ruleset, g.n, g.opts, g.seed, g.shuffles = ruleset, n, opts, seed, 0
        g.scores = [0] * n
        g.out = [False] * n
        g.n_active = n
        fixed_teams = opts.get("teams") and not opts["rotating_partners"]
        g.team_scores = [0] * (n // 2) if fixed_teams else None
        g.round = 1
        g.winner = None
        g.over = False
        g.start_events = g._start_round(setup)
        return g

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game from ``to_dict()`` output."""
        g = cls.__new__(cls)
        g._load(d)
        return g

    # ------------------------------------------------------------------ reading

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may see; ``None`` is a spectator or the teacher."""
        if seat is not None:
            self._check_seat(seat)
        return build_view(self, seat)

    events_for = staticmethod(events_for)

    def acting_seat(self) -> int | None:
        """Return the seat the game waits on: the turn owner, else the seat that must answer.

        The answers waited for are a +4 to challenge or accept, a +2/+4 to stack or take, and
        a +4 that Quickos may send back (its victim accepts). None while a round is over and
        once the game is over. A UNO window waits on nobody: the turn owner goes on playing
        while the uncalled player may still call and the others may catch (docs/engine.md).
        """
        if self.turn >= 0:
            return self.turn
        aw = self.awaiting
        return int(aw["seat"]) if aw is not None else None

    def timeout_action(self, seat: int) -> Action:
        """Return what the server plays for ``seat`` when its turn timer runs out.

        Accept what is awaited (the cards of a +2/+4), else draw, else pass after a draw:
        the moves that keep the game going without choosing for the student. Raise
        ``not_your_turn`` unless the game waits on ``seat`` (see ``acting_seat``).
        """
        self._check_seat(seat)
        if self.acting_seat() != seat:
            raise IllegalAction("not_your_turn")
        legal = self.legal_actions(seat)
        for wanted in ("accept", "draw", "pass"):
            for action in legal:
                if action["type"] == wanted:
                    return action
        # Unreachable: the awaited seat may accept, the turn owner may draw or (after) pass.
        raise IllegalAction("not_your_turn")

    def trap_cards(self, seat: int) -> frozenset[str]:
        """Return the cards ``seat`` could lay to set the aimed seat's trap (aimed practice).

        Empty unless the game aims (option ``aim_pairs``) and ``seat`` plays just before the
        aimed seat; the heuristic bot prefers these cards (games/engine/aim.py).
        """
        self._check_seat(seat)
        return trap_cards(self, seat)

    def _check_seat(self, seat: object) -> None:
        """Raise ``bad_seat`` unless ``seat`` is one of the game's seats."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("bad_seat", {"seat": seat})

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` by ``seat`` and return the events; on IllegalAction nothing changes.

        The one exception: in fractions with ``wrong_attempt_penalty``, a wrong fraction
        returns a ``wrong_attempt`` event and the penalty draw instead of raising.
        Any applied action but such a wrong attempt forgets the turn's refused cards.
        """
        # _check_seat written out: every action passes here (docs/performance.md).
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("bad_seat", {"seat": seat})
        # _action_kind's checks written out for a well-formed action; any other goes
        # through _action_kind, which raises the error that names what is wrong.
        kind: Any = action.get("type") if type(action) is dict else None
        keys = _ACTION_KEYS.get(kind) if type(kind) is str else None
        if keys is None or not keys.issuperset(action):
            kind = _action_kind(action)
        if self.over:
            raise IllegalAction("game_over")
        if kind == "next_round":
            events = self._next_round()
        elif self.round_over:
            raise IllegalAction("round_over")
        elif self.out[seat]:
            raise IllegalAction("not_your_turn")
        elif kind == "play":
            events = self._play(seat, action)
        elif kind == "catch":
            events = self._catch(seat, action.get("target"))
        else:
            events = _SEAT_ACTIONS[kind](self, seat)
        if self.refused and not (events and events[0]["type"] == "wrong_attempt"):
            self.refused = {}
        return events

    def _next_round(self) -> list[Event]:
        """Deal the next round once this one is over."""
        if not self.round_over:
            raise _bad_action("la manche n’est pas finie", "the round is not over")
        self.round += 1
        return self._start_round(None)

    def _must_answer(self, seat: int) -> IllegalAction:
        """Return the error for a turn action while a reply is awaited."""
        aw = self.awaiting
        if aw is not None and aw["seat"] == seat:
            answers = {
                "challenge": ("contester ou accepter", "challenge or accept"),
                "stack": ("cumuler ou accepter", "stack or accept"),
                "penalty": ("accepter", "accept"),
                "quickos": ("accepter", "accept"),
            }[aw["kind"]]
            return IllegalAction("must_answer", answers=answers)
        return IllegalAction("not_your_turn")

    def _play(self, seat: int, a: Action) -> list[Event]:
        """Check a play completely, then lay the card and apply its effect."""
        card = a.get("card")
        cards = cards_for(self.ruleset, self.opts)
        if type(card) is not str or card not in cards:
            raise IllegalAction("unknown_card", {"card": card})
        kind, card_colour, sym = cards[card]
        hand = self.hands[seat]
        if self.awaiting is None and self.turn == seat and self.drawn is None and card in hand:
            stack = jump = False  # the everyday play: _play_slot's first case, without a call
        else:
            stack, jump = self._play_slot(seat, card, kind, hand)
        # Parameters (a bare {"type", "card"} has none).
        params = _BARE_PARAMS[kind]
        if len(a) > 2 or kind == "fq" or sym == "7":
            params = self._parameters(seat, a, kind, sym, hand)
        rule: str | None = None
        if not stack and not jump:
            if kind == "frac":
                self._check_not_refused(card, params.claim)
                try:
                    rule = self._judge_fraction(card, params.claim)
                except IllegalAction as err:
                    return self._wrong_attempt(seat, card, err)
            elif card not in MATCHING[self.colour, SYMBOL[self.discard[-1]]]:
                self._check_match(card)  # the everyday case (same colour or symbol) fits
        # Only a +4 and a last fraction card have a laying rule.
        bluff = (kind == "+4" or self.ruleset == "fractions") and self._check_laying(
            card, kind, hand
        )

        # Every check passed: change the state.
        called = self.uno_flag == seat
        before = (self.colour, self.ref, self.den)
        events = [self._lay(seat, card, kind, card_colour, params, rule, jump)]
        total = self._take_awaited(stack) if self.awaiting is not None else 0
        self._pass_turn(seat, sym, params, total, (bluff, before), events)
        if len(self.hands[seat]) == 1 and not called:  # after a swap: the hand now held
            self.uno_win = seat
        return events

    def _pass_turn(
        self,
        seat: int,
        sym: str,
        params: _Params,
        total: int,
        plus4: tuple[bool, tuple[Any, ...]],
        events: list[Event],
    ) -> None:
        """Give the turn on after a play, make a seat answer the card's effect, or end the
        round when it was the seat's last card."""
        effect = params.effect
        if not self.hands[seat]:
            events += self._last_card_played(seat, effect, total)
        elif (effect == "n" and sym != "7" and sym != "0") or effect == "frac" or effect == "wild":
            # The common case, kept short.
            if self.n_active == self.n:
                self.turn = (seat + self.direction) % self.n
            else:
                self.turn = self._nxt(seat)
        elif effect == "+4" and self.opts.get("plus4_challenge"):
            self._await_challenge(seat, total, *plus4, events)
        else:
            self._effect(seat, effect, sym, total, params.target, events)

    def _play_slot(self, seat: int, card: str, kind: str, hand: list[str]) -> tuple[bool, bool]:
        """Return (stack, jump_in) for a play, or raise why ``seat`` may not lay ``card`` now."""
        if self.awaiting is None and self.turn == seat:
            if card not in hand:
                raise IllegalAction("card_not_in_hand", {"card": card}, card=card)
            if self.drawn is not None and card != self.drawn:
                raise IllegalAction("must_play_drawn", {"card": card, "drawn": self.drawn})
            return False, False
        stack, jump = self._out_of_turn_mode(seat, card, kind)
        if card not in hand:
            raise IllegalAction("card_not_in_hand", {"card": card}, card=card)
        return stack, jump

    def _check_match(self, card: str) -> None:
        """Raise ``no_match`` unless a card other than a fraction fits the top card."""
        fits = card in MATCHING[self.colour, SYMBOL[self.discard[-1]]] or (
            self._fits(card) if self.ruleset == "fractions" else self._matches(card)
        )
        if not fits:
            top = self.discard[-1]
            raise IllegalAction("no_match", {"card": card, "top": top}, card=card, top=top)

    def _check_laying(self, card: str, kind: str, hand: list[str]) -> bool:
        """Raise if a +4 or a last fraction card may not be laid; return whether a +4 bluffs."""
        bluff = False
        if kind == "+4":
            bluff = self._is_bluff(hand)
            if bluff and not self.opts.get("plus4_bluffing", True):
                raise IllegalAction("plus4_not_allowed", {"card": card})
        if self.ruleset == "fractions" and len(hand) == 1:
            finish_error = self._finish_error(card, hand)
            if finish_error is not None:
                raise finish_error
        return bluff

    def _lay(
        self,
        seat: int,
        card: str,
        kind: str,
        card_colour: str | None,
        params: _Params,
        rule: str | None,
        jump: bool,
    ) -> Event:
        """Lay ``card`` from the hand on the pile, set colour and fraction; return the event."""
        self.uno_flag = self.uno_win = -1
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.last_player = seat
        self.drawn = None
        self.dead_passes = 0
        played: Event = {"type": "played", "seat": seat, "card": card}
        fractions = self.ruleset == "fractions"
        if card_colour is not None:
            self.colour = card_colour
        elif not fractions:  # in fractions a Joker or +4 keeps the last coloured card's colour
            if params.colour is not None:
                self.colour = params.colour
            played["colour"] = self.colour
        if fractions:
            if kind == "frac":
                self.ref, self.den = FRACTION[card], DEN[card]
                played["rule"] = rule
                if params.claim is not None:
                    played["claim"] = params.claim
            elif params.named is not None and kind != "rev":
                self.ref, self.den = None, params.named
                played["denominator"] = params.named
        if kind == "fq":
            played["function"] = params.effect
        if jump:
            played["jump_in"] = True
        return played

    def _take_awaited(self, stack: bool) -> int:
        """Clear what was awaited; return the total a stack takes over (a jump-in voids it)."""
        aw = self.awaiting
        if aw is None:
            return 0
        self.awaiting = None
        return int(aw["total"]) if stack else 0

    def _last_card_played(self, seat: int, effect: str, total: int) -> list[Event]:
        """End the round of a seat that laid its last card (its +2/+4 still draws first)."""
        self.turn = -1
        events: list[Event] = []
        if effect == "+2" or effect == "+4":
            total += 2 if effect == "+2" else self._plus4_draws()
            reason = "plus2" if effect == "+2" else "plus4"
            events += self._draw(self._nxt(seat), total, reason)
        return events + self._end_round(seat)

    def _await_challenge(
        self,
        seat: int,
        total: int,
        bluff: bool,
        before: tuple[Any, ...],
        events: list[Event],
    ) -> None:
        """Make the next seat answer a challengeable +4 (the state before it kept for a bluff)."""
        victim = self._nxt(seat)
        total += self._plus4_draws()
        fractions = self.ruleset == "fractions"
        self.awaiting = {
            "seat": victim,
            "kind": "challenge",
            "total": total,
            "by": seat,
            "bluff": bluff,
            "prev_colour": before[0],
            "prev_reference": before[1] if fractions else None,
            "prev_denominator": before[2] if fractions else 0,
        }
        self.turn = -1
        events.append({"type": "awaiting", "seat": victim, "kind": "challenge", "total": total})

    def _out_of_turn_mode(self, seat: int, card: str, kind: str) -> tuple[bool, bool]:
        """Return (stack, jump_in) for a play off one's turn, or raise why it is refused."""
        aw, opts = self.awaiting, self.opts
        top = self.discard[-1]
        if (
            aw is not None
            and aw["seat"] == seat
            and opts.get("stacking")
            and aw["kind"] != "quickos"
            and kind == KIND[top]
        ):
            return True, False
        # Jumping in on a card one laid oneself is not "out of turn": it would let a player
        # chain identical cards (a +4 on their own challengeable +4, for ever).
        if opts.get("jump_in") and card == top and seat != self.turn and seat != self.last_player:
            return False, True
        if aw is not None and aw["seat"] == seat:
            raise self._must_answer(seat)
        raise IllegalAction("not_your_turn")

    def _parameters(self, seat: int, a: Action, kind: str, sym: str, hand: list[str]) -> _Params:
        """Check a play's colour, denominator, claim, target and function."""
        opts = self.opts
        colour, named, claim = _named_parameters(a, deck_denominators(self.ruleset, opts))
        effect = kind
        if kind == "fq":
            effect = a.get("function")  # type: ignore[assignment]
            allowed = opts["family_quick_functions"]
            if type(effect) is not str or effect not in allowed:
                raise IllegalAction("bad_function", functions=", ".join(allowed))
        elif a.get("function") is not None:
            # Checked even where nothing reads it: a stored action holds only values that mean
            # something, never whatever a client put in a field the card ignores.
            raise _bad_action(
                "« function » sert aux cartes Family Quick", "'function' is for Family Quick cards"
            )
        target = a.get("target")
        if target is not None and (type(target) is not int or not 0 <= target < self.n):
            raise IllegalAction("bad_target", {"target": target if type(target) is int else None})
        needs_target = len(hand) > 1 and (
            effect == "swap" or (kind == "n" and sym == "7" and opts.get("seven_o"))
        )
        if needs_target and not self._may_target(seat, target):
            raise IllegalAction("bad_target", {"target": target})
        return _Params(colour, named, claim, target, effect)

    def _may_target(self, seat: int, target: object) -> bool:
        """Return whether ``seat`` may name ``target`` (another seat still in the round)."""
        return (
            type(target) is int and 0 <= target < self.n and target != seat and not self.out[target]
        )

    def _plus4_draws(self) -> int:
        """Return the cards a +4 gives in this ruleset."""
        return int(self.opts["fractions_plus4_draws"]) if self.ruleset == "fractions" else 4

    def _effect(
        self, seat: int, effect: str, sym: str, total: int, target: Any, events: list[Event]
    ) -> None:
        """Apply a played card's effect and set whose turn it is (or who must answer)."""
        opts = self.opts
        if effect == "n":
            if opts.get("seven_o"):
                if sym == "7":
                    self._swap(seat, target, events)
                elif sym == "0":
                    self._rotate(events)
            self.turn = self._nxt(seat)
        elif effect == "rev":
            if self.n_active == 2:
                events.append({"type": "skipped", "seat": self._nxt(seat)})
                self.turn = seat  # two players: a reverse means "play again"
            else:
                self.direction = -self.direction
                events.append({"type": "reversed", "direction": self.direction})
                self.turn = self._nxt(seat)
        elif effect == "stop":
            events.append({"type": "skipped", "seat": self._nxt(seat)})
            self.turn = self._nxt(seat, 2)
        elif effect == "swap":
            self._swap(seat, target, events)
            self.turn = self._nxt(seat)
        else:  # +2, or a +4 that is not challengeable
            victim = self._nxt(seat)
            total += 2 if effect == "+2" else self._plus4_draws()
            if effect == "+4" and self.ruleset == "family_quick":
                kind = "quickos"
            elif opts.get("stacking"):
                kind = "stack"
            elif opts.get("jump_in"):
                kind = "penalty"
            else:
                events += self._draw(victim, total, "plus2" if effect == "+2" else "plus4")
                events.append({"type": "skipped", "seat": victim})
                self.turn = self._nxt(victim)
                return
            self.awaiting = {"seat": victim, "kind": kind, "total": total, "by": seat}
            self.turn = -1
            events.append({"type": "awaiting", "seat": victim, "kind": kind, "total": total})

    def _swap(self, seat: int, target: int, events: list[Event]) -> None:
        """Swap two hands (a 7 in 7-0, a Family Quick swap)."""
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        events.append({"type": "swapped", "seat": seat, "target": target})

    def _rotate(self, events: list[Event]) -> None:
        """Pass every hand on to the next player in the current direction (7-0's zero)."""
        active = [s for s in range(self.n) if not self.out[s]]
        old = {s: self.hands[s] for s in active}
        for s in active:
            self.hands[self._nxt(s)] = old[s]
        events.append({"type": "rotated", "direction": self.direction})

    # ------------------------------------------------------------------ refused cards

    def _check_not_refused(self, card: str, claim: str | None) -> None:
        """Raise ``already_refused`` when every rule ``claim`` asks for was refused to ``card``.

        The diagnosis needs one judgement per card, claim and turn: the same try again says
        nothing new (a script retried one card 1,471 times, issue 30 §1.8). A new claim (the
        other rule chosen) is judged: it may be right, and it is the child's own new reason.
        Without a claim both rules are asked for.
        """
        ruled_out = self.refused.get(card)
        if ruled_out is not None and _RULES_OF_CLAIM[claim] <= set(ruled_out):
            raise IllegalAction(
                "already_refused",
                {"card": card, "claim": claim, "rules": list(ruled_out)},
                card=card,
            )

    def note_refusal(self, seat: int, err: IllegalAction) -> bool:
        """Keep a judged fraction refusal of the turn seat (``apply`` raised ``err``).

        For the caller that stores the refusals of a table without a wrong-attempt penalty
        (nothing else of the game changes then); return whether ``err`` was one to keep.
        """
        details = err.details
        card = details.get("card")
        if (
            self.ruleset != "fractions"
            or seat != self.turn
            or err.code not in _JUDGED_FRACTION_CODES
            or not isinstance(card, str)
            or KIND.get(card) != "frac"
        ):
            return False
        self._keep_refusal(card, details.get("claim"))
        return True

    def _keep_refusal(self, card: str, claim: object) -> None:
        """Add the rules a refused claim ruled out to the card's refused rules."""
        rules = _RULES_OF_CLAIM.get(claim if isinstance(claim, str) else None, frozenset())
        self.refused[card] = sorted(set(self.refused.get(card, ())) | rules)

    def keep_refused(self, seat: int, cards: object) -> None:
        """Add refusals the caller kept (``note_refusal``) for ``seat``, if it is the turn seat.

        ``cards`` is {card: rules}, as ``refused_cards`` gives it; entries that are not a
        fraction card of the deck with known rules are ignored (stored data, never trusted).
        """
        if seat != self.turn or not isinstance(cards, dict):
            return
        deck = cards_for(self.ruleset, self.opts)
        for card, rules in cards.items():
            if card in deck and KIND[card] == "frac" and isinstance(rules, list):
                known = {r for r in rules if r in _RULES_OF_CLAIM[None]}
                if known:
                    self.refused[card] = sorted(set(self.refused.get(card, ())) | known)

    def refused_cards(self, seat: int | None) -> dict[str, list[str]]:
        """Return the cards refused to ``seat`` this turn with the rules ruled out ({} if none).

        Only the turn seat has any, and only it is told: another seat would learn its cards.
        """
        if seat is None or seat != self.turn or not self.refused:
            return {}
        return {card: list(rules) for card, rules in self.refused.items()}

    def _wrong_attempt(self, seat: int, card: str, err: IllegalAction) -> list[Event]:
        """Apply the fractions wrong-attempt penalty (the card stays, the turn stays), or
        raise ``err`` when the game has no such penalty."""
        n = self.opts["wrong_attempt_penalty"]
        if not n:
            raise err
        self._keep_refusal(card, err.details.get("claim"))
        self.uno_flag = self.uno_win = -1
        events: list[Event] = [
            {
                "type": "wrong_attempt",
                "seat": seat,
                "card": card,
                "code": err.code,
                "details": err.details,
                "messages": err.messages,
            }
        ]
        events += self._draw(seat, n, "wrong_attempt")
        return events

    def _draw_action(self, seat: int) -> list[Event]:
        """Draw one card; keep the turn if it may be played, else pass."""
        if self.awaiting is not None or self.turn != seat:
            raise self._must_answer(seat)
        if self.drawn is not None:
            raise IllegalAction("already_drew")
        self.uno_flag = self.uno_win = -1
        events = self._draw(seat, 1, "draw")
        got = events[-1]["cards"]
        hand = self.hands[seat]
        # Fractions keep the drawn card pending even when it does not fit: no hint is given.
        if got and (self.ruleset == "fractions" or self._playable(got[0], hand)):
            self.drawn = got[0]
            return events
        events.append({"type": "passed", "seat": seat})
        self.turn = self._nxt(seat)
        if not got:
            # Nothing to draw and nothing to reshuffle: once every seat still in the round has
            # passed like this in a row, no card can move again unless someone plays, and
            # nobody did: the round is blocked (docs/engine.md "Blocked round").
            self.dead_passes += 1
            if self.dead_passes >= self.n_active:
                events += self._end_blocked_round(seat)
        return events

    def _pass(self, seat: int) -> list[Event]:
        """Keep the card just drawn and end the turn."""
        if self.awaiting is not None or self.turn != seat:
            raise self._must_answer(seat)
        if self.drawn is None:
            raise _bad_action(
                "on ne passe qu’après avoir pioché", "you may only pass after drawing"
            )
        self.uno_flag = self.uno_win = -1
        self.drawn = None
        self.turn = self._nxt(seat)
        return [{"type": "passed", "seat": seat}]

    def _uno(self, seat: int) -> list[Event]:
        """Call UNO: before playing with two cards, or in the window after playing."""
        if self.uno_win == seat:
            self.uno_win = -1
        else:
            aw = self.awaiting
            on_turn = (aw is None and self.turn == seat) or self._may_stack(seat)
            if not on_turn or len(self.hands[seat]) != 2 or self.uno_flag == seat:
                raise _bad_action(
                    "UNO se dit avec deux cartes à son tour, ou une carte juste après avoir joué",
                    "call UNO holding two cards on your turn, or one card just after playing",
                )
            self.uno_flag = seat
        return [{"type": "uno", "seat": seat}]

    def _catch(self, seat: int, target: object) -> list[Event]:
        """Catch a player holding one uncalled card: they draw the UNO penalty."""
        if self.uno_win < 0 or target != self.uno_win or seat == target:
            raise _bad_action(
                "personne n’est à prendre sans UNO", "nobody can be caught without UNO"
            )
        caught = self.uno_win  # equal to target (checked above), and typed as a seat
        self.uno_win = -1
        penalty = int(self.opts["uno_penalty"])
        events: list[Event] = [{"type": "caught", "seat": seat, "target": caught, "count": penalty}]
        events += self._draw(caught, penalty, "uno")
        return events

    def _challenge(self, seat: int) -> list[Event]:
        """Challenge the pending +4: the bluffer or the challenger pays."""
        aw = self.awaiting
        if aw is None or aw["seat"] != seat or aw["kind"] != "challenge":
            raise _bad_action("aucun +4 à contester", "there is no +4 to challenge")
        self.awaiting = None
        self.uno_flag = self.uno_win = -1
        bluffer = aw["by"]
        events: list[Event] = [
            {
                "type": "challenged",
                "seat": seat,
                "target": bluffer,
                "bluff": aw["bluff"],
                "cards": list(self.hands[bluffer]),  # the challenger sees the hand checked
                "visible_to": [seat],
            }
        ]
        if aw["bluff"]:
            self.hands[bluffer].append(self.discard.pop())
            self.last_player = -1  # who laid the card below is not kept
            self.colour, self.ref, self.den = (
                aw["prev_colour"],
                aw["prev_reference"],
                aw["prev_denominator"],
            )
            count = 1 if self.ruleset == "fractions" else aw["total"]
            events += self._draw(bluffer, count, "challenge")
            self.turn = seat  # the challenger plays on the card below
        else:
            count = aw["total"] + (1 if self.ruleset == "fractions" else 2)
            events += self._draw(seat, count, "challenge")
            events.append({"type": "skipped", "seat": seat})
            self.turn = self._nxt(seat)
        return events

    def _accept(self, seat: int) -> list[Event]:
        """Take the pending +2/+4 (or stacked total) and lose the turn."""
        aw = self.awaiting
        if aw is None or aw["seat"] != seat:
            raise _bad_action("rien à accepter", "there is nothing to accept")
        self.awaiting = None
        self.uno_flag = self.uno_win = -1
        reason = "plus4" if KIND[self.discard[-1]] == "+4" else "plus2"
        events: list[Event] = [{"type": "accepted", "seat": seat, "count": aw["total"]}]
        events += self._draw(seat, aw["total"], reason)
        events.append({"type": "skipped", "seat": seat})
        self.turn = self._nxt(seat)
        return events

    def _quickos(self, seat: int) -> list[Event]:
        """Turn a pending +4 back on its player with Quickos (Family Quick)."""
        aw = self.awaiting
        hand = self.hands[seat]
        if aw is None or aw["kind"] != "quickos" or seat == aw["by"] or "quickos" not in hand:
            raise _bad_action(
                "Quickos se joue, par qui le tient, juste après le +4 d’un autre",
                "Quickos is played by its holder right after someone else's +4",
            )
        self.awaiting = None
        self.uno_flag = self.uno_win = -1
        hand.remove("quickos")
        self.discard.append("quickos")
        self.last_player = seat
        self.dead_passes = 0
        events: list[Event] = [{"type": "quickos", "seat": seat, "target": aw["by"]}]
        events += self._draw(aw["by"], aw["total"], "quickos")
        if not hand:
            self.turn = -1
            events += self._end_round(seat)
            return events
        self.turn = aw["seat"]  # the +4's victim plays next, in the colour named with the +4
        if len(hand) == 1:
            self.uno_win = seat
        return events


# The actions that take nothing but the seat (a play and a catch take more).
_SEAT_ACTIONS: dict[str, Callable[[Game, int], list[Event]]] = {
    "draw": Game._draw_action,
    "pass": Game._pass,
    "uno": Game._uno,
    "challenge": Game._challenge,
    "accept": Game._accept,
    "quickos": Game._quickos,
}
