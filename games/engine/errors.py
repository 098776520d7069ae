"""The engine's one exception, with stable codes and French and English messages."""

from __future__ import annotations

from typing import Any

from .cards import KIND, card_name

# code -> (French, English). Placeholders {card} and {top} take a card code and are spoken in
# each language; other placeholders are plain values, or (fr, en) pairs.
MESSAGES: dict[str, tuple[str, str]] = {
    "not_your_turn": ("Ce n’est pas ton tour.", "It is not your turn."),
    "card_not_in_hand": ("Tu n’as pas la carte {card}.", "You do not hold {card}."),
    "unknown_card": ("Cette carte n’existe pas dans ce jeu.", "That card is not in this deck."),
    "no_match": ("{card} ne va pas sur {top}.", "{card} does not go on {top}."),
    "not_equivalent": (
        "{played} n’est pas égale à {reference}.",
        "{played} is not equal to {reference}.",
    ),
    "wrong_denominator": (
        "{played} n’a pas le dénominateur {denominator}.",
        "{played} does not have the denominator {denominator}.",
    ),
    "already_refused": (
        "Tu as déjà essayé {card} à ce tour\u202f: choisis une autre carte ou une autre règle,"
        " ou pioche.",
        "You already tried {card} this turn: choose another card or another rule, or draw.",
    ),
    "plus4_not_allowed": (
        "Le +4 ne se joue que si tu n’as pas d’autre solution.",
        "The +4 may only be played when you have no other choice.",
    ),
    "cannot_finish_on_joker": (
        "On ne peut pas finir la partie sur un Joker.",
        "You cannot finish on a Joker.",
    ),
    "cannot_finish_on_plus4": (
        "On ne peut pas finir la partie sur un +4.",
        "You cannot finish on a +4.",
    ),
    "must_play_drawn": (
        "Après avoir pioché, seule la carte piochée peut être jouée (ou passe).",
        "After drawing, only the drawn card may be played (or pass).",
    ),
    "already_drew": (
        "Tu as déjà pioché : joue la carte ou passe.",
        "You already drew: play or pass.",
    ),
    "must_answer": (
        "Réponds d’abord : {answers}.",
        "Answer first: {answers}.",
    ),
    "bad_colour": (
        "Couleur inconnue : choisis r, j, v ou b.",
        "Unknown colour: choose r, j, v or b.",
    ),
    "bad_denominator": (
        "Dénominateur impossible : choisis {denominators} (pour +2, Joker ou +4).",
        "Impossible denominator: choose {denominators} (for +2, Joker or +4).",
    ),
    "bad_target": (
        "Choisis un autre joueur encore en jeu.",
        "Choose another player still in play.",
    ),
    "bad_function": (
        "Choisis une fonction permise pour cette carte : {functions}.",
        "Choose an allowed function for this card: {functions}.",
    ),
    "bad_action": ("Action impossible : {why}.", "Action not allowed: {why}."),
    "bad_option": ("Option invalide : {why}.", "Invalid option: {why}."),
    "bad_setup": ("Préparation invalide : {why}.", "Invalid setup: {why}."),
    "bad_state": ("État de partie illisible : {why}.", "Unreadable game state: {why}."),
    "bad_seat": ("Ce siège n’existe pas.", "There is no such seat."),
    "round_over": (
        "La manche est finie : lance la suivante.",
        "The round is over: start the next one.",
    ),
    "game_over": ("La partie est finie.", "The game is over."),
}


def _render(template: str, lang: int, args: dict[str, Any]) -> str:
    values: dict[str, str] = {}
    for key, value in args.items():
        if key in ("card", "top") and isinstance(value, str) and value in KIND:
            values[key] = card_name(value, ("fr", "en")[lang])
        elif isinstance(value, tuple):
            values[key] = str(value[lang])
        else:
            values[key] = str(value)
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template


class IllegalAction(ValueError):
    """Raised for any refused action, option or setup; the game is left unchanged.

    ``code`` is stable; ``messages`` holds {"fr": ..., "en": ...}; ``message`` is the French one;
    ``details`` carries data for the caller (fractions: reference, played, rule, ...).
    """

    def __init__(
        self,
        code: str,
        details: dict[str, Any] | None = None,
        *,
        messages: dict[str, str] | None = None,
        **args: Any,
    ) -> None:
        self.code = code
        self.details: dict[str, Any] = details if details is not None else {}
        if messages is None:
            fr, en = MESSAGES.get(code, ("Action impossible.", "Action not allowed."))
            messages = {"fr": _render(fr, 0, args), "en": _render(en, 1, args)}
        self.messages = messages
        self.message = messages["fr"]
        super().__init__(f"{code}: {messages['en']}")

    def message_for(self, lang: str) -> str:
        """Return the message in "fr" or "en" (French when the language is unknown)."""
        return self.messages.get(lang, self.message)
