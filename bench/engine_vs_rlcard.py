"""Compare two-player classic hands per second: our engine against RLCard's UNO env.

Both sides play one round per hand with random agents, in alternating slices of one run so
that machine noise hits both alike. RLCard offers a draw only when no card fits, so our agent
plays a random fitting card when it has one and otherwise a random other legal action; it asks
`view` whose turn it is and `legal_actions` what it may do at every step.

    .venv/bin/python bench/engine_vs_rlcard.py [--seconds 20] [--seed 1] [--profile]

The last line begins with PASS or FAIL against the goal (issue 33): our moves per CPU second
at least 4x RLCard's (hands/s are shown too: our hands have more moves, docs/engine.md).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GOAL_RATIO = 4.0  # moves per CPU second, ours against RLCard's
MAX_ENGINE_MOVES = 10_000  # a hand longer than this is a bug, not a slow game


@dataclass
class Tally:
    """Count hands, moves and seconds (CPU time of this process, and wall time) for one side."""

    hands: int = 0
    moves: int = 0
    seconds: float = 0.0  # CPU time: steadier than wall time on a shared machine
    wall: float = 0.0

    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def actor(view: dict[str, Any]) -> int | None:
    """Return the seat that must act now: the turn owner or the awaited seat."""
    if view["turn"] is not None:
        return int(view["turn"])
    awaiting = view.get("awaiting")
    if isinstance(awaiting, dict) and awaiting.get("seat") is not None:
        return int(awaiting["seat"])
    return None


def play_engine_hand(seed: int, rng: random.Random) -> int:
    """Play one two-player classic round on our engine; return the number of moves."""
    from games.engine import Game

    game = Game.new("classic", 2, options={"target_score": 0}, seed=seed)
    moves = 0
    while True:
        view = game.view(None)
        if view["round_over"] or view["winner"] is not None:
            return moves
        seat = actor(view)
        if seat is None:
            raise RuntimeError(f"nobody to act in a live round (seed {seed}): {view}")
        legal = game.legal_actions(seat)
        plays = [a for a in legal if a["type"] == "play"]
        action = rng.choice(plays) if plays else rng.choice(legal)
        game.apply(seat, action)
        moves += 1
        if moves > MAX_ENGINE_MOVES:
            raise RuntimeError(f"hand did not end within {MAX_ENGINE_MOVES} moves (seed {seed})")


def make_rlcard_env(seed: int) -> Any:
    """Build RLCard's two-player UNO env with two random agents."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return env


def play_rlcard_hand(env: Any) -> int:
    """Play one RLCard UNO hand with its own run loop; return the number of moves."""
    env.run(is_training=False)
    return len(env.action_recorder)


def run_slice(side: str, budget: float, tally: Tally, state: dict[str, Any]) -> None:
    """Play whole hands of one side for about `budget` seconds and add them to `tally`."""
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + budget
    while True:
        if side == "engine":
            state["seed"] += 1
            moves = play_engine_hand(state["seed"], state["rng"])
        else:
            moves = play_rlcard_hand(state["env"])
        tally.hands += 1
        tally.moves += moves
        if time.perf_counter() >= deadline:
            break
    tally.seconds += time.process_time() - cpu_start
    tally.wall += time.perf_counter() - start


def profile_engine(hands: int, seed: int) -> str:
    """Profile our side over `hands` hands; return the top of the cumulative listing."""
    rng = random.Random(seed)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(hands):
        play_engine_hand(seed + i, rng)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(25)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="total run time (both sides)")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per alternating slice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also cProfile 300 engine hands")
    args = parser.parse_args(argv)

    engine, rl = Tally(), Tally()
    engine_state: dict[str, Any] = {"seed": args.seed * 1_000_000, "rng": random.Random(args.seed)}
    rl_state: dict[str, Any] = {"env": make_rlcard_env(args.seed)}
    # Warm both sides up (imports, caches) outside the measured time.
    run_slice("engine", 0.2, Tally(), engine_state)
    run_slice("rlcard", 0.2, Tally(), rl_state)

    per_side = args.seconds / 2
    while engine.wall < per_side or rl.wall < per_side:
        if engine.wall < per_side:
            run_slice("engine", min(args.slice, per_side - engine.wall), engine, engine_state)
        if rl.wall < per_side:
            run_slice("rlcard", min(args.slice, per_side - rl.wall), rl, rl_state)

    hands_ratio = engine.hands_per_s() / rl.hands_per_s() if rl.hands_per_s() else float("inf")
    ratio = engine.moves_per_s() / rl.moves_per_s() if rl.moves_per_s() else float("inf")
    print(
        f"python {sys.version.split()[0]}, rlcard {version('rlcard')}, "
        f"{args.seconds:g} s in {args.slice:g} s slices, seed {args.seed}; rates per CPU second "
        f"of this process (wall-clock hands/s in brackets)"
    )
    for name, t in (("engine", engine), ("rlcard", rl)):
        print(
            f"{name:7s} {t.hands:7d} hands in {t.seconds:6.2f} s: {t.hands_per_s():9.1f} hands/s "
            f"[{t.hands / max(t.wall, 1e-9):7.1f}], "
            f"{t.moves_per_s():10.0f} moves/s, {t.moves / max(t.hands, 1):5.1f} moves/hand, "
            f"{1e6 * t.seconds / max(t.moves, 1):6.1f} us/move"
        )
    print(f"ratio   {hands_ratio:.2f}x hands/s, {ratio:.2f}x moves/s (goal {GOAL_RATIO:g}x)")
    if args.profile:
        print(profile_engine(300, args.seed))
    verdict = "PASS" if ratio >= GOAL_RATIO else "FAIL"
    print(
        f"{verdict}: engine {engine.moves_per_s():.0f} moves/s vs rlcard {rl.moves_per_s():.0f} "
        f"moves/s = {ratio:.2f}x (goal >= {GOAL_RATIO:g}x)"
    )
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
