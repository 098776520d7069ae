"""What a re-check passes when a weaker habit is still there: the model's own figures (pure).

"resolved" certifies that a habit at HABIT_FLOOR or more would almost surely have shown; it does
not certify that the habit is gone. For a habit still taken at rate h when its trap is offered,
residual_pass_rates() gives the chance that one re-check round passes (the trap offered on
every item while the rule is undecided, as probe_next aims to: passed at
recheck_needed(taken) offers, lost once it can no longer pass within ROUND_CAP items) and that
two independent rounds pass ("held" needs a second one a week later). The "How we diagnose"
page prints this table and bench/diagnosis.py --part held measures it through probe_next.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .model import recheck_needed
from .probe import ROUND_CAP

# The rates the page and the bench show: slips only, then weaker habits up to the floor.
RESIDUAL_RATES: Final = (0.05, 0.10, 0.15, 0.20, 0.30)

__all__ = ["RESIDUAL_RATES", "one_round_pass", "residual_pass_rates"]


@lru_cache(maxsize=64)
def one_round_pass(rate: float, cap: int = ROUND_CAP) -> float:
    """Return the chance that a round with a trap on each of up to `cap` items passes."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"rate must be between 0 and 1, not {rate!r}")
    passed = 0.0
    # ways[t]: chance of having taken t traps after the offers so far, still undecided.
    ways = {0: 1.0}
    for offers in range(cap + 1):
        undecided: dict[int, float] = {}
        for taken, chance in ways.items():
            needed = recheck_needed(taken)
            if offers >= needed:
                passed += chance
            elif needed <= cap:  # still able to pass within the cap
                undecided[taken] = chance
        if offers == cap:
            break
        ways = {}
        for taken, chance in undecided.items():
            ways[taken] = ways.get(taken, 0.0) + chance * (1 - rate)
            ways[taken + 1] = ways.get(taken + 1, 0.0) + chance * rate
    return passed


def residual_pass_rates(
    rates: tuple[float, ...] = RESIDUAL_RATES,
) -> dict[float, tuple[float, float]]:
    """Return, per residual habit rate, the chance one round passes and two rounds pass."""
    return {rate: (one_round_pass(rate), one_round_pass(rate) ** 2) for rate in rates}
