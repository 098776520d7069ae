"""Count the taps a child makes per move on the play page, over bench games of Uno Fractions.

Issue 30 §1.5: a same-denominator play opens the rule question ("Which rule do you use?"), a
second tap on about half of all plays. The goal is at most GOAL_TAPS taps per card played on
average (the card's tap and the questions' taps; draws, passes and UNO calls are counted apart,
one tap each, as taps per move).
Four heuristic players (games.engine.bots) play seeded games of the default deck; each move is
counted as the page asks for it today (static/js/play/chooser.js, `playCard` and
`fractionClaim`): one tap for the card or the button, one more when the page asks a question:

- a +2, a Joker or a +4 that may be played now (the optional denominator, asked at a
  fractions table).

A fraction whose denominator is the reference's (both rules could apply by its looks) carries
the two rules ("= égale", "même dén.") as buttons on the card itself on the child's turn
(render.js, `ruleButtons`): one tap plays the card with the rule the child chose, so the claim
is still the child's and costs no second tap. The card's own tap (the keyboard's path) still
asks the question; counted here is the touch path, one tap. `--ask-rule` counts it as it was
before (two taps), for comparison.

    .venv/bin/python bench/taps_per_play.py [--games 20] [--seed 1]

The last line begins with PASS or FAIL against the goal. This counts from the page's logic as
written here: when chooser.js changes how it asks, change `questions` below with it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Game  # noqa: E402
from games.engine.bots import heuristic_move  # noqa: E402
from games.engine.cards import DEN, KIND  # noqa: E402

GOAL_TAPS = 1.3
PLAYERS = 4
MAX_MOVES = 5_000  # a game longer than this is a bug


def questions(view: dict[str, Any], action: dict[str, Any], *, ask_rule: bool = False) -> list[str]:
    """Return the questions the page asks before sending `action` (chooser.js's logic).

    `ask_rule`: count the rule question as a second tap (the page before the rule buttons).
    """
    if action["type"] != "play":
        return []
    card = action["card"]
    kind = KIND[card]
    if kind == "frac":
        reference = view.get("reference")
        if reference is not None and DEN[card] == int(reference.split("/")[1]):
            return ["rule"] if ask_rule else []
        return []
    if kind in ("+2", "wild", "+4"):
        return ["denominator"]
    return []


def both_rules(view: dict[str, Any], action: dict[str, Any]) -> bool:
    """Tell whether the child chooses the rule for this play (both could apply by looks)."""
    if action["type"] != "play" or KIND[action["card"]] != "frac":
        return False
    reference = view.get("reference")
    return reference is not None and DEN[action["card"]] == int(reference.split("/")[1])


def play_game(seed: int, tally: Counter[str], *, ask_rule: bool = False) -> None:
    """Play one game with heuristic players, counting each seat's moves and taps."""
    rng = random.Random(seed)
    game = Game.new("fractions", PLAYERS, seed=seed)
    for _ in range(MAX_MOVES):
        public = game.view(None)
        if public["game_over"]:
            return
        seat = public["acting"]
        if seat is None:  # between rounds: whoever may start the next one
            seat = 0
        action = heuristic_move(game, seat, rng)
        if action is None:
            raise AssertionError(f"seat {seat} has no move (seed {seed})")
        view = game.view(seat)
        if both_rules(view, action):
            tally["rule_on_card"] += 1
        asked = questions(view, action, ask_rule=ask_rule)
        tally["moves"] += 1
        tally["taps"] += 1 + len(asked)
        if action["type"] == "play":
            tally["plays"] += 1
            tally["play_taps"] += 1 + len(asked)
        for question in asked:
            tally[f"asked_{question}"] += 1
        game.apply(seat, action)
    raise AssertionError(f"no end after {MAX_MOVES} moves (seed {seed})")


def main() -> int:
    """Play the games, print the tally and PASS or FAIL."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ask-rule", action="store_true", help="count the rule as a second tap (as before)"
    )
    args = parser.parse_args()
    tally: Counter[str] = Counter()
    for n in range(args.games):
        play_game(args.seed + n, tally, ask_rule=args.ask_rule)
    plays = tally["plays"]
    per_play = tally["play_taps"] / plays
    print(
        f"{args.games} games, {tally['moves']} moves, {tally['taps']} taps "
        f"({tally['taps'] / tally['moves']:.2f} per move); {plays} cards played: "
        f"the rule chosen by the child on {tally['rule_on_card'] / plays:.0%} of them "
        f"(a second tap on {tally['asked_rule'] / plays:.0%}), "
        f"the denominator question on {tally['asked_denominator'] / plays:.0%}"
    )
    verdict = "PASS" if per_play <= GOAL_TAPS else "FAIL"
    print(f"{verdict} taps per card played {per_play:.2f} (goal <= {GOAL_TAPS})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
