"""diagnose(): one student's turns in, each rule's status out (pure; the one public entry point).

The status model (docs/diagnosis.md gives the figures bench/diagnosis.py measures):

- **Evidence.** The first claim of each turn (lessons.diagnosis.stream). A rule's score is the
  number of wrong "equal" first claims that fit it, plus REASON_WEIGHT for each of those whose
  student-given reason names the rule. Under "no habit" (each wrong play a card drawn at random
  from the student's wrong options, each reason a random answer among len(REASONS)) the score's
  distribution is exact (a Poisson-binomial with reason terms): its upper tail at the observed
  score is the rule's p-value. A reason counts only on a card that fits the rule it names, and
  only while the student names that rule on cards that do not fit it no more often than a
  random answer would (REASON_CHANCE of those reasons, plus one): a child who always gives the
  same answer is not read as giving evidence. That check reads the reasons given on the other
  cards only, so it does not pick the test by its result.
- **likely**: p-value <= the rule's share of ALPHA_LIKELY (a weighted Bonferroni over the
  rules the deck can show: M1, M2 and M3, the best-backed rules and the ones the reason prompt
  names, get ALPHA_SHARES each, every other rule one share; ALPHA_LIKELY is the per-look family
  level, chosen by simulation so that a student without any misconception is shown "likely"
  for some rule within 60 turns at most 2% of the time, status looked at after every play;
  ALPHA_LIKELY_REASONS replaces it while the student's reasons weigh for the rule),
  with fitting claims on at least
  LIKELY_MIN_REFERENCES different reference fractions. Once likely, a rule stays likely until
  resolved.
- **emerging**: not likely, p-value <= ALPHA_EMERGING for this rule alone, at least 2 fitting
  claims. Beyond chance at a loose level: a hint to watch, not a diagnosis.
- **resolved**: only a rule that was likely, and only after a clean **re-check**: in a warm-up
  round later than the rule's becoming likely (or its last fitting claim outside a re-check),
  its trap was offered n times and taken k times, and a habit of HABIT_FLOOR (30%) or more
  would have been taken more often with chance at least 1 - RESOLVED_MISS:
  P(Binomial(n, HABIT_FLOOR) <= k) <= RESOLVED_MISS (none taken: 13 offers; one: 20). One slip
  does not sink a re-check, and the test does not lean on the habit rate estimated from the
  evidence that made the rule likely (that estimate is biased upwards by the selection).
  Clean game turns alone never resolve a rule: a card held in a hand is not a trap the student
  was asked about (VanLehn: bugs come and go, so a habit is checked again before it is called
  gone). A fitting claim after "resolved" makes it likely again, and a later round checks again.
- M0 (an umbrella) and U (no rule fits) describe plays, not students: always "none". D1 (a
  wrong "same denominator" claim) has no chance model to beat: its k is shown, its status is
  always "none". Rules no pair of the deck's values can show are "not_possible".
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Final

from .chance import ChanceScore, binomial_cdf
from .classifier import CLAIM_DENOMINATOR, CLAIM_EQUAL, RULE_IDS, tags_for
from .evidence import (
    STATUS_EMERGING,
    STATUS_HELD,
    STATUS_LIKELY,
    STATUS_NONE,
    STATUS_NOT_POSSIBLE,
    STATUS_RESOLVED,
)
from .reasons import REASON_FOR_RULE, REASONS
from .stream import Turn, chance_rates_of, deck_values, read_turn

Card = tuple[int, int]

DIAGNOSIS_STATUSES: Final = (
    STATUS_LIKELY,
    STATUS_EMERGING,
    STATUS_RESOLVED,
    STATUS_HELD,
    STATUS_NONE,
    STATUS_NOT_POSSIBLE,
)

# The model's levels (see the module docstring; bench/diagnosis.py measures what they give).
ALPHA_LIKELY: Final = 0.008
# The score with reasons jumps by 1 + REASON_WEIGHT at once: watched after every play, it
# crosses a level more often than the score without, so it gets its own (stricter) level.
ALPHA_LIKELY_REASONS: Final = 0.004
ALPHA_EMERGING: Final = 0.01
# The error rate the levels were chosen for (bench/diagnosis.py measures it): a student without
# any misconception is shown "likely" for some rule within FALSE_LIKELY_TURNS turns at most
# this often, statuses looked at after every play.
FALSE_LIKELY_GOAL: Final = 0.02
FALSE_LIKELY_TURNS: Final = 60
ALPHA_SHARES: Final[dict[str, int]] = {"M1": 3, "M2": 3, "M3": 3}
LIKELY_MIN_REFERENCES: Final = 2
EMERGING_MIN_MATCHES: Final = 2
REASON_WEIGHT: Final = 2
REASON_CHANCE: Final = 1 / len(REASONS)
# The smallest habit rate the warm-up is built to find and to rule out: a re-check resolves a
# rule when a habit of this rate would have been taken more often with chance 1 - RESOLVED_MISS
# (looked at after every offer; bench/diagnosis.py measures the false "resolved" it gives).
HABIT_FLOOR: Final = 0.3
RESOLVED_MISS: Final = 0.01
# The fewest offers a re-check needs (none taken), from the two above.
RESOLVED_MIN_CLEAN: Final = next(
    n for n in range(1, 1000) if binomial_cdf(0, n, HABIT_FLOOR) <= RESOLVED_MISS
)

# "held": a later re-check round passed that began at least this long after the round that
# resolved the rule (elapsed time between the two rounds' first answers, whatever the offsets).
HELD_MIN_DAYS: Final = 7
HELD_MIN_GAP: Final = timedelta(days=HELD_MIN_DAYS)

# Rules that describe plays, not students, or have no chance model: never a status.
UNTESTED_RULES: Final = frozenset({"M0", "U", "D1"})
TESTED_RULES: Final[tuple[str, ...]] = tuple(r for r in RULE_IDS if r not in UNTESTED_RULES)


def possible_rules(deck: Iterable[Card]) -> frozenset[str]:
    """Return the rules some ordered pair of distinct deck values can show."""
    return _possible_rules(frozenset(deck))


@lru_cache(maxsize=16)
def _possible_rules(deck: frozenset[Card]) -> frozenset[str]:
    # Every Diagnosis asks (one per student on a class dashboard): the deck rarely changes.
    values = sorted(deck)
    found: set[str] = set()
    for a, b in values:
        for c, d in values:
            if (a, b) == (c, d):
                continue
            for claim in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
                found.update(tags_for(a, b, c, d, claim))
    return frozenset(found)


class _Track:
    """One rule's running evidence."""

    __slots__ = (
        "checks",
        "clean",
        "clean_run",
        "check_from",
        "held_at",
        "later_offers",
        "later_round",
        "later_taken",
        "later_turn",
        "resolved_round",
        "recheck_offers",
        "recheck_round",
        "recheck_taken",
        "rechecked_at",
        "contradicting_reasons",
        "expected",
        "fitting_reasons",
        "other_reasons",
        "reasons_seen",
        "k",
        "likely_at",
        "opportunities",
        "probes",
        "references",
        "rule",
        "score",
        "with_reasons",
        "without_reasons",
    )

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.k = 0
        self.score = 0
        self.expected = 0.0
        self.references: set[Card] = set()
        self.without_reasons = ChanceScore()
        # The same distribution until the first reason: built (a copy) only then.
        self.with_reasons: ChanceScore | None = None
        self.fitting_reasons = 0
        self.contradicting_reasons = 0
        self.other_reasons = 0
        self.reasons_seen = 0
        self.opportunities = 0
        self.clean = 0
        self.clean_run = 0
        self.probes = 0
        self.likely_at: int | None = None
        # Re-checks: warm-up rounds after `check_from` check the rule again; the current one's
        # round, trap offers and traps taken; the turn that completed a clean re-check.
        self.check_from = 0
        self.recheck_round = 0
        self.recheck_offers = 0
        self.recheck_taken = 0
        self.rechecked_at: int | None = None
        # After "resolved": the round that resolved it; the current later re-check round (its
        # number, trap offers, traps taken, last answer), judged as a whole when it ends; the
        # turn that completed the round giving "held"; the rounds that passed (for the words).
        self.resolved_round = 0
        self.later_round = 0
        self.later_offers = self.later_taken = 0
        self.later_turn = 0
        self.held_at: int | None = None
        self.checks: list[dict[str, object]] = []

    @property
    def reasons_weigh(self) -> bool:
        """Tell whether this student's reasons for the rule are read as evidence."""
        # Not "some reason fitted": choosing the test by whether reasons helped would not be fair.
        return (
            self.reasons_seen > 0
            and self.contradicting_reasons <= REASON_CHANCE * self.other_reasons + 1
        )

    def level(self, alpha: float) -> float:
        """Return the level "likely" needs now (`alpha`: the rule's share without reasons)."""
        return alpha * ALPHA_LIKELY_REASONS / ALPHA_LIKELY if self.reasons_weigh else alpha

    def p_value(self) -> float:
        if self.reasons_weigh and self.with_reasons is not None:
            return self.with_reasons.tail(self.score)
        return self.without_reasons.tail(self.k)

    def clean_needed(self) -> int | None:
        """Return the offers the current re-check needs in all, given the traps taken in it."""
        if self.likely_at is None:
            return None
        return recheck_needed(self.recheck_taken)


def recheck_needed(taken: int) -> int:
    """Return the fewest trap offers a re-check with `taken` traps taken needs to resolve."""
    return _recheck_needed(taken)


@lru_cache(maxsize=64)
def _recheck_needed(taken: int) -> int:
    n = max(taken + 1, RESOLVED_MIN_CLEAN)
    while binomial_cdf(taken, n, HABIT_FLOOR) > RESOLVED_MISS:
        n += 1
    return n


class Diagnosis:
    """One student's diagnosis, fed one turn at a time (oldest first).

    diagnose() feeds every turn and reads result(); the calibration bench reads status()
    after every turn, which is the same model without rebuilding it per play.
    """

    def __init__(self, deck: object = None) -> None:
        self.deck = deck_values(deck)
        self.possible = possible_rules(self.deck)
        self.tested = tuple(r for r in TESTED_RULES if r in self.possible)
        shares = {rule: ALPHA_SHARES.get(rule, 1) for rule in self.tested}
        total = sum(shares.values()) or 1
        self.alpha = {rule: ALPHA_LIKELY * share / total for rule, share in shares.items()}
        self.tracks = {rule: _Track(rule) for rule in RULE_IDS}
        self.turns = 0
        self.wrong_equal = 0
        self.wrong_first = 0
        self.wrong_denominator = 0
        # Warm-up rounds seen: a probe turn after a game turn, or with another "round", starts one.
        self.rounds = 0
        self._last_probe: tuple[bool, object] = (False, None)
        # Each round's first answer's time (None: the round's turns carry no "at"), from round 1.
        self.round_at: list[datetime | None] = [None]

    def add(self, data: object) -> None:
        """Check one turn dict (ValueError if bad) and add it to the evidence."""
        self.add_turn(read_turn(data, self.deck, self.turns))

    def add_turn(self, turn: Turn) -> None:
        """Add one checked turn to the evidence (what stream.turn_evidence reads of it)."""
        # turn_evidence() inlined: a class dashboard adds thousands of turns, and building a
        # TurnEvidence per turn cost more than weighing it.
        plays = turn.plays
        tracks = self.tracks
        self.turns += 1
        probe = turn.probe
        if probe and self._last_probe != (True, turn.round):
            self.rounds += 1
            self.round_at.append(turn.at)
        self._last_probe = (probe, turn.round)
        if not plays:
            return
        for play in plays[1:]:
            if not play.correct:
                for rule in play.tags:
                    tracks[rule].probes += 1
        first = plays[0]
        correct = first.correct
        if not correct:
            self._count_wrong_first(first.claim)
        reference = turn.reference
        if reference is None:
            return
        cards = turn.hand
        if first.played not in cards:
            # A card drawn during the turn, or a snapshot taken after the play: it was an option.
            cards = (*cards, first.played)
        p0, opportunities = chance_rates_of(reference, cards)
        fitted: tuple[str, ...] = ()
        if not correct and first.claim == CLAIM_EQUAL:
            fitted = first.tags
            self.wrong_equal += 1
            for rule, p in p0.items():
                self._weigh(tracks[rule], p, rule in fitted, first.reason, reference)
        self._count_offers(opportunities, fitted, correct, probe)

    def _count_wrong_first(self, claim: str | None) -> None:
        """Count a wrong first claim (a wrong "denominator" claim is D1's evidence)."""
        self.wrong_first += 1
        if claim == CLAIM_DENOMINATOR:
            self.wrong_denominator += 1
            d1 = self.tracks["D1"]
            d1.k += 1
            d1.expected += 1.0

    def _count_offers(
        self, opportunities: Iterable[str], fitted: tuple[str, ...], correct: bool, probe: bool
    ) -> None:
        """Count a turn whose hand offered a trap of each rule: clean, taken, or a re-check."""
        tracks = self.tracks
        for rule in opportunities:
            track = tracks[rule]
            track.opportunities += 1
            fits = rule in fitted
            if fits:
                track.clean_run = 0
            elif correct:
                track.clean += 1
                track.clean_run += 1
            if track.likely_at is None:
                continue
            if track.later_round and track.later_round != self.rounds:
                self._settle(track)
            if probe and self.rounds > track.check_from:
                if track.rechecked_at is not None and self._timed_later_round(track):
                    self._later_check(track, fits)
                else:
                    self._recheck(track, fits)
            elif fits:  # outside a re-check: a later round checks again
                self._restart_check(track)

    def _restart_check(self, track: _Track, check_from: int | None = None) -> None:
        track.check_from = self.rounds if check_from is None else check_from
        track.recheck_offers = track.recheck_taken = 0
        track.rechecked_at = None
        track.later_round = 0
        track.held_at = None
        track.checks = []

    def _timed_later_round(self, track: _Track) -> bool:
        """Tell whether this round is after the resolving one and both carry their time."""
        return (
            self.rounds > track.resolved_round
            and self.round_at[self.rounds] is not None
            and self.round_at[track.resolved_round] is not None
        )

    def _later_check(self, track: _Track, fits: bool) -> None:
        """Count a trap offer of a re-check round after "resolved" (judged when it ends)."""
        if track.later_round != self.rounds:
            track.later_round = self.rounds
            track.later_offers = track.later_taken = 0
        track.later_offers += 1
        track.later_taken += fits
        track.later_turn = self.turns - 1

    def _later_verdict(self, track: _Track) -> str | None:
        """Judge the later round's offers as a whole: "passed", "failed" (a trap taken) or None."""
        if not track.later_round:
            return None
        if binomial_cdf(track.later_taken, track.later_offers, HABIT_FLOOR) <= RESOLVED_MISS:
            return "passed"
        return "failed" if track.later_taken else None

    def _held_by_later(self, track: _Track) -> bool:
        """Tell whether the later round began at least HELD_MIN_GAP after the resolving one."""
        start = self.round_at[track.later_round]
        resolved = self.round_at[track.resolved_round]
        return start is not None and resolved is not None and start - resolved >= HELD_MIN_GAP

    def _settle(self, track: _Track) -> None:
        """Apply the verdict of the later round that just ended: held, relapse, or nothing."""
        verdict = self._later_verdict(track)
        if verdict == "passed":
            track.checks.append(
                self._check(track.later_round, track.later_offers, track.later_taken)
            )
            if track.held_at is None and self._held_by_later(track):
                track.held_at = track.later_turn
        elif verdict == "failed":
            # A relapse: likely again; rounds after this one check again.
            self._restart_check(track, track.later_round)
        track.later_round = 0

    def _check(self, round_number: int, offers: int, taken: int) -> dict[str, object]:
        at = self.round_at[round_number]
        return {"at": None if at is None else at.isoformat(), "offers": offers, "taken": taken}

    def _recheck(self, track: _Track, fits: bool) -> None:
        """Count a trap offer of a re-check round; resolve once a habit is ruled out."""
        if track.recheck_round != self.rounds:
            track.recheck_round = self.rounds
            track.recheck_offers = track.recheck_taken = 0
        if fits and track.rechecked_at is not None:
            self._restart_check(track)  # resolved, then the trap taken: likely again
            return
        track.recheck_offers += 1
        track.recheck_taken += fits
        if (
            track.rechecked_at is None
            and binomial_cdf(track.recheck_taken, track.recheck_offers, HABIT_FLOOR)
            <= RESOLVED_MISS
        ):
            track.rechecked_at = self.turns - 1
            track.resolved_round = self.rounds

    def _weigh(
        self, track: _Track, p: float, fits: bool, reason: str | None, reference: Card | None
    ) -> None:
        track.expected += p
        code = REASON_FOR_RULE.get(track.rule)
        if reason is not None and code is not None:
            if track.with_reasons is None:
                track.with_reasons = track.without_reasons.copy()
            track.with_reasons.add_with_reason(p, REASON_CHANCE, REASON_WEIGHT)
            track.reasons_seen += 1
        elif track.with_reasons is not None:
            track.with_reasons.add(p)
        track.without_reasons.add(p)
        if reason is not None and code is not None:
            if fits and reason == code:
                track.fitting_reasons += 1
            elif not fits:
                track.other_reasons += 1
                track.contradicting_reasons += reason == code
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
            track.check_from = self.rounds

    def status(self, rule: str) -> str:
        """Return the rule's status now."""
        if rule not in self.possible:
            return STATUS_NOT_POSSIBLE
        if rule not in self.tested:
            return STATUS_NONE
        track = self.tracks[rule]
        if track.likely_at is not None:
            return self._checked_status(track)
        if track.k >= EMERGING_MIN_MATCHES and track.p_value() <= ALPHA_EMERGING:
            return STATUS_EMERGING
        return STATUS_NONE

    def _checked_status(self, track: _Track) -> str:
        """Return a likely rule's status: likely, resolved or held (the ongoing round judged)."""
        if track.rechecked_at is None:
            return STATUS_LIKELY
        verdict = self._later_verdict(track)
        if verdict == "failed":
            return STATUS_LIKELY
        if track.held_at is not None or (verdict == "passed" and self._held_by_later(track)):
            return STATUS_HELD
        return STATUS_RESOLVED

    def checks(self, rule: str) -> list[dict[str, object]]:
        """Return the re-check rounds that passed since the rule was last likely, oldest first.

        Each: "at" (the round's first answer, ISO 8601, or None), "offers" (the rule's trap
        offered) and "taken"; the resolving round first, then each later round that passed
        (the ongoing one too, once its offers pass).
        """
        track = self.tracks[rule]
        if track.likely_at is None or track.rechecked_at is None:
            return []
        done = [self._check(track.resolved_round, track.recheck_offers, track.recheck_taken)]
        done += track.checks
        if self._later_verdict(track) == "passed":
            done.append(self._check(track.later_round, track.later_offers, track.later_taken))
        return done

    def held_at_turn(self, rule: str) -> int | None:
        """Return the index of the answer that completed the round giving "held", or None."""
        track = self.tracks[rule]
        if self.status(rule) != STATUS_HELD:
            return None
        return track.held_at if track.held_at is not None else track.later_turn

    def result(self) -> dict[str, dict[str, object]]:
        """Return every rule's status and figures, in RULE_IDS order."""
        out: dict[str, dict[str, object]] = {}
        for rule in RULE_IDS:
            track = self.tracks[rule]
            if rule == "D1":
                n = self.wrong_first
                p_value: float | None = None
            else:
                n = self.wrong_equal
                p_value = track.p_value() if n else None
            out[rule] = {
                "status": self.status(rule),
                "k": track.k,
                "expected": round(track.expected, 6),
                "n": n,
                "p_value": p_value,
                "alpha": track.level(self.alpha[rule]) if rule in self.alpha else None,
                "references": len(track.references),
                "reasons": track.fitting_reasons if track.reasons_weigh else 0,
                "opportunities": track.opportunities,
                "clean_run": track.clean_run,
                "clean_needed": track.clean_needed(),
                "likely_at_turn": track.likely_at,
                "probes": track.probes,
                "recheck_offers": track.recheck_offers,
                "recheck_taken": track.recheck_taken,
                "rechecked_at_turn": track.rechecked_at,
                "held_at_turn": self.held_at_turn(rule),
                "checks": self.checks(rule),
            }
        return out


def diagnose(turns: object, deck: object = None) -> dict[str, dict[str, object]]:
    """Return each rule's status and evidence for one student's turns (oldest first).

    `turns`: dicts {"turn", "reference" ("a/b" or None), "denominator" (int or None), "hand"
    (["a/b", ...], fraction cards before acting), "attempts" ([{"played", "claim" ("equal",
    "denominator" or None), "asked" (bool), "reason" (a REASONS code or None)}, ...], refused
    ones first), "drew" (bool)}. `deck`: the deck's fraction values ("a/b"), default the
    default deck. Per rule ID: "status" (likely / emerging / resolved / held / none / not_possible),
    "k" (wrong first claims fitting it), "expected" (what chance alone gives), "n" (wrong
    claims considered), "p_value" (chance of a score at least this high), "alpha" (the level
    "likely" needs), "references", "reasons" (fitting reasons counted), "opportunities",
    "clean_run" (clean opportunities in a row, game and warm-up), "clean_needed" (trap offers
    the current re-check needs in all, given the traps taken in it; None unless likely),
    "likely_at_turn" (its index in `turns`), "probes" (later tries of a turn that fit it;
    never weighed), "recheck_offers" and "recheck_taken" (the current or last re-check round:
    the rule's trap offered, taken), "rechecked_at_turn" (index in `turns` of the warm-up answer
    that completed the clean re-check: "we checked again on <its date>"; None unless resolved
    or held), "held_at_turn" (index of the last answer of the later re-check round that gave
    "held"; None unless held), "checks" (the re-check rounds that passed since the rule was
    last likely: [{"at", "offers", "taken"}], the resolving one first). A turn may carry "at",
    the time of the claim (ISO 8601 with its offset): only timed rounds can give "held".
    Warm-up answers are turns with "source": "probe" (stream.py). Bad input raises ValueError.
    """
    diagnosis = Diagnosis(deck)
    if isinstance(turns, str | bytes | dict) or not isinstance(turns, list | tuple):
        raise ValueError("turns must be a list of turn dicts, oldest first")
    for data in turns:
        diagnosis.add(data)
    return diagnosis.result()


__all__ = [
    "ALPHA_EMERGING",
    "ALPHA_LIKELY",
    "ALPHA_LIKELY_REASONS",
    "ALPHA_SHARES",
    "HABIT_FLOOR",
    "DIAGNOSIS_STATUSES",
    "EMERGING_MIN_MATCHES",
    "FALSE_LIKELY_GOAL",
    "FALSE_LIKELY_TURNS",
    "HELD_MIN_DAYS",
    "HELD_MIN_GAP",
    "LIKELY_MIN_REFERENCES",
    "REASON_CHANCE",
    "REASON_WEIGHT",
    "RESOLVED_MIN_CLEAN",
    "RESOLVED_MISS",
    "STATUS_NOT_POSSIBLE",
    "TESTED_RULES",
    "UNTESTED_RULES",
    "Diagnosis",
    "diagnose",
    "possible_rules",
    "recheck_needed",
]
