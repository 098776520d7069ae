"""Exact chance distributions for a rule's score, and the binomial tail a re-check reads.

Under "no habit", each wrong "equal" claim fits a rule with its own chance p0 (a card drawn
at random from the student's wrong options), independently of the others: the number of
fitting claims is a Poisson-binomial variable. A reason the student gives adds to the score;
under "no habit" it names the rule with a fixed chance (a random answer). ChanceScore builds
the exact distribution of the score one claim at a time, so the p-value P(score >= observed)
costs one pass over a short list.
"""

from __future__ import annotations

from math import comb

__all__ = ["ChanceScore", "binomial_cdf"]


class ChanceScore:
    """The exact chance distribution of an integer score, built one claim at a time."""

    __slots__ = ("probs",)

    def __init__(self) -> None:
        self.probs: list[float] = [1.0]

    def add(self, p: float) -> None:
        """Add one claim that scores 1 with chance p, else 0."""
        old = self.probs
        q = 1.0 - p
        # new[i] = old[i] q + old[i - 1] p; the two ends have one term (adding 0.0 to the
        # other would not change a bit), so no padded copies of the list are built.
        # zip stops at the shorter old[1:]: old's last entry is the top end, added below.
        inner = [x * q + y * p for x, y in zip(old[1:], old, strict=False)]
        self.probs = [old[0] * q, *inner, old[-1] * p]

    def add_with_reason(self, p: float, reason_chance: float, weight: int) -> None:
        """Add a claim scoring 0 (no fit), 1 (fit) or 1 + weight (fit and the rule's reason).

        The reason is independent of the card under "no habit" (a random answer).
        """
        old = self.probs
        q = 1.0 - p
        fit_only, fit_reason = p * (1.0 - reason_chance), p * reason_chance
        pad = [0.0] * weight
        # new[j] = (old[j] q + old[j - 1 - weight] fit_reason) + old[j - 1] fit_only: the terms
        # added in the order a claim-by-claim loop adds them, so every figure is bit for bit
        # what that loop gives; a missing term is 0.0, which changes no sum.
        stay = [x * q for x in old]
        stay += [0.0, *pad]
        jump = [0.0, *pad]
        jump += [x * fit_reason for x in old]
        step = [0.0]
        step += [x * fit_only for x in old]
        step += pad
        if weight:
            self.probs = [s + r + f for s, r, f in zip(stay, jump, step, strict=True)]
        else:  # both terms come from the same claim: the fit without the reason first
            self.probs = [s + f + r for s, r, f in zip(stay, jump, step, strict=True)]

    def copy(self) -> ChanceScore:
        """Return an independent copy of this distribution."""
        twin = ChanceScore()
        twin.probs = self.probs.copy()
        return twin

    def tail(self, score: int) -> float:
        """Return P(score >= `score`) under chance alone."""
        if score <= 0:
            return 1.0
        return min(1.0, sum(self.probs[score:]))


def binomial_cdf(successes: int, trials: int, rate: float) -> float:
    """Return P(X <= successes) for X ~ Binomial(trials, rate)."""
    return sum(
        comb(trials, i) * rate**i * (1.0 - rate) ** (trials - i)
        for i in range(min(successes, trials) + 1)
    )
