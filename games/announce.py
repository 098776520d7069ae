"""Turn engine events into short sentences for the log and the screen reader (fr / en).

Cards are named with the engine's `card_name`, the spoken form of the UNO Braille markings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext

from games.engine import card_name, events_for
from games.engine.cards import COLOUR_NAMES

Names = dict[int, str]


def visible_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return the event as this seat may see it (no other player's drawn cards)."""
    return events_for([event], seat)[0]


def announce(event: dict[str, Any], lang: str, names: Names, seat: int | None) -> str:
    """Say what happened, in `lang`; an unknown event says nothing."""
    speaker = _SPEAKERS.get(str(event.get("type")))
    if speaker is None:
        return ""
    with translation.override(lang):
        return speaker(event, lang, lambda s: _name(names, s), seat)


def _name(names: Names, seat: Any) -> str:
    if isinstance(seat, list):
        return " & ".join(_name(names, s) for s in seat)
    return names.get(seat, _("Seat %(seat)s") % {"seat": seat})


def _card(code: Any, lang: str) -> str:
    try:
        return card_name(str(code), lang)
    except ValueError:
        return str(code)


def _colour(letter: Any, lang: str) -> str:
    return COLOUR_NAMES[lang].get(str(letter), str(letter))


Who = Callable[[Any], str]


def _played(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    text = _("%(player)s plays %(card)s.") % {
        "player": who(e["seat"]),
        "card": _card(e["card"], lang),
    }
    if e.get("colour"):
        text += " " + _("Colour: %(colour)s.") % {"colour": _colour(e["colour"], lang)}
    if e.get("denominator"):
        text += " " + _("Denominator: %(d)s.") % {"d": e["denominator"]}
    if e.get("function"):
        text += " " + _("Function: %(f)s.") % {"f": _function(e["function"])}
    return text


def _function(name: str) -> str:
    return {
        "rev": _("reverse"),
        "stop": _("skip"),
        "+2": _("draw two"),
        "swap": _("swap hands"),
    }.get(name, name)


def _drew(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    count = int(e.get("count", 0))
    text = ngettext(
        "%(player)s draws %(count)d card.", "%(player)s draws %(count)d cards.", count
    ) % {"player": who(e["seat"]), "count": count}
    if e.get("cards"):
        text += " " + _("You get: %(cards)s.") % {
            "cards": ", ".join(_card(c, lang) for c in e["cards"])
        }
    return text


def _simple(message: str) -> Callable[[dict[str, Any], str, Who, int | None], str]:
    def speak(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
        values = {
            "player": who(e.get("seat")),
            "target": who(e.get("target")),
            "card": _card(e.get("card"), lang) if e.get("card") else "",
            "count": e.get("count", e.get("total", "")),
            "winner": who(e.get("winner")),
            "round": e.get("round", ""),
            "seats": who(e.get("seats", [])),
        }
        return _(message) % values

    return speak


def _challenged(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    values = {"player": who(e["seat"]), "target": who(e["target"])}
    if e.get("bluff"):
        return _("%(player)s challenges the +4: %(target)s was bluffing!") % values
    return _("%(player)s challenges the +4: %(target)s was not bluffing.") % values


def _start(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    return _("The first card is %(card)s.") % {"card": _card(e["card"], lang)}


def _awaiting(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    kind = e.get("kind")
    values = {"player": who(e.get("seat")), "count": e.get("total", "")}
    if kind == "challenge":
        return _("%(player)s may challenge the +4 or accept it.") % values
    if kind == "stack":
        return _("%(player)s may stack or take %(count)s cards.") % values
    if kind == "quickos":
        return _("Quickos? %(player)s must take the +4 unless someone plays Quickos.") % values
    return ""


def _wrong(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    return _("%(player)s tries %(card)s: it does not fit.") % {
        "player": who(e["seat"]),
        "card": _card(e["card"], lang),
    }


def _round_over(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    return _("Round over: %(winner)s wins the round.") % {"winner": who(e.get("winner"))}


def _reversed(e: dict[str, Any], lang: str, who: Who, seat: int | None) -> str:
    return _("Play now goes the other way.")


# Translators: each string is one short sentence read aloud by a screen reader.
_SPEAKERS: dict[str, Callable[[dict[str, Any], str, Who, int | None], str]] = {
    "played": _played,
    "drew": _drew,
    "start": _start,
    "awaiting": _awaiting,
    "challenged": _challenged,
    "wrong_attempt": _wrong,
    "round_over": _round_over,
    "reversed": _reversed,
    "skipped": _simple(N_("%(player)s misses a turn.")),
    "turn": _simple(N_("%(player)s's turn.")),
    "passed": _simple(N_("%(player)s passes.")),
    "uno": _simple(N_("%(player)s says UNO!")),
    "caught": _simple(N_("%(player)s catches %(target)s without UNO: %(target)s draws %(count)s.")),
    "accepted": _simple(N_("%(player)s takes %(count)s cards.")),
    "quickos": _simple(N_("%(player)s plays Quickos: the +4 goes back to %(target)s!")),
    "swapped": _simple(N_("%(player)s swaps hands with %(target)s.")),
    "rotated": _simple(N_("Every hand passes to the next player.")),
    "reshuffled": _simple(N_("The discard pile is shuffled into a new draw pile.")),
    "eliminated": _simple(N_("%(seats)s reached the target and leave the game.")),
    "blocked": _simple(
        N_("Nothing left to draw and nobody played: the round is blocked and ends.")
    ),
    "game_over": _simple(N_("Game over: %(winner)s wins!")),
    "round_started": _simple(N_("Round %(round)s begins.")),
}
