"""Explain to a student, in French or English, why a fraction card does not fit.

Pure (stdlib and the engine only): the play page calls it right after the engine rejects a
play. Sentences stay short on purpose (readers are 9 to 11 years old) and never name a
misconception.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any, Final

from .cards import DENOMINATORS
from .fractions import (
    FractionLike,
    FractionValue,
    format_fraction,
    is_fraction_card,
    parse_fraction,
)

LANGS: Final[tuple[str, ...]] = ("fr", "en")
CLAIMS: Final[tuple[str, ...]] = ("equal", "denominator")
# Above this, a common denominator would confuse more than it helps.
_MAX_COMMON_DENOMINATOR: Final = 100

_TEXTS: Final[dict[str, dict[str, str]]] = {
    "fr": {
        "both": "{r} ≠ {p} : {r} = {r2} mais {p} = {p2}.",
        "ref_only": "{r} ≠ {p} : {r} = {r2}, pas {p}.",
        "played_only": "{r} ≠ {p} : {p} = {p2}, pas {r}.",
        "plain": "{r} ≠ {p}.",
        "same_den": "{r} ≠ {p} : même dénominateur, mais pas le même numérateur.",
        "same_den_tip": "Tu peux la poser avec la règle « même dénominateur ».",
        "above_below": "{big} est plus grand que 1, mais {small} est plus petit que 1.",
        "equal_form": "Une fraction égale à {r} : {form}.",
        "diff_den": "{r} et {p} n’ont pas le même dénominateur (le nombre du bas) : {b} et {d}.",
        "diff_den_equal": "Mais elles sont égales : choisis la règle « égale ».",
        "diff_den_need": "Il faut une carte avec {b} en bas.",
        "named_den": "Il faut une fraction avec {n} en bas. {p} a {d} en bas.",
    },
    "en": {
        "both": "{r} ≠ {p}: {r} = {r2} but {p} = {p2}.",
        "ref_only": "{r} ≠ {p}: {r} = {r2}, not {p}.",
        "played_only": "{r} ≠ {p}: {p} = {p2}, not {r}.",
        "plain": "{r} ≠ {p}.",
        "same_den": "{r} ≠ {p}: same denominator, but not the same numerator.",
        "same_den_tip": "You can play it with the “same denominator” rule.",
        "above_below": "{big} is more than 1, but {small} is less than 1.",
        "equal_form": "A fraction equal to {r}: {form}.",
        "diff_den": "{r} and {p} do not have the same denominator (bottom number): {b} and {d}.",
        "diff_den_equal": "But they are equal: choose the “equal” rule.",
        "diff_den_need": "You need a card with {b} at the bottom.",
        "named_den": "You need a fraction with {n} at the bottom. {p} has {d} at the bottom.",
    },
}


def equal_forms(fraction: FractionLike, denominators: tuple[int, ...] = DENOMINATORS) -> list[str]:
    """List the fraction's equal forms over the deck's denominators, smallest denominator first.

    The fraction itself is included when its denominator is one of the deck's.
    """
    value = Fraction(*parse_fraction(fraction))
    return [
        f"{value.numerator * (d // value.denominator)}/{d}"
        for d in sorted(denominators)
        if d % value.denominator == 0
    ]


def _check_lang(lang: str) -> dict[str, str]:
    if lang not in _TEXTS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    return _TEXTS[lang]


def explain_wrong_play(reference: FractionLike, played: FractionLike, rule: str, lang: str) -> str:
    """Explain why `played` does not fit `reference` under the rule the student claimed.

    `rule` is the engine's word: "equal" or "denominator". A play that does fit raises
    ValueError, as do unknown rules or languages and malformed fractions.
    """
    texts = _check_lang(lang)
    if rule not in CLAIMS:
        raise ValueError(f"unknown rule {rule!r}; expected one of {CLAIMS}")
    a, b = parse_fraction(reference)
    c, d = parse_fraction(played)
    r, p = format_fraction((a, b)), format_fraction((c, d))
    if rule == "denominator":
        if b == d:
            raise ValueError(f"{p} has the same denominator as {r}: the play fits")
        lines = [texts["diff_den"].format(r=r, p=p, b=b, d=d)]
        if a * d == b * c:
            lines.append(texts["diff_den_equal"])
        else:
            lines.append(texts["diff_den_need"].format(b=b))
        return " ".join(lines)
    if a * d == b * c:
        raise ValueError(f"{p} is equal to {r}: the play fits")
    if b == d:
        return " ".join((texts["same_den"].format(r=r, p=p), texts["same_den_tip"]))
    return " ".join(_unequal_lines(texts, (a, b), (c, d)))


def _unequal_lines(texts: dict[str, str], ref: FractionValue, card: FractionValue) -> list[str]:
    """Build the sentences for two unequal fractions with different denominators."""
    (a, b), (c, d) = ref, card
    r, p = format_fraction(ref), format_fraction(card)
    common = lcm(b, d)
    r2 = format_fraction((a * common // b, common))
    p2 = format_fraction((c * common // d, common))
    shown_ref_form = False
    if common <= _MAX_COMMON_DENOMINATOR:
        if b != common and d != common:
            lines = [texts["both"].format(r=r, p=p, r2=r2, p2=p2)]
            shown_ref_form = common in DENOMINATORS
        elif b != common:
            lines = [texts["ref_only"].format(r=r, p=p, r2=r2)]
            shown_ref_form = common in DENOMINATORS
        else:
            lines = [texts["played_only"].format(r=r, p=p, p2=p2)]
    else:
        lines = [texts["plain"].format(r=r, p=p)]
    ref_value, card_value = Fraction(a, b), Fraction(c, d)
    if (ref_value - 1) * (card_value - 1) < 0:
        big, small = (r, p) if ref_value > 1 else (p, r)
        lines.append(texts["above_below"].format(big=big, small=small))
    if not shown_ref_form:
        others = [form for form in equal_forms(ref) if form != r]
        if others:
            lines.append(texts["equal_form"].format(r=r, form=others[0]))
    return lines


def explain_named_denominator(denominator: int, played: FractionLike, lang: str) -> str:
    """Explain that a denominator was named (after a +2, Joker or +4) and `played` lacks it."""
    texts = _check_lang(lang)
    if isinstance(denominator, bool) or not isinstance(denominator, int) or denominator <= 0:
        raise ValueError(f"not a denominator: {denominator!r}")
    c, d = parse_fraction(played)
    if d == denominator:
        raise ValueError(f"{c}/{d} has the named denominator {denominator}: the play fits")
    return texts["named_den"].format(n=denominator, p=format_fraction((c, d)), d=d)


# A difference below this reads "a bit more" / "a bit less" in the worked example.
_A_BIT: Final = Fraction(1, 4)

_EXAMPLE_TEXTS: Final[dict[str, dict[str, str]]] = {
    "fr": {
        "equal": "{r} et {p} sont égales : elles sont au même endroit sur la ligne.",
        "bit_more": "{r} et {p} ne sont pas égales : {p} est un peu plus grande.",
        "more": "{r} et {p} ne sont pas égales : {p} est plus grande.",
        "bit_less": "{r} et {p} ne sont pas égales : {p} est un peu plus petite.",
        "less": "{r} et {p} ne sont pas égales : {p} est plus petite.",
        "own_card": "Ta carte {c} est égale à {r}.",
    },
    "en": {
        "equal": "{r} and {p} are equal: they are at the same place on the line.",
        "bit_more": "{r} and {p} are not equal: {p} is a bit more.",
        "more": "{r} and {p} are not equal: {p} is more.",
        "bit_less": "{r} and {p} are not equal: {p} is a bit less.",
        "less": "{r} and {p} are not equal: {p} is less.",
        "own_card": "Your card {c} is equal to {r}.",
    },
}


def _fraction_data(value: FractionValue) -> dict[str, Any]:
    return {"text": format_fraction(value), "num": value[0], "den": value[1]}


def _equal_card(reference: FractionValue, played: str, hand: list[str]) -> str | None:
    """Pick the hand's fraction card equal to the reference: another form first, then small."""
    target = Fraction(*reference)
    found = []
    for code in hand:
        if code == played or not is_fraction_card(code):
            continue
        try:
            value = parse_fraction(code)
        except ValueError:
            continue
        if Fraction(*value) == target:
            found.append((value[1] == reference[1], value[1], code))
    return min(found)[2] if found else None


def worked_example(
    reference: FractionLike, played: FractionLike, hand: list[str], lang: str
) -> dict[str, Any]:
    """Build the worked example shown after a wrong play: both fractions, words, an equal card.

    `hand` is the student's own hand (card codes), never anyone else's: the example names at
    most one of its cards, a fraction card equal to the reference other than the played one.
    Raise ValueError on an unknown language or a malformed fraction.
    """
    _check_lang(lang)
    texts = _EXAMPLE_TEXTS[lang]
    ref, card = parse_fraction(reference), parse_fraction(played)
    r, p = format_fraction(ref), format_fraction(card)
    difference = Fraction(*card) - Fraction(*ref)
    if difference == 0:
        key = "equal"
    elif difference > 0:
        key = "bit_more" if difference < _A_BIT else "more"
    else:
        key = "bit_less" if -difference < _A_BIT else "less"
    played_code = played if isinstance(played, str) else p
    own = _equal_card(ref, played_code, hand)
    own_card = None
    if own is not None:
        text = format_fraction(parse_fraction(own))
        own_card = {
            "card": own,
            "text": text,
            "sentence": texts["own_card"].format(c=text, r=r),
        }
    return {
        "reference": _fraction_data(ref),
        "played": _fraction_data(card),
        "equal": difference == 0,
        "sentence": texts[key].format(r=r, p=p),
        "own_card": own_card,
    }


# What may go on the pile, said to a child (the play page's "You can play" list). Built from
# the pile's facts only (top card, colour, reference, denominator): never from a hand.
_TO_PLAY_TEXTS: Final[dict[str, dict[str, str]]] = {
    "fr": {
        "any_fraction": "n’importe quelle fraction",
        "equal_or_den": "une fraction égale à {r} ou avec {d} en bas",
        "equal": "une fraction égale à {r}",
        "den": "une fraction avec {d} en bas",
        "colour_specials": "un +2 {m} ou une Inversion {c}",
        "same_plus2": "un +2 d’une autre couleur",
        "same_rev": "une Inversion d’une autre couleur",
        "colour_card": "une carte {c}",
        "any_card": "n’importe quelle carte",
        "same_number": "un {n} d’une autre couleur",
        "same_stop": "un Passer d’une autre couleur",
        "joker": "un Joker",
        "fraction_joker": "un Joker",
        "plus4_alone": "un +4 si aucune autre carte ne va",
        "plus4_no_colour": "un +4 si tu n’as pas de carte {c}",
        "plus4": "un +4",
    },
    "en": {
        "any_fraction": "any fraction",
        "equal_or_den": "a fraction equal to {r} or with {d} at the bottom",
        "equal": "a fraction equal to {r}",
        "den": "a fraction with {d} at the bottom",
        "colour_specials": "a {m} Draw Two or a {c} Reverse",
        "same_plus2": "a Draw Two of another colour",
        "same_rev": "a Reverse of another colour",
        "colour_card": "a {c} card",
        "any_card": "any card",
        "same_number": "a {n} of another colour",
        "same_stop": "a Skip of another colour",
        "joker": "a Wild",
        "fraction_joker": "a Joker",
        "plus4_alone": "a Wild Draw Four if no other card fits",
        "plus4_no_colour": "a Wild Draw Four if you have no {c} card",
        "plus4": "a Wild Draw Four",
    },
}
# French agrees the colour with the card's name: "une carte verte", "un +2 vert".
_COLOUR_WORDS: Final = {
    "fr": {"r": "rouge", "j": "jaune", "v": "verte", "b": "bleue"},
    "en": {"r": "red", "j": "yellow", "v": "green", "b": "blue"},
}
_COLOUR_WORDS_MASCULINE: Final = {
    "fr": {"r": "rouge", "j": "jaune", "v": "vert", "b": "bleu"},
    "en": _COLOUR_WORDS["en"],
}
_SAME_SYMBOL: Final = {"+2": "same_plus2", "rev": "same_rev", "stop": "same_stop"}


def to_play_parts(view: dict[str, Any], lang: str) -> list[str]:
    """List what may go on the pile now, one short phrase a kind of card (empty: nothing).

    `view` is the engine's view (any seat's): its `ruleset`, `top`, `colour`, `reference`,
    `denominator` and `options` are the facts the rules match by (games.engine.rules).
    Between fractions colour never counts; the Joker's own restrictions (not a last card)
    are the refusal's to explain.
    """
    _check_lang(lang)
    texts = _TO_PLAY_TEXTS[lang]
    if view.get("round_over") or view.get("game_over") or not view.get("top"):
        return []
    ruleset, top, colour = view.get("ruleset"), str(view["top"]), view.get("colour")
    kind, symbol = _top_kind(top)
    colour_word = _COLOUR_WORDS[lang].get(colour or "", "")
    parts: list[str] = []
    if ruleset == "fractions":
        reference, denominator = view.get("reference"), view.get("denominator")
        if reference and denominator:
            parts.append(texts["equal_or_den"].format(r=reference, d=denominator))
        elif reference:
            parts.append(texts["equal"].format(r=reference))
        elif denominator:
            parts.append(texts["den"].format(d=denominator))
        else:
            parts.append(texts["any_fraction"])
        if colour_word:
            masculine = _COLOUR_WORDS_MASCULINE[lang][str(colour)]
            parts.append(texts["colour_specials"].format(m=masculine, c=colour_word))
        if kind in ("+2", "rev"):
            parts.append(texts[_SAME_SYMBOL[kind]])
        parts += [texts["fraction_joker"], texts["plus4_alone"]]
        return parts
    if not colour_word:
        return [texts["any_card"]]
    parts.append(texts["colour_card"].format(c=colour_word))
    if kind == "n":
        parts.append(texts["same_number"].format(n=symbol))
    elif kind in _SAME_SYMBOL:
        parts.append(texts[_SAME_SYMBOL[kind]])
    parts.append(texts["joker"])
    if ruleset == "classic":
        parts.append(texts["plus4_no_colour"].format(c=colour_word))
    else:
        parts.append(texts["plus4"])
    return parts


def _top_kind(code: str) -> tuple[str, str]:
    """Return the kind ("n", "frac", "+2", "rev", "stop", "other") and symbol of a top card."""
    if code in ("couleur", "joker", "+04", "quickos"):
        return "other", code
    body = code[:-1].strip()
    if body == "+02":
        return "+2", "+2"
    if body in ("rev", "stop"):
        return body, body
    if "/" in body:
        return "frac", body
    if body.isdigit():
        return "n", body
    return "other", body
