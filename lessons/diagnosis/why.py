"""When the warm-up asks "why did you choose this card?" (pure, seeded, no Django).

The status model (model.py) reads a reason only on a wrong "equal" answer, and only for the
rules a reason names (REASON_FOR_RULE: M1, M2, M3) whose trap the item offered. A reason
**informs** when, besides, one of those rules is still undecided in the round (probe.py: the
rules the round goes on offering). The warm-up asks:

- after an answer whose reason informs (at most ASK_CAP times a round);
- after another answer now and then (chance COVER_RATE, seeded, at most COVER_CAP times a
  round), so that the question alone does not say "wrong": never after a right answer when
  the answer before was a right one asked (never twice in a row for a right answer).

The two caps are apart: a question asked for cover never takes the place of one that informs
(sharing one cap lost the last reasons of a 30% habit's round: bench/diagnosis.py).

Nothing else: a right answer's reason never weighs, and a reason on a decided rule changes
nothing. An answer without a question is judged and stored like any other (its reason is none).
The same turns, level, seed and round always give the same decisions.
"""

from __future__ import annotations

import random
from typing import Final

from .classifier import CLAIM_EQUAL
from .probe import WarmUp, _current_round, _Round, _undecided
from .reasons import REASON_FOR_RULE
from .stream import Turn, chance_rates_of, read_turn

# At most this many questions that inform in a round (half of probe.ROUND_CAP's 24 items: with
# 8, a 30% habit with 10% slips besides was found for 91.2-92.5% of 400 pupils a rule, with 12
# for 92.0-93.0%; issue 31 §8, docs/diagnosis.md).
ASK_CAP: Final = 12
# The chance of a question after an answer whose reason does not inform, and at most how many
# such questions a round asks: with the above, "a few times a round".
COVER_RATE: Final = 0.25
COVER_CAP: Final = 3


def reason_informs(warm_up: WarmUp, turn: Turn) -> bool:
    """Tell whether a reason after `turn` (not yet added) would weigh for an undecided rule."""
    first = turn.first
    reference = turn.reference
    if first is None or reference is None or first.correct or first.claim != CLAIM_EQUAL:
        return False
    cards = turn.hand if first.played in turn.hand else (*turn.hand, first.played)
    offered = chance_rates_of(reference, cards)[1]
    named = [rule for rule in offered if rule in REASON_FOR_RULE]
    if not named:
        return False
    first_index, current = _current_round(warm_up.turns, turn.round)
    undecided = _undecided(
        warm_up.diagnosis, _Round(current), warm_up.rules, first_index, len(current)
    )
    return any(rule in undecided for rule in named)


class Why:
    """The questions of a warm-up's rounds, decided one answer at a time (before it is added).

    Feed every turn in order: `asks(turn)` for each answer of a round (it remembers the
    decision), then `warm_up.add_turn(turn)`. lessons.warmup replays the stored turns this way;
    the calibration bench decides each simulated answer as it comes.
    """

    def __init__(self, warm_up: WarmUp) -> None:
        self.warm_up = warm_up
        # Per round: each answer's (asked, right, informs), in order.
        self.history: dict[str | int | None, list[tuple[bool, bool, bool]]] = {}

    def asks(self, turn: Turn) -> bool:
        """Decide (and remember) whether the question follows this answer of its round."""
        if not turn.probe or turn.first is None:
            return False
        done = self.history.setdefault(turn.round, [])
        right = turn.first.correct
        informs = reason_informs(self.warm_up, turn)
        if informs:
            asked = sum(1 for was_asked, _, inf in done if was_asked and inf) < ASK_CAP
        elif right and done and done[-1][:2] == (True, True):
            asked = False  # never twice in a row for a right answer
        elif sum(1 for was_asked, _, inf in done if was_asked and not inf) >= COVER_CAP:
            asked = False
        else:
            draw = random.Random(f"warm-up-why:{self.warm_up.seed}:{turn.round}:{len(done)}")
            asked = draw.random() < COVER_RATE
        done.append((asked, right, informs))
        return asked


def reason_asked(turns: object, *, level: str = "full", seed: int = 0, round_id: str | int) -> bool:
    """Tell whether the warm-up asks "why?" after the last turn, an answer of round `round_id`.

    `turns`: one student's turns, oldest first (probe_next's, the last one the answer just
    given). Earlier answers of the round are decided again the same way (deterministic), so
    nothing but the turns needs storing. Bad input, or a last turn that is not an answer of
    the round, raises ValueError.
    """
    if isinstance(turns, str | bytes | dict) or not isinstance(turns, list | tuple) or not turns:
        raise ValueError("turns must be a non-empty list of turn dicts, oldest first")
    warm_up = WarmUp(level=level, seed=seed, round_id=round_id)
    why = Why(warm_up)
    deck = warm_up.diagnosis.deck
    last = len(turns) - 1
    for index, data in enumerate(turns):
        turn = read_turn(data, deck, index)
        in_round = turn.probe and turn.round == round_id
        if index == last:
            if not in_round:
                raise ValueError(f"the last turn is not an answer of round {round_id!r}")
            return why.asks(turn)
        if in_round:
            why.asks(turn)
        warm_up.add_turn(turn)
    raise AssertionError("unreachable")  # pragma: no cover


__all__ = ["ASK_CAP", "COVER_CAP", "COVER_RATE", "Why", "reason_asked", "reason_informs"]
