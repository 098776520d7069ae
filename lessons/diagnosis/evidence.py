"""What one judged play tells about each rule: its tags, chance rates and opportunities.

A rule that fits one wrong play says little: many card pairs fit a rule by chance. So each
stored attempt carries p0, the share of the cards the student could have played wrongly that
would have fitted the rule too (from the hand snapshot), and the rules some card in hand could
have fitted (its opportunities). Statuses are not decided here: lessons.diagnosis.diagnose()
reads one student's turns and is the one place that gives a rule a status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from games.engine.cards import DENOMINATORS
from games.engine.fractions import FractionLike, FractionValue, parse_fraction

from .classifier import CLAIM_EQUAL, CLAIMS, RULE_IDS, classify, tags_for

STATUS_NONE: Final = "none"
STATUS_EMERGING: Final = "emerging"
STATUS_LIKELY: Final = "likely"
STATUS_RESOLVED: Final = "resolved"
STATUS_HELD: Final = "held"
STATUS_NOT_POSSIBLE: Final = "not_possible"
STATUSES: Final = (STATUS_LIKELY, STATUS_EMERGING, STATUS_RESOLVED, STATUS_HELD, STATUS_NONE)
STATUS_LABELS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        STATUS_LIKELY: {"fr": "probable", "en": "likely"},
        STATUS_EMERGING: {"fr": "émergente", "en": "emerging"},
        STATUS_RESOLVED: {"fr": "résolue", "en": "resolved"},
        # Said with care: a second clean re-check a week later or more, not "gone".
        STATUS_HELD: {
            "fr": "toujours résolue une semaine plus tard",
            "en": "still resolved a week later",
        },
        STATUS_NONE: {"fr": "aucune", "en": "none"},
        STATUS_NOT_POSSIBLE: {"fr": "impossible avec ce jeu", "en": "not possible with this deck"},
    }
)

# The default deck's fraction cards (one of each; colours do not change any share): every form
# of 1/2, 1/3 and 2/3 over 2 or 3, 6, 12, 24, 48, and of 1/6 and 5/6 over 6, 12, 24, 48.
DEFAULT_DECK_CARDS: Final[tuple[FractionValue, ...]] = tuple(
    (num * (den // base), den)
    for num, base in ((1, 2), (1, 3), (2, 3), (1, 6), (5, 6))
    for den in DENOMINATORS
    if den % base == 0
)


def _wrong(reference: FractionValue, card: FractionValue, claim: str) -> bool:
    (a, b), (c, d) = reference, card
    return a * d != b * c if claim == CLAIM_EQUAL else b != d


def _hand_with_played(
    hand: Iterable[FractionLike] | None, played: FractionValue | None
) -> list[FractionValue]:
    """Return the hand as checked cards; None means unknown: use the default deck instead."""
    cards = list(DEFAULT_DECK_CARDS) if hand is None else [parse_fraction(c) for c in hand]
    if played is not None and parse_fraction(played) not in cards:
        # The snapshot should hold the played card; if it was taken after the play, add it back.
        cards.append(parse_fraction(played))
    return cards


def _candidates(
    reference: FractionValue,
    cards: list[FractionValue],
    claim: str,
    played: FractionValue | None,
    claim_asked: bool,
) -> list[FractionValue]:
    """Keep the cards that would make `claim` wrong and that the play page lets through."""
    kept = []
    for card in cards:
        if not _wrong(reference, card, claim):
            continue
        if claim == CLAIM_EQUAL and card[1] == reference[1] and not claim_asked and card != played:
            # A page that infers the rule calls such a card "same denominator": never wrong.
            continue
        kept.append(card)
    return kept


def chance_rates(
    reference: FractionValue,
    hand: Iterable[FractionValue] | None,
    claim: str,
    played: FractionValue | None = None,
    *,
    claim_asked: bool = False,
) -> dict[str, float]:
    """Return, per rule ID, the share of the hand's cards that would fit it under `claim`.

    Only the cards for which `claim` would be wrong count (non-equal cards for "equal", cards
    with another denominator for "denominator"), one per card held. `hand` holds the fraction
    cards held when the card was played (special cards left out); the played card is added if
    missing; None stands for the default deck. Unless `claim_asked` (the play page made the
    student name the rule for every play), same-denominator cards are left out of "equal"
    claims, as the page would have inferred "same denominator" for them; the played card
    always counts. Rules no card fits are left out.
    """
    reference = parse_fraction(reference)
    if claim not in CLAIMS:
        raise ValueError(f"unknown claim {claim!r}; expected one of {CLAIMS}")
    checked = None if played is None else parse_fraction(played)
    cards = _hand_with_played(hand, checked)
    candidates = _candidates(reference, cards, claim, checked, claim_asked)
    counts: dict[str, int] = {}
    for card in candidates:
        for rule_id in tags_for(*reference, *card, claim):
            counts[rule_id] = counts.get(rule_id, 0) + 1
    return {rule_id: counts[rule_id] / len(candidates) for rule_id in RULE_IDS if rule_id in counts}


def reachable_rules(
    reference: FractionValue,
    hand: Iterable[FractionValue] | None,
    played: FractionValue | None = None,
    *,
    claim_asked: bool = False,
) -> frozenset[str]:
    """Return the rules some card in the hand would fit under either claim (the opportunities).

    `claim_asked` is as for chance_rates().
    """
    reference = parse_fraction(reference)
    checked = None if played is None else parse_fraction(played)
    cards = _hand_with_played(hand, checked)
    return frozenset(
        rule_id
        for claim in CLAIMS
        for card in _candidates(reference, cards, claim, checked, claim_asked)
        for rule_id in tags_for(*reference, *card, claim)
    )


def missed_equivalences(
    reference: FractionValue, hand: Iterable[FractionValue]
) -> list[FractionValue]:
    """Return the hand's cards equal to the reference under another denominator.

    A draw while holding one of them is a missed equivalence (the guide's omission signal).
    """
    a, b = parse_fraction(reference)
    return [(c, d) for c, d in (parse_fraction(card) for card in hand) if a * d == b * c and d != b]


@dataclass(frozen=True)
class AttemptEvidence:
    """What one judged play tells about each rule (store it with the attempt)."""

    reference: FractionValue
    played: FractionValue
    claim: str
    tags: tuple[str, ...]
    p0: Mapping[str, float] = field(default_factory=dict)
    opportunities: frozenset[str] = frozenset()

    @property
    def wrong(self) -> bool:
        """Tell whether the claim was wrong (only wrong claims are tagged)."""
        return bool(self.tags)

    def as_dict(self) -> dict[str, object]:
        """Return JSON-ready data (fractions as "a/b", sets as sorted lists)."""
        return {
            "reference": f"{self.reference[0]}/{self.reference[1]}",
            "played": f"{self.played[0]}/{self.played[1]}",
            "claim": self.claim,
            "tags": list(self.tags),
            "p0": dict(self.p0),
            "opportunities": [r for r in RULE_IDS if r in self.opportunities],
        }


def attempt_evidence(
    reference: FractionValue,
    played: FractionValue,
    claim: str,
    hand: Iterable[FractionLike] | None,
    *,
    claim_asked: bool = False,
) -> AttemptEvidence:
    """Tag one judged play and compute its chance rates and opportunities from the hand.

    `claim_asked` is as for chance_rates().
    """
    reference, played = parse_fraction(reference), parse_fraction(played)
    cards = _hand_with_played(hand, played)
    return AttemptEvidence(
        reference=reference,
        played=played,
        claim=claim,
        tags=tuple(classify(reference, played, claim)),
        p0=chance_rates(reference, cards, claim, played, claim_asked=claim_asked),
        opportunities=reachable_rules(reference, cards, played, claim_asked=claim_asked),
    )


def deck_chance_rates(
    cards: Iterable[FractionValue] = DEFAULT_DECK_CARDS, *, different_denominators_only: bool = True
) -> dict[str, float]:
    """Return each rule's share over every wrong "equal" pair of distinct cards of a deck.

    With different_denominators_only (the default) same-denominator pairs are left out, as in
    the research guide's figures. The "how we diagnose" page shows these rates.
    """
    deck = sorted({parse_fraction(c) for c in cards})
    counts: dict[str, int] = {}
    total = 0
    for reference in deck:
        for card in deck:
            if not _wrong(reference, card, CLAIM_EQUAL):
                continue
            if different_denominators_only and reference[1] == card[1]:
                continue
            total += 1
            for rule_id in classify(reference, card, CLAIM_EQUAL):
                counts[rule_id] = counts.get(rule_id, 0) + 1
    if not total:
        return {}
    return {rule_id: counts[rule_id] / total for rule_id in RULE_IDS if rule_id in counts}


__all__ = [
    "DEFAULT_DECK_CARDS",
    "STATUSES",
    "STATUS_EMERGING",
    "STATUS_LABELS",
    "STATUS_LIKELY",
    "STATUS_NONE",
    "STATUS_NOT_POSSIBLE",
    "STATUS_HELD",
    "STATUS_RESOLVED",
    "AttemptEvidence",
    "attempt_evidence",
    "chance_rates",
    "deck_chance_rates",
    "missed_equivalences",
    "reachable_rules",
]
