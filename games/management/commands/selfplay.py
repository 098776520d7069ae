"""Play bot games through the engine, report speed and check invariants as they play."""

from __future__ import annotations

import json
import random
import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engine import RULESETS, Game
from games.engine.bots import BOT_KINDS, next_bot_step, validate_profile
from games.management.invariants import check_game


class Command(BaseCommand):
    help = "Play bot games through the rules engine; print games/s, moves/s, moves per game."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--ruleset", default="classic", choices=sorted(RULESETS))
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bot", default="heuristic", choices=list(BOT_KINDS))
        parser.add_argument("--options", default="{}", help='rule options as JSON, e.g. {"x": 1}')
        parser.add_argument(
            "--profile",
            default="{}",
            help='student bot error profile as JSON, e.g. {"M1": 0.2, "miss": 0.1}',
        )
        parser.add_argument(
            "--max-moves",
            type=int,
            default=200_000,
            help="moves after which a game counts as stuck",
        )
        parser.add_argument(
            "--check-every",
            type=int,
            default=1,
            help="check the invariants after every Nth move (1 = every move)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            options = json.loads(opts["options"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not valid JSON: {exc}") from exc
        if not isinstance(options, dict):
            raise CommandError("--options must be a JSON object")
        try:
            profile = validate_profile(json.loads(opts["profile"]))
        except (json.JSONDecodeError, ValueError, AttributeError) as exc:
            raise CommandError(f"--profile: {exc}") from exc
        if profile and opts["bot"] != "student":
            raise CommandError("--profile needs --bot student")
        if opts["games"] < 1 or opts["check_every"] < 1:
            raise CommandError("--games and --check-every must be at least 1")
        stats = play_games(
            ruleset=opts["ruleset"],
            players=opts["players"],
            games=opts["games"],
            seed=opts["seed"],
            bot=opts["bot"],
            options=options,
            profile=profile,
            max_moves=opts["max_moves"],
            check_every=opts["check_every"],
        )
        out = self.stdout
        out.write(
            f"ruleset {opts['ruleset']}, {opts['players']} players, bot {opts['bot']}, "
            f"seed {opts['seed']}, options {json.dumps(options, sort_keys=True)}"
            + (f", profile {json.dumps(profile, sort_keys=True)}" if profile else "")
        )
        out.write(f"games: {stats['games']}")
        out.write(f"moves: {stats['moves']}")
        out.write(f"rounds: {stats['rounds']}")
        out.write(f"student mistakes: {stats['wrong']}")
        out.write(f"seconds: {stats['seconds']:.2f}")
        out.write(f"games/s: {stats['games'] / stats['seconds']:.1f}")
        out.write(f"moves/s: {stats['moves'] / stats['seconds']:.0f}")
        out.write(f"average moves per game: {stats['moves'] / stats['games']:.1f}")
        out.write(f"invariant checks: {stats['checks']}")
        if stats["violations"]:
            for line in stats["violations"][:20]:
                self.stderr.write(line)
            raise CommandError(f"{len(stats['violations'])} invariant violation(s)")
        out.write("invariants: OK")


def play_games(
    *,
    ruleset: str,
    players: int,
    games: int,
    seed: int,
    bot: str,
    options: dict[str, Any],
    profile: dict[str, float] | None = None,
    max_moves: int,
    check_every: int = 1,
) -> dict[str, Any]:
    """Play `games` bot games; return counts, time and any invariant violations."""
    from games.engine import IllegalAction

    kinds = [bot] * players
    profiles = [profile] * players
    stats: dict[str, Any] = {
        "games": 0,
        "moves": 0,
        "rounds": 0,
        "wrong": 0,
        "checks": 0,
        "seconds": 0.0,
        "violations": [],
    }
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        try:
            game = Game.new(ruleset, players, options=options, seed=game_seed)
        except IllegalAction as exc:
            raise CommandError(f"cannot create the game: {exc}") from exc
        rng = random.Random(game_seed)
        view_rng = random.Random(-game_seed)
        moves = 0
        while True:
            view = game.view(None)
            if view["winner"] is not None:
                break
            step = next_bot_step(game, kinds, rng, profiles)
            if step is None:
                stats["violations"].append(f"game {i} (seed {game_seed}): nobody can act")
                break
            moves += 1
            stats["wrong"] += len(step.wrong) + (step.error_type is not None)
            stats["rounds"] += sum(1 for e in step.events if e.get("type") == "round_over")
            if moves % check_every == 0:
                # Redealing hidden cards to compare views costs n + 1 restores: do it 1 in 8.
                hide_rng = view_rng if stats["checks"] % 8 == 0 else None
                problems = check_game(game, ruleset, hide_rng)
                stats["checks"] += 1
                if problems:
                    stats["violations"].extend(
                        f"game {i} (seed {game_seed}) move {moves}: {p}" for p in problems
                    )
                    break
            if moves >= max_moves:
                stats["violations"].append(
                    f"game {i} (seed {game_seed}) did not end within {max_moves} moves"
                )
                break
        stats["games"] += 1
        stats["moves"] += moves
        if stats["violations"]:
            break
    stats["seconds"] = max(time.perf_counter() - start, 1e-9)
    return stats
