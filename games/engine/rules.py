"""Matching and legality: which card may go on the pile, and why a fraction may not."""

from __future__ import annotations

from typing import Any

from .cards import COLOUR, COLOURED_CARDS, DEN, FRACTION, KIND, MATCHING, NUM, SYMBOL
from .errors import IllegalAction
from .state import State

_FR_RULE = {"equal": "égalité", "denominator": "même dénominateur"}
_EN_RULE = {"equal": "equal fractions", "denominator": "same denominator"}


class Rules(State):
    """Answer rule questions about the current state without changing it."""

    __slots__ = ()

    def _nxt(self, seat: int, steps: int = 1) -> int:
        """Return the seat ``steps`` places on in the current direction (skipping the out)."""
        if self.n_active == self.n:
            return (seat + self.direction * steps) % self.n
        d, n, out = self.direction, self.n, self.out
        for _ in range(steps):
            seat = (seat + d) % n
            while out[seat]:
                seat = (seat + d) % n
        return seat

    def _matches(self, card: str) -> bool:
        """Tell whether a card fits the pile by colour or symbol (classic, Family Quick).

        +4 legality (bluffs) and finishing rules are checked apart.
        """
        colour = self.colour
        if card in MATCHING[colour, SYMBOL[self.discard[-1]]]:
            return True
        kind = KIND[card]
        if kind == "wild" or kind == "+4":
            return True
        # A Family Quick card goes on its own colour only; Quickos is only played against a
        # +4, with the "quickos" action.
        return kind == "fq" and (colour is None or COLOUR[card] == colour)

    def _fraction_fits(self, card: str) -> bool:
        """Tell whether a fraction card fits by either rule (fractions)."""
        den = self.den
        if den and DEN[card] == den:
            return True
        ref = self.ref
        if ref is None:
            return den == 0
        rn, rd = _REF[ref]
        return NUM[card] * rd == rn * DEN[card]

    def _fits(self, card: str) -> bool:
        """Tell whether a card fits the pile in any ruleset (not counting +4 and finishing)."""
        if self.ruleset != "fractions":
            return self._matches(card)
        kind = KIND[card]
        if kind == "frac":
            return self._fraction_fits(card)
        if kind == "+2" or kind == "rev":
            return COLOUR[card] == self.colour or SYMBOL[card] == SYMBOL[self.discard[-1]]
        return True

    def _is_bluff(self, hand: list[str]) -> bool:
        """Tell whether playing a +4 from ``hand`` breaks the +4 rule of the ruleset.

        Classic: the hand holds a card of the current colour. Fractions: another card of the
        hand (a Joker included) could be played. Family Quick: never.
        """
        if self.ruleset == "classic":
            colour = self.colour
            if colour is None:
                return False
            return not COLOURED_CARDS[colour].isdisjoint(hand)
        if self.ruleset == "fractions":
            return any(KIND[c] != "+4" and self._fits(c) for c in hand)
        return False

    def _finish_error(self, card: str, hand: list[str]) -> IllegalAction | None:
        """Return the error for a last card that may not end the round (fractions), else None."""
        if len(hand) != 1 or self.ruleset != "fractions":
            return None
        kind = KIND[card]
        if kind == "wild":
            return IllegalAction("cannot_finish_on_joker", {"card": card})
        if kind == "+4" and self.opts["no_finish_on_plus4"]:
            return IllegalAction("cannot_finish_on_plus4", {"card": card})
        return None

    def _judge_fraction(self, card: str, claim: str | None) -> str:
        """Return the rule a fraction card is accepted by, or raise why it is not.

        The claim is judged: a student claiming "equal" for 10/12 on 4/12 is wrong about
        equivalence even though the denominator matches; the error says so in
        ``details["other_rule_ok"]``. Without a claim either rule is enough.
        Returns "equal", "denominator", "both" or "free" (no reference yet).
        """
        ref, den = self.ref, self.den
        if ref is None and den == 0:
            return "free"
        played = FRACTION[card]
        num, d = NUM[card], DEN[card]
        eq = False
        if ref is not None:
            rn, rd = _REF[ref]
            eq = num * rd == rn * d
        dn = den != 0 and d == den
        if claim == "equal" and eq:
            return "equal"
        if claim == "denominator" and dn:
            return "denominator"
        if claim is None and (eq or dn):
            return "both" if eq and dn else ("equal" if eq else "denominator")
        if claim == "equal":
            code, rule, other = "not_equivalent", "equal", dn
        elif claim == "denominator":
            code, rule, other = "wrong_denominator", "denominator", eq
        elif ref is None:
            code, rule, other = "wrong_denominator", "denominator", False
        else:
            code, rule, other = "no_match", "equal_or_denominator", False
        details: dict[str, Any] = {
            "reference": ref,
            "denominator": den or None,
            "played": played,
            "card": card,
            "claim": claim,
            "rule": rule,
            "other_rule_ok": other,
            # The card the child sees on the pile: a +2, Joker, +4 or Inversion hides what the
            # refusal is about (the messages then say it).
            "top": self.discard[-1],
        }
        raise IllegalAction(code, details, messages=_fraction_messages(details))


# Reference fractions ("1/3") -> (numerator, denominator).
_REF: dict[str, tuple[int, int]] = {f: (NUM[c], DEN[c]) for c, f in FRACTION.items()}


# A special card on the pile, as a sentence starts with it ("Le Joker demande...").
_TOP_FR = {"wild": "le Joker", "+4": "le +4", "+2": "le +2", "rev": "l’Inversion"}
_TOP_EN = {"wild": "the Joker", "+4": "the +4", "+2": "the +2", "rev": "the Reverse"}


def _fraction_messages(d: dict[str, Any]) -> dict[str, str]:
    """Explain a refused fraction in French and English.

    Under a special card the child does not see the fraction the play is judged against: the
    message says first what the pile asks for (the fraction kept, or the denominator named).
    """
    played, ref, den, rule = d["played"], d["reference"], d["denominator"], d["rule"]
    top_kind = KIND.get(str(d.get("top")), "frac")
    if top_kind in _TOP_FR and rule == "denominator" and ref is None:
        top_fr, top_en = _TOP_FR[top_kind], _TOP_EN[top_kind]
        if top_kind == "rev":  # an Inversion names nothing: it keeps what was asked before it
            fr = f"Le dénominateur demandé est toujours {den}\u202f: {played} ne l’a pas."
            en = f"The denominator asked for is still {den}: {played} does not have it."
        else:
            fr = f"{_upper_first(top_fr)} demande le dénominateur {den}\u202f: {played} ne l’a pas."
            en = (
                f"{_upper_first(top_en)} asks for the denominator {den}: {played} does not have it."
            )
        return {"fr": fr, "en": en}
    messages = _plain_fraction_messages(played, ref, den, rule, d["other_rule_ok"])
    if top_kind in _TOP_FR and ref is not None:
        top_fr, top_en = _TOP_FR[top_kind], _TOP_EN[top_kind]
        messages = {
            "fr": f"Sous {top_fr}, la fraction à suivre est {ref}. {messages['fr']}",
            "en": f"Under {top_en}, the fraction to follow is {ref}. {messages['en']}",
        }
    return messages


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plain_fraction_messages(
    played: str, ref: str | None, den: int | None, rule: str, other_rule_ok: bool
) -> dict[str, str]:
    """Explain a refused fraction in French and English, the pile's facts named."""
    if rule == "equal":
        if ref is None:
            fr = f"Il n’y a pas de fraction de référence : le dénominateur demandé est {den}."
            en = f"There is no reference fraction: the denominator asked for is {den}."
        else:
            fr = f"{played} n’est pas égale à {ref}."
            en = f"{played} is not equal to {ref}."
        if other_rule_ok:
            fr += f" Elle a bien le dénominateur {den} : annonce « {_FR_RULE['denominator']} »."
            en += f" It does have the denominator {den}: claim '{_EN_RULE['denominator']}'."
    elif rule == "denominator":
        fr = f"{played} n’a pas le dénominateur {den}."
        en = f"{played} does not have the denominator {den}."
        if other_rule_ok:
            fr += f" Elle est bien égale à {ref} : annonce « {_FR_RULE['equal']} »."
            en += f" It is equal to {ref}: claim '{_EN_RULE['equal']}'."
    else:
        fr = f"{played} n’est pas égale à {ref} et n’a pas le dénominateur {den}."
        en = f"{played} is neither equal to {ref} nor has the denominator {den}."
    return {"fr": fr, "en": en}
