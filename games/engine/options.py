"""Rule options: defaults per ruleset, player limits and validation (errors: ``bad_option``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from .cards import DEFAULT_FRACTION_DECK, FRACTION, FRACTION_DECK_LEVELS, FRACTION_DECKS
from .errors import IllegalAction

FQ_FUNCTIONS: Final = ("rev", "stop", "+2", "swap")
SCORINGS: Final = ("winner_takes", "lowest_wins", "elimination")

DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "classic": {
        "target_score": 500,
        "scoring": "winner_takes",
        "teams": False,
        "rotating_partners": False,
        "stacking": False,
        "seven_o": False,
        "jump_in": False,
        "plus4_challenge": True,
        "plus4_bluffing": True,
        "uno_penalty": 2,
    },
    "fractions": {
        "target_score": 0,
        "scoring": "winner_takes",
        "plus4_challenge": True,
        "plus4_bluffing": True,
        "uno_penalty": 1,
        "fractions_plus4_draws": 2,
        "wrong_attempt_penalty": 0,
        "no_finish_on_plus4": False,
        "deck": DEFAULT_FRACTION_DECK,
        "aim_pairs": [],
        "aim_seat": 0,
    },
    "family_quick": {
        "target_score": 500,
        "scoring": "winner_takes",
        "plus4_challenge": False,
        "uno_penalty": 2,
        "family_quick_functions": list(FQ_FUNCTIONS),
    },
}

PLAYER_LIMITS: Final = {"fractions": (2, 5), "classic": (2, 10), "family_quick": (2, 10)}

# Integer options: the values accepted, a range or the few the rules README lists
# (docs/engine.md "Options" gives the same; tests/engine/test_docs_in_sync.py checks it).
INT_VALUES: Final[dict[str, range | tuple[int, ...]]] = {
    "target_score": range(0, 100_001),
    "uno_penalty": range(0, 11),
    "fractions_plus4_draws": (2, 4),  # 2 as the sheet prints, 4 as the card's name says
    "wrong_attempt_penalty": range(0, 11),
    "aim_seat": range(0, 5),  # a seat of a fractions table (2 to 5 players)
}
# Aimed dealing (games/engine/aim.py): at most this many (reference, trap) pairs.
MAX_AIM_PAIRS: Final = 400
# The fraction values ("a/b") of each deck level, the values aim_pairs may name.
LEVEL_VALUES: Final[dict[str, frozenset[str]]] = {
    level: frozenset(FRACTION[c] for c in FRACTION_DECKS[level] if c in FRACTION)
    for level in FRACTION_DECK_LEVELS
}


def hand_size(ruleset: str, players: int) -> int:
    """Return the cards dealt to each player (Family Quick deals 6 at 10 players)."""
    return 6 if ruleset == "family_quick" and players >= 10 else 7


def _bad(fr: str, en: str) -> IllegalAction:
    return IllegalAction("bad_option", why=(fr, en))


def _int_error(key: str, allowed: range | tuple[int, ...]) -> IllegalAction:
    """Return the ``bad_option`` error of an integer option, naming the values it takes."""
    if isinstance(allowed, range):
        low, high = allowed[0], allowed[-1]
        return _bad(
            f"« {key} » est un entier de {low} à {high}",
            f"'{key}' must be an integer from {low} to {high}",
        )
    values = [str(v) for v in allowed]
    fr = ", ".join(values[:-1]) + " ou " + values[-1]
    en = ", ".join(values[:-1]) + " or " + values[-1]
    return _bad(f"« {key} » vaut {fr}", f"'{key}' must be {en}")


def check_players(ruleset: str, players: object) -> int:
    """Return the player count, or raise ``bad_option`` when outside the ruleset's limits."""
    low, high = PLAYER_LIMITS[ruleset]
    if type(players) is not int or not low <= players <= high:
        raise _bad(
            f"de {low} à {high} joueurs pour ce jeu (reçu : {players!r})",
            f"{low} to {high} players for this game (got {players!r})",
        )
    return players


def validate_options(ruleset: str, players: int, options: object) -> dict[str, Any]:
    """Return the full option set in force: defaults updated with valid ``options``."""
    defaults = DEFAULTS[ruleset]
    opts: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in defaults.items()}
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad("les options forment un dictionnaire", "options must be a dict")
    for key, value in options.items():
        if key not in defaults:
            raise _bad(
                f"« {key} » n’existe pas pour ce jeu", f"'{key}' does not exist for this game"
            )
        opts[key] = _option_value(key, value, defaults[key])
    _check_combinations(ruleset, players, opts)
    return opts


def _option_value(key: str, value: Any, default: Any) -> Any:
    """Return one option's value as kept, or raise why it is not one of its values."""
    if isinstance(default, bool):
        if type(value) is not bool:
            raise _bad(f"« {key} » vaut vrai ou faux", f"'{key}' must be true or false")
    elif isinstance(default, int):
        allowed = INT_VALUES[key]
        if type(value) is not int or value not in allowed:
            raise _int_error(key, allowed)
    elif key == "scoring":
        if value not in SCORINGS:
            raise _bad(
                "« scoring » vaut winner_takes, lowest_wins ou elimination",
                "'scoring' must be winner_takes, lowest_wins or elimination",
            )
    elif key == "family_quick_functions":
        return _family_quick_functions(value)
    elif key == "deck":
        if type(value) is not str or value not in FRACTION_DECK_LEVELS:
            levels = ", ".join(FRACTION_DECK_LEVELS)
            raise _bad(f"« deck » vaut {levels}", f"'deck' must be one of {levels}")
    elif key == "aim_pairs":
        return _aim_pairs(value)
    return value


def _family_quick_functions(value: object) -> list[str]:
    """Return Family Quick's functions: a non-empty list of distinct known functions."""
    if (
        not isinstance(value, list)
        or not value
        or len(set(value)) != len(value)
        or not all(isinstance(f, str) and f in FQ_FUNCTIONS for f in value)
    ):
        raise _bad(
            "« family_quick_functions » est une liste non vide parmi rev, stop, +2, swap",
            "'family_quick_functions' must be a non-empty list from rev, stop, +2, swap",
        )
    return list(value)


def _aim_pairs(value: object) -> list[list[str]]:
    """Return aim pairs shaped right: distinct [reference, trap] lists of "a/b" strings.

    Whether the values belong to the deck in use is checked with the other options.
    """
    if (
        not isinstance(value, list)
        or len(value) > MAX_AIM_PAIRS
        or not all(
            isinstance(p, list) and len(p) == 2 and all(type(v) is str for v in p) for p in value
        )
    ):
        raise _bad(
            f"« aim_pairs » est une liste d’au plus {MAX_AIM_PAIRS} paires [référence, piège]",
            f"'aim_pairs' must be a list of at most {MAX_AIM_PAIRS} [reference, trap] pairs",
        )
    pairs = [list(p) for p in value]
    if len({tuple(p) for p in pairs}) != len(pairs):
        raise _bad("« aim_pairs » répète une paire", "'aim_pairs' repeats a pair")
    return pairs


def _value(text: str) -> Fraction:
    num, den = text.split("/")
    return Fraction(int(num), int(den))


def _check_aim(players: int, opts: dict[str, Any]) -> None:
    """Check that the aim names values of the deck in use, traps unequal, a seat in play."""
    values = LEVEL_VALUES[opts["deck"]]
    for reference, trap in opts["aim_pairs"]:
        if reference not in values or trap not in values:
            raise _bad(
                f"« aim_pairs » : {reference} ou {trap} n’est pas une fraction du paquet",
                f"'aim_pairs': {reference} or {trap} is not a fraction of the deck",
            )
        if _value(reference) == _value(trap):
            raise _bad(
                f"« aim_pairs » : {trap} est égale à {reference}, ce n’est pas un piège",
                f"'aim_pairs': {trap} equals {reference}, so it is no trap",
            )
    if opts["aim_seat"] >= players:
        raise _bad("« aim_seat » n’est pas un siège", "'aim_seat' is not a seat")


def _check_combinations(ruleset: str, players: int, opts: dict[str, Any]) -> None:
    if ruleset == "fractions":
        _check_aim(players, opts)
    if ruleset == "family_quick" and opts["plus4_challenge"]:
        raise _bad(
            "le +4 de Family Quick ne se conteste pas (Quickos le renvoie)",
            "the Family Quick +4 cannot be challenged (Quickos turns it back)",
        )
    if opts.get("teams"):
        if players < 4 or players % 2:
            raise _bad(
                "les équipes demandent un nombre pair de joueurs, au moins 4",
                "teams need an even number of players, at least 4",
            )
        if opts["scoring"] == "elimination":
            raise _bad(
                "les équipes ne se jouent pas en élimination",
                "teams cannot be played with elimination",
            )
    if opts.get("rotating_partners"):
        if players != 4:
            raise _bad(
                "les partenaires tournants se jouent à 4", "rotating partners need 4 players"
            )
        if opts["scoring"] != "winner_takes":
            raise _bad(
                "les partenaires tournants se comptent en winner_takes",
                "rotating partners are scored with winner_takes",
            )
