"""Choose the warm-up's next item for one student, or stop (pure, seeded, no Django).

probe_next() reads the student's turns (game turns and warm-up answers, diagnose()'s format),
runs the status model on them, and looks at each rule the warm-up decides (bank.PROBE_RULES
that the level's items offer):

- **decided "likely"**: the model says likely (every page reads the same status). A rule that
  was likely before this round is being checked again: it is decided once resolved (a clean
  re-check, model.py) or once the re-check can no longer pass within the cap (traps taken);
- **decided "clear"**: in this round its trap was offered n times and taken k times, and a habit
  of at least CLEAR_HABIT would have been taken more often than that with chance at least
  1 - CLEAR_RISK (binomial lower tail P(X <= k | n, CLEAR_HABIT) <= CLEAR_RISK). A competent
  student is clear of a rule after 11 clean offers.

The round stops (None) when every such rule is decided or ROUND_CAP items were answered.
Otherwise the next item is the bank item offering the most undecided rules, with a reference
not yet shown in this round when there is one (a "likely" status needs fits on two different
references), an item not yet shown, ties broken by the seeded draw. The options come in a
seeded random order. The same turns, level and seed always give the same item.

The current round: probe turns carry an optional "round" (a warm-up's id). With `round_id`
given, the round's turns are the probe turns with that id (none yet: a new round); without it,
the trailing run of probe turns that share the last one's id.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .bank import PROBE_RULES, Item, items_for
from .chance import binomial_cdf
from .classifier import CLAIM_EQUAL, tags_for
from .evidence import STATUS_HELD, STATUS_LIKELY, STATUS_RESOLVED
from .model import HABIT_FLOOR, RESOLVED_MISS, Diagnosis, recheck_needed
from .stream import Turn, read_turn

Card = tuple[int, int]

ROUND_CAP: Final = 24
# The smallest habit rate the warm-up is built to find, and the risk of calling a student with
# such a habit clear of it in one round.
CLEAR_HABIT: Final = HABIT_FLOOR
CLEAR_RISK: Final = 0.02


def habit_excluded(taken: int, offered: int) -> bool:
    """Tell whether a habit of CLEAR_HABIT or more is excluded: P(X <= taken) <= CLEAR_RISK."""
    return offered > 0 and binomial_cdf(taken, offered, CLEAR_HABIT) <= CLEAR_RISK


class _Round:
    """What the current round showed each rule: items offering its trap, traps taken."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.offered = dict.fromkeys(PROBE_RULES, 0)
        self.taken = dict.fromkeys(PROBE_RULES, 0)
        self.references: dict[Card, int] = {}
        self.shown: set[tuple[Card, frozenset[Card]]] = set()
        for turn in turns:
            reference, first = turn.reference, turn.first
            if reference is None or first is None:  # never for a checked probe turn
                continue
            self.references[reference] = self.references.get(reference, 0) + 1
            self.shown.add((reference, frozenset(turn.hand)))
            offered = {r for card in turn.hand for r in tags_for(*reference, *card, CLAIM_EQUAL)}
            for rule in PROBE_RULES:
                if rule in offered:
                    self.offered[rule] += 1
                    self.taken[rule] += rule in first.tags


def _current_round(turns: list[Turn], round_id: str | int | None) -> tuple[int, list[Turn]]:
    """Return the index of the round's first turn (len(turns) for a new round) and its turns."""
    if round_id is not None:
        indexes = [i for i, t in enumerate(turns) if t.probe and t.round == round_id]
        return (indexes[0] if indexes else len(turns)), [turns[i] for i in indexes]
    start = len(turns)
    while (
        start > 0
        and turns[start - 1].probe
        and (start == len(turns) or turns[start - 1].round == turns[start].round)
    ):
        start -= 1
    return start, turns[start:]


def _undecided(
    diagnosis: Diagnosis, this_round: _Round, rules: Sequence[str], first_index: int, items: int
) -> list[str]:
    """Return the rules still undecided in this round (see the module docstring)."""
    undecided = []
    for rule in rules:
        if rule not in diagnosis.tested:
            continue
        status = diagnosis.status(rule)
        track = diagnosis.tracks[rule]
        if status in (STATUS_RESOLVED, STATUS_HELD) or (
            status == STATUS_LIKELY and track.rechecked_at is not None
        ):
            # Resolved before (a trap taken in this later round reads "likely" until it ends).
            if _checking_again(diagnosis, rule, items):
                undecided.append(rule)
            continue
        if status == STATUS_LIKELY:
            # Likely in this round: decided. Likely from before: this round checks it again
            # until resolved or until the check can no longer pass within the cap.
            assert track.likely_at is not None
            if track.likely_at >= first_index or (
                items > 0 and track.check_from >= diagnosis.rounds
            ):
                continue  # found, or taken again, in this round: a later round checks it
            ongoing = items > 0 and track.recheck_round == diagnosis.rounds
            offers = track.recheck_offers if ongoing else 0
            taken = track.recheck_taken if ongoing else 0
            if recheck_needed(taken) - offers > ROUND_CAP - items:
                continue
            undecided.append(rule)
            continue
        if habit_excluded(this_round.taken[rule], this_round.offered[rule]):
            continue
        undecided.append(rule)
    return undecided


def _checking_again(diagnosis: Diagnosis, rule: str, items: int) -> bool:
    """Tell whether this round checks a resolved (or held) rule again, and is not done yet.

    A round after the resolving one offers a resolved rule's trap until its offers pass the
    resolving standard (then "held" once a week has passed) or can no longer pass within the
    cap; a held rule only while a trap taken in this round needs more offers to be judged.
    """
    track = diagnosis.tracks[rule]
    if diagnosis.round_at[track.resolved_round] is None:
        return False  # untimed: no "held" to check for, a resolved rule is decided
    if items > 0 and track.resolved_round == diagnosis.rounds:
        return False  # resolved in this round
    ongoing = items > 0 and track.later_round == diagnosis.rounds
    offers = track.later_offers if ongoing else 0
    taken = track.later_taken if ongoing else 0
    if track.held_at is not None and not taken:
        return False
    if offers and binomial_cdf(taken, offers, HABIT_FLOOR) <= RESOLVED_MISS:
        return False
    return recheck_needed(taken) - offers <= ROUND_CAP - items


class WarmUp:
    """One student's warm-up, fed one turn at a time: probe_next() without re-reading.

    probe_next() feeds every turn and asks next_item(); the calibration bench feeds each
    answer as it comes (the same model, without rebuilding it per item).
    """

    def __init__(
        self, *, level: str = "full", seed: int = 0, round_id: str | int | None = None
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, not {seed!r}")
        if isinstance(round_id, bool) or not isinstance(round_id, str | int | None):
            raise ValueError(f"round_id must be a string, an int or None, not {round_id!r}")
        self.bank = items_for(level)
        self.rules = [r for r in PROBE_RULES if any(item.trap_for(r) for item in self.bank)]
        self.seed = seed
        self.round_id = round_id
        self.diagnosis = Diagnosis()
        self.turns: list[Turn] = []

    def add(self, data: object) -> None:
        """Check one turn dict (ValueError if bad) and add it to the evidence."""
        self.add_turn(read_turn(data, self.diagnosis.deck, len(self.turns)))

    def add_turn(self, turn: Turn) -> None:
        """Add one checked turn (stream.read_turn's) to the evidence."""
        self.diagnosis.add_turn(turn)
        self.turns.append(turn)

    def round_turns(self) -> list[Turn]:
        """Return the current round's turns."""
        return _current_round(self.turns, self.round_id)[1]

    def next_item(self) -> dict[str, object] | None:
        """Return the next item, or None when the round should stop."""
        first_index, current = _current_round(self.turns, self.round_id)
        if len(current) >= ROUND_CAP:
            return None
        this_round = _Round(current)
        undecided = _undecided(self.diagnosis, this_round, self.rules, first_index, len(current))
        if not undecided:
            return None
        rng = random.Random(f"warm-up:{self.seed}:{len(current)}")
        item = _choose(self.bank, undecided, this_round, rng)
        options = list(item.cards)
        rng.shuffle(options)
        return {"reference": item.reference, "options": options}


def probe_next(
    turns: object,
    *,
    level: str = "full",
    seed: int = 0,
    round_id: str | int | None = None,
) -> dict[str, object] | None:
    """Return the warm-up's next item {"reference": "a/b", "options": ["a/b", ...]}, or None.

    `turns`: one student's turns, oldest first (diagnose()'s format; warm-up answers with
    "source": "probe" and, best, "round": the warm-up's id). `level`: the deck level whose
    pupils the items suit. `seed`: the draw among equally good items and the order of the
    options. `round_id`: the warm-up round asked for (its probe turns carry it as "round");
    None: the trailing run of probe turns. None when every rule the round decides is decided
    or ROUND_CAP items were answered. Bad input raises ValueError.
    """
    warm_up = WarmUp(level=level, seed=seed, round_id=round_id)
    if isinstance(turns, str | bytes | dict) or not isinstance(turns, list | tuple):
        raise ValueError("turns must be a list of turn dicts, oldest first")
    for data in turns:
        warm_up.add(data)
    return warm_up.next_item()


def _choose(
    bank: Sequence[Item], undecided: list[str], this_round: _Round, rng: random.Random
) -> Item:
    def score(item: Item) -> tuple[int, int, int, float]:
        reference = _card(item.reference)
        key = (reference, frozenset([_card(c) for c in item.cards]))
        return (
            sum(item.trap_for(rule) is not None for rule in undecided),
            -this_round.references.get(reference, 0),
            -(key in this_round.shown),
            rng.random(),
        )

    return max(bank, key=score)


def _card(value: str) -> Card:
    num, den = value.split("/")
    return int(num), int(den)


__all__ = ["CLEAR_HABIT", "CLEAR_RISK", "ROUND_CAP", "WarmUp", "habit_excluded", "probe_next"]
