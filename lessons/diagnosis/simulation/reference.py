"""Diagnose the plain way: the specification the fast model is tested against.

This is the model as first written, before the speed-up of lessons.diagnosis.model (a new
distribution list per claim, every reason term added one by one, every turn checked and
weighed from scratch, no cache). The product never runs it: tests/lessons/diagnosis/
test_model_speedup_equivalence.py compares diagnose() with it, figure for figure, on random
histories and on bad input (the same ValueError message), so a faster model can be trusted to
say what this one says. Histories here have no warm-up turns: a re-check never happens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from games.engine.fractions import parse_fraction

from ..classifier import (
    CLAIM_DENOMINATOR,
    CLAIM_EQUAL,
    RULE_IDS,
    infer_claim,
    judge_claim,
    tags_for,
)
from ..model import (
    ALPHA_EMERGING,
    ALPHA_LIKELY,
    ALPHA_LIKELY_REASONS,
    ALPHA_SHARES,
    EMERGING_MIN_MATCHES,
    LIKELY_MIN_REFERENCES,
    REASON_CHANCE,
    REASON_WEIGHT,
    RESOLVED_MIN_CLEAN,
    TESTED_RULES,
)
from ..reasons import REASON_FOR_RULE, REASONS
from ..stream import DEFAULT_DECK_VALUES

Card = tuple[int, int]


class RefPlay(TypedDict):
    """One checked attempt of a turn."""

    played: Card
    claim: str
    reason: str | None
    correct: bool
    tags: tuple[str, ...]


class RefTurn(TypedDict):
    """One checked turn: its reference (None after a named denominator), hand and attempts."""

    reference: Card | None
    hand: list[Card]
    plays: list[RefPlay]


class RefScore:
    """The distribution of a chance score, kept as a full list of probabilities."""

    def __init__(self) -> None:
        self.probs = [1.0]

    def add(self, p: float) -> None:
        """Add one claim that fits by chance with probability p."""
        old, q = self.probs, 1.0 - p
        self.probs = [x * q + y * p for x, y in zip([*old, 0.0], [0.0, *old], strict=True)]

    def add_with_reason(self, p: float, reason_chance: float, weight: int) -> None:
        """Add one claim with a reason: a fitting reason weighs `weight` more."""
        old = self.probs
        fit_only, fit_reason = p * (1.0 - reason_chance), p * reason_chance
        size = len(old) + 1 + weight
        new = [x * (1.0 - p) for x in old] + [0.0] * (1 + weight)
        for i, x in enumerate(old):
            if x:
                new[i + 1] += x * fit_only
                new[i + 1 + weight] += x * fit_reason
        self.probs = new[:size]

    def tail(self, score: int) -> float:
        """Return the chance of a score at least this high."""
        return 1.0 if score <= 0 else min(1.0, sum(self.probs[score:]))


def ref_deck(deck: object) -> frozenset[Card]:
    """Return the deck's fraction values (the default deck for None)."""
    values = DEFAULT_DECK_VALUES if deck is None else deck
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ValueError(f"deck must be a list of 'a/b' values, not {deck!r}")
    cards = frozenset(ref_fraction(value, "deck") for value in values)
    if not cards:
        raise ValueError("deck has no fraction value")
    return cards


def ref_fraction(value: object, where: str) -> Card:
    """Return a checked fraction 'a/b'."""
    if not isinstance(value, str):
        raise ValueError(f"{where}: fraction {value!r} must be a string 'a/b'")
    try:
        return parse_fraction(value)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def ref_known(value: object, deck: frozenset[Card], where: str) -> Card:
    """Return a checked fraction of the deck in use."""
    card = ref_fraction(value, where)
    if card not in deck:
        raise ValueError(f"{where}: {value!r} is not a fraction of the deck in use")
    return card


def ref_fields(data: object, keys: tuple[str, ...], where: str) -> list[Any]:
    """Return the values of the keys of a dict, refusing anything else."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where} must be a dict, not {type(data).__name__}")
    for key in keys:
        if key not in data:
            raise ValueError(f"{where}: missing key {key!r}")
    return [data[key] for key in keys]


def ref_play(
    data: object, reference: Card | None, denominator: int, deck: frozenset[Card], where: str
) -> RefPlay:
    """Check one attempt and judge it against the reference (or the named denominator)."""
    played_value, claim, asked, reason = ref_fields(
        data, ("played", "claim", "asked", "reason"), where
    )
    played = ref_known(played_value, deck, where)
    if claim is None:
        claim = infer_claim(reference, denominator, played)
    elif claim not in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
        raise ValueError(
            f"{where}: unknown claim {claim!r}; expected 'equal', 'denominator' or None"
        )
    if not isinstance(asked, bool):
        raise ValueError(f"{where}: 'asked' must be true or false, not {asked!r}")
    correct, tags = judge_claim(reference, denominator, played, claim)
    if reason is not None:
        if not isinstance(reason, str) or reason not in REASONS:
            raise ValueError(f"{where}: unknown reason {reason!r}; expected one of {list(REASONS)}")
        if correct or claim != CLAIM_EQUAL or reference is None:
            raise ValueError(f"{where}: a reason is only asked after a wrong 'equal' claim")
    return {"played": played, "claim": claim, "reason": reason, "correct": correct, "tags": tags}


def ref_read_turn(data: object, deck: frozenset[Card], index: int) -> RefTurn:
    """Check one turn dict, raising ValueError with the message diagnose() gives."""
    where = f"turn #{index}"
    number, reference_value, named, hand_value, attempts_value, drew = ref_fields(
        data, ("turn", "reference", "denominator", "hand", "attempts", "drew"), where
    )
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"{where}: 'turn' must be an int, not {number!r}")
    where = f"turn {number}"
    reference = None if reference_value is None else ref_known(reference_value, deck, where)
    if named is None:
        if reference is None:
            raise ValueError(f"{where}: a turn needs a reference or a denominator")
        denominator = reference[1]
    else:
        if not isinstance(named, int) or isinstance(named, bool) or named <= 0:
            raise ValueError(
                f"{where}: 'denominator' must be a positive int or None, not {named!r}"
            )
        if reference is not None and named != reference[1]:
            raise ValueError(
                f"{where}: denominator {named} is not the reference's ({reference[1]})"
            )
        denominator = named
    if not isinstance(hand_value, list | tuple):
        raise ValueError(f"{where}: 'hand' must be a list of 'a/b' values")
    hand = [ref_known(value, deck, f"{where} hand") for value in hand_value]
    if not isinstance(drew, bool):
        raise ValueError(f"{where}: 'drew' must be true or false, not {drew!r}")
    if not isinstance(attempts_value, list | tuple):
        raise ValueError(f"{where}: 'attempts' must be a list")
    plays = [
        ref_play(attempt, reference, denominator, deck, f"{where} attempt {i}")
        for i, attempt in enumerate(attempts_value)
    ]
    if any(play["correct"] for play in plays[:-1]):
        raise ValueError(f"{where}: an accepted play ends the turn; it must be the last attempt")
    return {"reference": reference, "hand": hand, "plays": plays}


def ref_evidence(
    turn: RefTurn,
) -> tuple[dict[str, float], frozenset[str], list[tuple[str, ...]]]:
    """Return the chance rates of the first claim, its opportunities and the probes' tags."""
    reference, plays = turn["reference"], turn["plays"]
    first = plays[0] if plays else None
    p0: dict[str, float] = {}
    if reference is not None:
        cards = list(turn["hand"])
        if first is not None and first["played"] not in cards:
            cards.append(first["played"])
        a, b = reference
        options = [tags_for(a, b, c, d, CLAIM_EQUAL) for c, d in cards if a * d != b * c]
        counts: dict[str, int] = {}
        for tags in options:
            for rule in tags:
                counts[rule] = counts.get(rule, 0) + 1
        p0 = {rule: count / len(options) for rule, count in counts.items()}
    probes = [play["tags"] for play in plays[1:] if not play["correct"]]
    return p0, frozenset(p0), probes


class RefTrack:
    """What the turns so far say about one rule."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.k = self.score = 0
        self.expected = 0.0
        self.references: set[Card] = set()
        self.without_reasons, self.with_reasons = RefScore(), RefScore()
        self.fitting_reasons = self.contradicting_reasons = self.other_reasons = 0
        self.reasons_seen = self.opportunities = self.clean = self.clean_run = self.probes = 0
        self.likely_at: int | None = None

    def weigh(self) -> bool:
        """Tell whether reasons count: some seen, and not mostly contradicting the rule."""
        return (
            self.reasons_seen > 0
            and self.contradicting_reasons <= REASON_CHANCE * self.other_reasons + 1
        )

    def level(self, alpha: float) -> float:
        """Return the error rate a p-value is held to (stricter when reasons count)."""
        return alpha * ALPHA_LIKELY_REASONS / ALPHA_LIKELY if self.weigh() else alpha

    def p_value(self) -> float:
        """Return the chance of a score at least this high (with reasons when they count)."""
        if self.weigh():
            return self.with_reasons.tail(self.score)
        return self.without_reasons.tail(self.k)

    def clean_needed(self) -> int | None:
        """Return the clean plays a likely rule needs to be re-checked (None if not likely)."""
        # No warm-up turns in these histories: a re-check would need its offers, none taken.
        return None if self.likely_at is None else RESOLVED_MIN_CLEAN


class RefDiagnosis:
    """The model before the speed-up, as plainly as it was written."""

    def __init__(self, deck: object = None) -> None:
        """Start with no turns, for a deck (the default deck for None)."""
        self.deck = ref_deck(deck)
        values = sorted(self.deck)
        self.possible = {
            rule
            for a, b in values
            for c, d in values
            if (a, b) != (c, d)
            for claim in (CLAIM_EQUAL, CLAIM_DENOMINATOR)
            for rule in tags_for(a, b, c, d, claim)
        }
        self.tested = tuple(r for r in TESTED_RULES if r in self.possible)
        shares = {rule: ALPHA_SHARES.get(rule, 1) for rule in self.tested}
        total = sum(shares.values()) or 1
        self.alpha = {rule: ALPHA_LIKELY * share / total for rule, share in shares.items()}
        self.tracks = {rule: RefTrack(rule) for rule in RULE_IDS}
        self.turns = self.wrong_equal = self.wrong_first = 0

    def add(self, data: object) -> None:
        """Read one more turn."""
        turn = ref_read_turn(data, self.deck, self.turns)
        p0, opportunities, probes = ref_evidence(turn)
        plays, reference = turn["plays"], turn["reference"]
        first = plays[0] if plays else None
        self.turns += 1
        for tags in probes:
            for rule in tags:
                self.tracks[rule].probes += 1
        if first is None:
            return
        if not first["correct"]:
            self.wrong_first += 1
            if first["claim"] == CLAIM_DENOMINATOR:
                self.tracks["D1"].k += 1
                self.tracks["D1"].expected += 1.0
        wrong_equal = reference is not None and first["claim"] == CLAIM_EQUAL
        wrong_equal = wrong_equal and not first["correct"]
        fitted = first["tags"] if wrong_equal else ()
        if wrong_equal:
            self.wrong_equal += 1
            for rule, p in p0.items():
                self.weigh(self.tracks[rule], p, rule in fitted, first["reason"], reference)
        for rule in opportunities:
            track = self.tracks[rule]
            track.opportunities += 1
            if rule in fitted:
                track.clean_run = 0
            elif first["correct"]:
                track.clean += 1
                track.clean_run += 1

    def weigh(
        self, track: RefTrack, p: float, fits: bool, reason: str | None, reference: Card | None
    ) -> None:
        """Weigh one wrong 'equal' claim for one rule with chance rate p."""
        track.expected += p
        track.without_reasons.add(p)
        code = REASON_FOR_RULE.get(track.rule)
        if reason is not None and code is not None:
            track.with_reasons.add_with_reason(p, REASON_CHANCE, REASON_WEIGHT)
            track.reasons_seen += 1
            if fits and reason == code:
                track.fitting_reasons += 1
            elif not fits:
                track.other_reasons += 1
                track.contradicting_reasons += reason == code
        else:
            track.with_reasons.add(p)
        if not fits:
            return
        track.k += 1
        track.score += 1 + (REASON_WEIGHT if reason == code and code is not None else 0)
        if reference is not None:
            track.references.add(reference)
        if (
            track.likely_at is None
            and track.rule in self.alpha
            and len(track.references) >= LIKELY_MIN_REFERENCES
            and track.p_value() <= track.level(self.alpha[track.rule])
        ):
            track.likely_at = self.turns - 1

    def status(self, rule: str) -> str:
        """Return the rule's status after the turns read so far."""
        if rule not in self.possible:
            return "not_possible"
        if rule not in self.tested:
            return "none"
        track = self.tracks[rule]
        if track.likely_at is not None:
            # Game turns alone never resolve a rule (a warm-up re-check is needed): these
            # histories have no warm-up turns.
            return "likely"
        if track.k >= EMERGING_MIN_MATCHES and track.p_value() <= ALPHA_EMERGING:
            return "emerging"
        return "none"

    def result(self) -> dict[str, dict[str, Any]]:
        """Return every rule's figures, as diagnose() gives them."""
        out = {}
        for rule in RULE_IDS:
            track = self.tracks[rule]
            n = self.wrong_first if rule == "D1" else self.wrong_equal
            p_value = None if rule == "D1" or not n else track.p_value()
            out[rule] = {
                "status": self.status(rule),
                "k": track.k,
                "expected": round(track.expected, 6),
                "n": n,
                "p_value": p_value,
                "alpha": track.level(self.alpha[rule]) if rule in self.alpha else None,
                "references": len(track.references),
                "reasons": track.fitting_reasons if track.weigh() else 0,
                "opportunities": track.opportunities,
                "clean_run": track.clean_run,
                "clean_needed": track.clean_needed(),
                "likely_at_turn": track.likely_at,
                "probes": track.probes,
                "recheck_offers": 0,
                "recheck_taken": 0,
                "rechecked_at_turn": None,
            }
        return out


def ref_diagnose(turns: list[Any], deck: object = None) -> dict[str, dict[str, Any]]:
    """Return every rule's figures for the turns, as diagnose() gives them."""
    diagnosis = RefDiagnosis(deck)
    for data in turns:
        diagnosis.add(data)
    return diagnosis.result()
