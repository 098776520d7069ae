"""Card codes, decks (as data), per-card attribute tables and spoken names.

Card codes are the UNO Braille markings: ``7r``, ``+02v``, ``rev j``, ``stop b``, ``couleur``,
``+04``; plus the cards the Braille sheet lacks: fractions ``3/6r`` and ``joker``, Family Quick
``hugo r`` / ``manon j`` / ``marco v`` / ``cathy b`` and ``quickos``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

RULESETS: Final = ("fractions", "classic", "family_quick")
COLOURS: Final = "rjvb"
DENOMINATORS: Final = (2, 3, 6, 12, 24, 48)

# Card kinds: "n" number, "frac" fraction, "+2", "rev", "stop", "wild" (couleur / joker),
# "+4", "fq" (Joker Family Quick), "quickos".

# One deck definition per ruleset: (code prefix, copies) laid once per colour (the prefix gets
# the colour letter), then (code, copies) for the cards without a colour or with a fixed one.
# Fraction deck levels (the deck is data, rules README "Deck"): the fraction values laid once per
# colour and how many copies of each. "full" is the default 116-card deck: 1/2, 1/3, 2/3 in five
# forms; 1/6, 5/6 in four forms. The smaller levels keep the forms with denominators 2, 3, 6
# ("sixths", two copies so a table of five still has a draw pile) or up to 12 ("twelfths");
# "improper" adds fractions greater than one (3/2, 4/3, 5/3, 7/6 in their forms up to twelfths)
# to the twelfths level, so that reciprocals (M8), dropped wholes (M9) and mirrored gaps (M10)
# can be met.
FRACTION_DECK_LEVELS: Final = ("sixths", "twelfths", "full", "improper")
DEFAULT_FRACTION_DECK: Final = "full"
_FULL_FRACTIONS = (
    *("1/2", "3/6", "6/12", "12/24", "24/48"),
    *("1/3", "2/6", "4/12", "8/24", "16/48"),
    *("2/3", "4/6", "8/12", "16/24", "32/48"),
    *("1/6", "2/12", "4/24", "8/48"),
    *("5/6", "10/12", "20/24", "40/48"),
)
_TWELFTHS = tuple(f for f in _FULL_FRACTIONS if int(f.split("/")[1]) <= 12)
_IMPROPER = (
    *("3/2", "9/6", "18/12"),
    *("4/3", "8/6", "16/12"),
    *("5/3", "10/6", "20/12"),
    *("7/6", "14/12"),
)
FRACTION_LEVEL_VALUES: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    "sixths": tuple((f, 2) for f in _FULL_FRACTIONS if int(f.split("/")[1]) <= 6),
    "twelfths": tuple((f, 1) for f in _TWELFTHS),
    "full": tuple((f, 1) for f in _FULL_FRACTIONS),
    "improper": tuple((f, 1) for f in _TWELFTHS + _IMPROPER),
}


def _fractions_spec(level: str) -> dict[str, tuple[tuple[str, int], ...]]:
    """Return the deck definition of one fraction deck level (the special cards are the same)."""
    return {
        "per_colour": FRACTION_LEVEL_VALUES[level] + (("+02", 2), ("rev ", 2)),
        "other": (("joker", 4), ("+04", 4)),
    }


DECK_SPECS: Final[dict[str, dict[str, tuple[tuple[str, int], ...]]]] = {
    "classic": {
        "per_colour": (("0", 1),)
        + tuple((str(d), 2) for d in range(1, 10))
        + (("+02", 2), ("rev ", 2), ("stop ", 2)),
        "other": (("couleur", 4), ("+04", 4)),
    },
    "fractions": _fractions_spec(DEFAULT_FRACTION_DECK),
    "family_quick": {
        "per_colour": tuple((str(d), 1) for d in range(10))
        + (("+02", 1), ("rev ", 1), ("stop ", 1)),
        # Hugo red, Manon yellow, Marco green, Cathy blue: a product decision (rules README).
        "other": (
            ("couleur", 4),
            ("hugo r", 2),
            ("manon j", 2),
            ("marco v", 2),
            ("cathy b", 2),
            ("+04", 3),
            ("quickos", 1),
        ),
    },
}

FQ_NAMES: Final = ("hugo", "manon", "marco", "cathy")


def _build_deck(spec: dict[str, tuple[tuple[str, int], ...]]) -> tuple[str, ...]:
    """Return the full deck (every copy) of one deck definition."""
    cards: list[str] = []
    for colour in COLOURS:
        for prefix, copies in spec["per_colour"]:
            cards.extend([prefix + colour] * copies)
    for code, copies in spec["other"]:
        cards.extend([code] * copies)
    return tuple(cards)


DECKS: Final[dict[str, tuple[str, ...]]] = {r: _build_deck(DECK_SPECS[r]) for r in RULESETS}
# Every fraction deck level, the cards of the deck in use (the "deck" option of the fractions).
FRACTION_DECKS: Final[dict[str, tuple[str, ...]]] = {
    level: _build_deck(_fractions_spec(level)) for level in FRACTION_DECK_LEVELS
}


# The denominators a +2, Joker or +4 may name in each fraction deck level: the sheet's list
# (DENOMINATORS) cut to the denominators the level's fraction cards have, read from its cards,
# so a named denominator always has cards (a "twelfths" deck never asks for 24ths).
FRACTION_LEVEL_DENOMINATORS: Final[dict[str, tuple[int, ...]]] = {
    level: tuple(
        d for d in DENOMINATORS if any("/" in c and int(c[:-1].split("/")[1]) == d for c in deck)
    )
    for level, deck in FRACTION_DECKS.items()
}


def deck_denominators(ruleset: str, options: Mapping[str, Any]) -> tuple[int, ...]:
    """Return the denominators a wild card may name in the deck in use (none outside fractions).

    The one list the engine checks a named denominator against, legal_actions spells out and
    the play page offers.
    """
    if ruleset != "fractions":
        return ()
    return FRACTION_LEVEL_DENOMINATORS[options.get("deck", DEFAULT_FRACTION_DECK)]


def deck_for(ruleset: str, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Return every card (each copy) of the deck a game of ``ruleset`` with ``options`` uses."""
    if ruleset == "fractions":
        return FRACTION_DECKS[options.get("deck", DEFAULT_FRACTION_DECK)]
    return DECKS[ruleset]


def _parse(code: str) -> tuple[str, str | None, str, int, int]:
    """Return (kind, colour, symbol, numerator, denominator) of a card code."""
    if code in ("couleur", "joker"):
        return "wild", None, code, 0, 0
    if code == "+04":
        return "+4", None, "+4", 0, 0
    if code == "quickos":
        return "quickos", None, "quickos", 0, 0
    colour = code[-1]
    body = code[:-1].strip()
    if body == "+02":
        return "+2", colour, "+2", 0, 0
    if body in ("rev", "stop"):
        return body, colour, body, 0, 0
    if body in FQ_NAMES:
        return "fq", colour, body, 0, 0
    if "/" in body:
        num, den = body.split("/")
        return "frac", colour, "frac", int(num), int(den)
    return "n", colour, body, int(body), 0


ALL_CODES: Final = tuple(
    dict.fromkeys(
        [c for r in RULESETS for c in DECKS[r]]
        + [c for level in FRACTION_DECK_LEVELS for c in FRACTION_DECKS[level]]
    )
)
_PARSED = {c: _parse(c) for c in ALL_CODES}

KIND: Final[dict[str, str]] = {c: p[0] for c, p in _PARSED.items()}
COLOUR: Final[dict[str, str | None]] = {c: p[1] for c, p in _PARSED.items()}
SYMBOL: Final[dict[str, str]] = {c: p[2] for c, p in _PARSED.items()}
NUM: Final[dict[str, int]] = {c: p[3] for c, p in _PARSED.items()}
DEN: Final[dict[str, int]] = {c: p[4] for c, p in _PARSED.items()}
# (kind, colour, symbol) in one lookup, for the hot path.
CARD: Final[dict[str, tuple[str, str | None, str]]] = {c: p[:3] for c, p in _PARSED.items()}
# Fraction cards: "3/6r" -> "3/6" (the reference the view shows).
FRACTION: Final[dict[str, str]] = {c: c[:-1] for c, p in _PARSED.items() if p[0] == "frac"}

# Coloured cards of the simple kinds that fit on a pile of (colour, top symbol): same colour or
# same symbol (colour None, after a start Joker: any). Precomputed so matching is one lookup.
_SIMPLE = ("n", "+2", "rev", "stop")
MATCHING: Final[dict[tuple[str | None, str], frozenset[str]]] = {
    (colour, sym): frozenset(
        c
        for c in ALL_CODES
        if KIND[c] in _SIMPLE and (colour is None or COLOUR[c] == colour or SYMBOL[c] == sym)
    )
    for colour in (None, *COLOURS)
    for sym in set(SYMBOL.values())
}

# Every code of one colour (for the classic +4 rule: "no card of the colour in force").
COLOURED_CARDS: Final[dict[str, frozenset[str]]] = {
    colour: frozenset(c for c in ALL_CODES if COLOUR[c] == colour) for colour in COLOURS
}

_ACTION_POINTS = {"+2": 20, "rev": 20, "stop": 20, "wild": 50, "+4": 50, "fq": 50, "quickos": 50}


def _points(ruleset: str, code: str) -> int:
    kind = KIND[code]
    if kind in ("n", "frac"):
        return NUM[code]
    if kind == "+4" and ruleset == "family_quick":
        return 40  # the Family Quick sheet values its +4 at 40
    return _ACTION_POINTS[kind]


def _codes(ruleset: str) -> dict[str, None]:
    """Return the distinct codes of every deck a ruleset may use (fractions: every level)."""
    if ruleset == "fractions":
        return dict.fromkeys(c for level in FRACTION_DECK_LEVELS for c in FRACTION_DECKS[level])
    return dict.fromkeys(DECKS[ruleset])


POINTS: Final[dict[str, dict[str, int]]] = {
    r: {c: _points(r, c) for c in _codes(r)} for r in RULESETS
}
# (kind, colour, symbol) restricted to one ruleset's default deck: a code outside it is unknown.
CARDS_BY_RULESET: Final[dict[str, dict[str, tuple[str, str | None, str]]]] = {
    r: {c: CARD[c] for c in dict.fromkeys(DECKS[r])} for r in RULESETS
}
# The same for each fraction deck level.
CARDS_BY_FRACTION_DECK: Final[dict[str, dict[str, tuple[str, str | None, str]]]] = {
    level: {c: CARD[c] for c in dict.fromkeys(FRACTION_DECKS[level])}
    for level in FRACTION_DECK_LEVELS
}


def cards_for(ruleset: str, options: Mapping[str, Any]) -> dict[str, tuple[str, str | None, str]]:
    """Return (kind, colour, symbol) of each code of the deck in use (others are unknown)."""
    if ruleset == "fractions":
        return CARDS_BY_FRACTION_DECK[options.get("deck", DEFAULT_FRACTION_DECK)]
    return CARDS_BY_RULESET[ruleset]


def draw_rank(code: str) -> int:
    """Rank a card drawn to choose the dealer: numbers by value, fractions by size, actions 0."""
    kind = KIND[code]
    if kind == "n":
        return NUM[code] * 48
    if kind == "frac":
        return NUM[code] * 48 // DEN[code]
    return 0


COLOUR_NAMES: Final = {
    "fr": {"r": "rouge", "j": "jaune", "v": "vert", "b": "bleu"},
    "en": {"r": "red", "j": "yellow", "v": "green", "b": "blue"},
}
_KIND_NAMES = {
    "fr": {"+2": "+2", "rev": "Inversion", "stop": "Passer"},
    "en": {"+2": "Draw Two", "rev": "Reverse", "stop": "Skip"},
}
_FIXED_NAMES = {
    "fr": {"couleur": "Joker", "joker": "Joker", "+04": "+4", "quickos": "Quickos"},
    "en": {"couleur": "Wild", "joker": "Joker", "+04": "Wild Draw Four", "quickos": "Quickos"},
}


def card_name(code: str, lang: str = "fr") -> str:
    """Return the spoken name of a card in "fr" or "en" (e.g. "7 rouge", "red 7")."""
    if lang not in COLOUR_NAMES:
        raise ValueError(f"unknown language: {lang!r}")
    kind = KIND.get(code)
    if kind is None:
        raise ValueError(f"unknown card code: {code!r}")
    fixed = _FIXED_NAMES[lang].get(code)
    if fixed is not None:
        return fixed
    colour = COLOUR[code]
    assert colour is not None
    cname = COLOUR_NAMES[lang][colour]
    if kind == "n":
        label = str(NUM[code])
    elif kind == "frac":
        label = FRACTION[code]
    elif kind == "fq":
        label = SYMBOL[code].capitalize()
    else:
        label = _KIND_NAMES[lang][kind]
    return f"{label} {cname}" if lang == "fr" else f"{cname} {label}"
