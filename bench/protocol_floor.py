"""Measure the floor of the benchmark's protocol: what a do-nothing engine costs per move.

Each benchmark move calls ``view(None)`` (a flat dict of the view's size), ``legal_actions``
(a short list of dicts) and ``apply`` (one event), plus the agent's filter and random choice.
A stub that does only that bounds from below the time any CPython engine with this interface
can take, and so bounds from above the hands/s it can reach.

    .venv/bin/python bench/protocol_floor.py [--moves 300000]   (CPU time of this process)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]


class StubGame:
    """Answer the three calls with data shaped like the engine's, doing no rules at all."""

    def __init__(self, template: dict[str, Any]) -> None:
        self.template = template
        self.turn = 0

    def view(self, seat: int | None) -> dict[str, Any]:
        view = dict(self.template)  # one flat dict of the same keys, like the real view
        view["turn"] = self.turn
        view["hand_sizes"] = [7, 7]
        view["scores"] = [0, 0]
        view["options"] = dict(self.template["options"])
        return view

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "play", "card": "5r"}, {"type": "play", "card": "7b"}, {"type": "draw"}]

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.turn = 1 - self.turn
        return [{"type": "played", "seat": seat, "card": action.get("card")}]


def per_move(game: Any, moves: int, rng: random.Random) -> float:
    """Return the seconds per move of the benchmark's agent loop against ``game``."""
    start = time.process_time()
    for _ in range(moves):
        view = game.view(None)
        seat = view["turn"]
        legal = game.legal_actions(seat)
        plays = [a for a in legal if a["type"] == "play"]
        game.apply(seat, rng.choice(plays) if plays else rng.choice(legal))
    return (time.process_time() - start) / moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300_000)
    parser.add_argument("--moves-per-hand", type=float, default=70.6, help="ours, measured")
    args = parser.parse_args(argv)

    from engine_vs_rlcard import play_engine_hand

    from games.engine import Game

    template = Game.new("classic", 2, options={"target_score": 0}, seed=1).view(None)
    floor = per_move(StubGame(template), args.moves, random.Random(1))
    rng, hands, moves, start = random.Random(1), 0, 0, time.process_time()
    while moves < args.moves:
        moves += play_engine_hand(hands, rng)
        hands += 1
    engine = (time.process_time() - start) / moves
    print(f"stub engine (protocol only): {floor * 1e6:5.2f} us/move")
    print(f"our engine:                  {engine * 1e6:5.2f} us/move ({hands} hands)")
    best = 1 / (floor * args.moves_per_hand)
    print(
        f"best case at {args.moves_per_hand:g} moves/hand: {best:.0f} hands/s "
        f"(ours now: {1 / (engine * args.moves_per_hand):.0f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
