"""Tag a wrong fraction claim with every misconception rule that fits it.

Notation: the reference (top card) is a/b, the played card c/d, both as printed (never
simplified). A claim is the engine's word for the rule the student used: "equal" or
"denominator". A correct claim is never tagged.

Decision for wrong "denominator" claims (the denominators differ): they get their own ID, D1,
and no equivalence rule, because the student did not claim the values are equal. The equivalence
rules (M0-M10, U) only read wrong "equal" claims.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Final

from games.engine.fractions import FractionLike, FractionValue, parse_fraction

from .rulebook import RULES, RULES_BY_ID, RULES_VERSION

__all__ = [
    "CLAIM_DENOMINATOR",
    "CLAIM_EQUAL",
    "CLAIMS",
    "RULE_IDS",
    "RULES",
    "RULES_BY_ID",
    "RULES_VERSION",
    "UMBRELLA_MEMBERS",
    "claim_is_correct",
    "classify",
    "infer_claim",
    "judge_claim",
    "m1_readings",
]

CLAIM_EQUAL: Final = "equal"
CLAIM_DENOMINATOR: Final = "denominator"
CLAIMS: Final = (CLAIM_EQUAL, CLAIM_DENOMINATOR)

# Display and storage order of the IDs that classify() can return.
RULE_IDS: Final[tuple[str, ...]] = tuple(rule.id for rule in RULES)
# M0 (whole-number bias) is added whenever one of these fits.
UMBRELLA_MEMBERS: Final = frozenset({"M1", "M2", "M3", "M4", "M5", "M7"})

Test = Callable[[int, int, int, int], bool]


def _m1(a: int, b: int, c: int, d: int) -> bool:
    return c - a == d - b != 0


def _m2(a: int, b: int, c: int, d: int) -> bool:
    return a == c and b != d


def _m2a(a: int, b: int, c: int, d: int) -> bool:
    return a == c and b != d and (d % b == 0 or b % d == 0)


def _m3(a: int, b: int, c: int, d: int) -> bool:
    # Only reached for "equal" claims: naming the same-denominator rule would be correct.
    return b == d and a != c


def _m3a(a: int, b: int, c: int, d: int) -> bool:
    return _m3(a, b, c, d) and (c % a == 0 or a % c == 0)


def _m4(a: int, b: int, c: int, d: int) -> bool:
    return d % b == 0 and d // b >= 2 and c == d // b and a >= 2


def _scaled_apart(a: int, b: int, c: int, d: int) -> bool:
    """Tell whether c/d scales a and b by two different whole factors, both above 1."""
    if a < 2 or c % a or d % b:
        return False
    top, bottom = c // a, d // b
    return top != bottom and top > 1 and bottom > 1


def _m5(a: int, b: int, c: int, d: int) -> bool:
    # Both directions: multiplying a/b into c/d, or dividing (c/d scaled into a/b).
    return _scaled_apart(a, b, c, d) or _scaled_apart(c, d, a, b)


def _m6(a: int, b: int, c: int, d: int) -> bool:
    return a * d + b * c == b * d


def _m7(a: int, b: int, c: int, d: int) -> bool:
    return c * (b - a) == a * d or a * (d - c) == c * b


def _m8(a: int, b: int, c: int, d: int) -> bool:
    return a * c == b * d and a != b


def _drops_whole(a: int, b: int, c: int, d: int) -> bool:
    """Tell whether the improper c/d, less its whole part, equals a/b."""
    return c > d and Fraction(c, d) - c // d == Fraction(a, b)


def _m9(a: int, b: int, c: int, d: int) -> bool:
    return _drops_whole(a, b, c, d) or _drops_whole(c, d, a, b)


def _m10(a: int, b: int, c: int, d: int) -> bool:
    return abs(b - a) == abs(d - c) and b - a != d - c


_EQUAL_CLAIM_TESTS: Final[dict[str, Test]] = {
    "M1": _m1,
    "M2": _m2,
    "M2a": _m2a,
    "M3": _m3,
    "M3a": _m3a,
    "M4": _m4,
    "M5": _m5,
    "M6": _m6,
    "M7": _m7,
    "M8": _m8,
    "M9": _m9,
    "M10": _m10,
}


def claim_is_correct(reference: FractionLike, played: FractionLike, claim: str) -> bool:
    """Tell whether the claim is true: equal values, or the same printed denominator."""
    a, b = parse_fraction(reference)
    c, d = parse_fraction(played)
    _check_claim(claim)
    return a * d == b * c if claim == CLAIM_EQUAL else b == d


def classify(reference: FractionLike, played: FractionLike, claim: str) -> list[str]:
    """Return every rule ID that fits the claim, in RULE_IDS order; [] when the claim is true.

    Wrong "equal" claims get the M rules that fit (plus M0 when an M0 member fits), or ["U"]
    when none fits. Wrong "denominator" claims get ["D1"]. Fractions may also be given as
    "a/b". Bad input raises ValueError.
    """
    a, b = parse_fraction(reference)
    c, d = parse_fraction(played)
    _check_claim(claim)
    return list(tags_for(a, b, c, d, claim))


@lru_cache(maxsize=1 << 16)
def tags_for(a: int, b: int, c: int, d: int, claim: str) -> tuple[str, ...]:
    """Classify checked numbers (a/b reference, c/d played); cached, as decks are small."""
    if claim == CLAIM_DENOMINATOR:
        return () if b == d else ("D1",)
    if a * d == b * c:
        return ()
    found = {rule_id for rule_id, test in _EQUAL_CLAIM_TESTS.items() if test(a, b, c, d)}
    if found & UMBRELLA_MEMBERS:
        found.add("M0")
    if not found:
        found.add("U")
    return tuple(rule_id for rule_id in RULE_IDS if rule_id in found)


def infer_claim(
    reference: tuple[int, int] | None, denominator: int | None, played: tuple[int, int]
) -> str:
    """Return the claim of a play the student was not asked about, as the play page infers it.

    "equal" for a card of another denominator on a fraction (the only rule it can follow),
    otherwise "denominator" (a named denominator, or the same denominator). The one
    inference: the attempt log, diagnose() and its reference implementation all call it.
    """
    if reference is None or played[1] == denominator:
        return CLAIM_DENOMINATOR
    return CLAIM_EQUAL


def judge_claim(
    reference: tuple[int, int] | None, denominator: int | None, played: tuple[int, int], claim: str
) -> tuple[bool, tuple[str, ...]]:
    """Return whether a claim is right and the rules it fits (tags_for; D1 after a named
    denominator when "denominator" was claimed and the card is not of it)."""
    if reference is None:
        correct = claim == CLAIM_DENOMINATOR and played[1] == denominator
        return correct, () if correct else ("D1",) if claim == CLAIM_DENOMINATOR else ()
    tags = tags_for(*reference, *played, claim)
    return not tags, tags


def m1_readings(reference: FractionValue, played: FractionValue, lang: str) -> list[str]:
    """Give both readings of an M1 pair (same number added / same gap to a whole), fr or en.

    The pair alone cannot tell them apart, so dashboards show both.
    """
    a, b = parse_fraction(reference)
    c, d = parse_fraction(played)
    if lang not in ("fr", "en"):
        raise ValueError(f"unknown language {lang!r}; expected 'fr' or 'en'")
    if not _m1(a, b, c, d):
        raise ValueError(f"{c}/{d} on {a}/{b} does not fit M1")
    step, gap = c - a, b - a
    fr = lang == "fr"
    if step > 0:
        change = f"ajouté {step} en haut et en bas" if fr else f"added {step} to top and bottom"
    else:
        change = f"retiré {-step} en haut et en bas" if fr else f"took {-step} from top and bottom"
    pieces = _pieces(abs(gap), fr)
    if gap > 0:
        whole = (
            f"il manque {pieces} à chacune pour faire 1" if fr else f"each is {pieces} short of 1"
        )
    elif gap < 0:
        whole = f"chacune dépasse 1 de {pieces}" if fr else f"each is {pieces} more than 1"
    else:
        whole = "les deux valent 1" if fr else "both are worth 1"
    return [change, whole]


def _pieces(count: int, fr: bool) -> str:
    word = ("part" if fr else "piece") + ("s" if count > 1 else "")
    return f"{count} {word}"


def _check_claim(claim: str) -> None:
    if claim not in CLAIMS:
        raise ValueError(f"unknown claim {claim!r}; expected one of {CLAIMS}")
