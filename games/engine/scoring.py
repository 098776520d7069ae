"""Scoring a round: winner takes all, lowest score, elimination, teams, rotating partners."""

from __future__ import annotations

from .cards import POINTS
from .deal import Dealing
from .state import Event

_ROTATING_TEAMS = ([[0, 2], [1, 3]], [[0, 1], [2, 3]], [[0, 3], [1, 2]])


class Scoring(Dealing):
    """Score rounds and tell when the game is over."""

    __slots__ = ()

    def teams(self) -> list[list[int]] | None:
        """Return the seats of each team this round, or None without teams."""
        if self.opts.get("rotating_partners"):
            return [list(t) for t in _ROTATING_TEAMS[(self.round - 1) % 3]]
        if self.opts.get("teams"):
            half = self.n // 2
            return [[i, i + half] for i in range(half)]
        return None

    def _end_blocked_round(self, last: int) -> list[Event]:
        """End a blocked round (every seat passed in a row with nothing to draw).

        The round goes to the side (a seat, or a team in the team modes) whose hands hold the
        fewest points, counted as this ruleset scores them; equal points: fewer cards; still
        equal: the side that comes first in play order from the seat after ``last`` (the one
        whose pass blocked the round). The round is then scored as usual, its winner's own
        hand counting for nothing in ``winner_takes`` (docs/engine.md "Blocked round").
        """
        points_of = POINTS[self.ruleset]
        order = [self._nxt(last, k) for k in range(1, self.n_active + 1)]
        teams = self.teams()
        sides = [[s] for s in order] if teams is None else teams
        first = {s: i for i, s in enumerate(order)}

        def rank(side: list[int]) -> tuple[int, int, int]:
            held = [c for s in side for c in self.hands[s]]
            return sum(points_of[c] for c in held), len(held), min(first[s] for s in side)

        best = min(sides, key=rank)
        winner = min(best, key=first.__getitem__)
        events: list[Event] = [{"type": "blocked", "seat": last}]
        return events + self._end_round(winner)

    def _end_round(self, winner: int) -> list[Event]:
        """Score the round won by ``winner`` and tell whether the game is over."""
        self.round_over = True
        self.view_base = None
        self.turn = -1
        self.aw, self.drawn = None, None
        self.uno_flag = self.uno_win = -1
        points_of = POINTS[self.ruleset]
        pts = [sum(points_of[c] for c in h) for h in self.hands]
        opts, scores, n = self.opts, self.scores, self.n
        target, scoring = opts["target_score"], opts["scoring"]
        active = [s for s in range(n) if not self.out[s]]
        teams = self.teams()
        events: list[Event] = []
        game_winner: int | list[int] | None = None
        if teams is not None:
            ti = next(i for i, t in enumerate(teams) if winner in t)
            self.round_winner = list(teams[ti])
            others = sum(pts[s] for s in range(n) if s not in teams[ti])
            if opts.get("rotating_partners"):
                for s in teams[ti]:
                    scores[s] += others
                if self.round >= 3:
                    best = max(scores)
                    game_winner = [s for s in range(n) if scores[s] == best]
            else:
                ts = self.team_scores
                assert ts is not None
                if scoring == "winner_takes":
                    ts[ti] += others
                else:
                    for i, t in enumerate(teams):
                        ts[i] += sum(pts[s] for s in t)
                for i, t in enumerate(teams):
                    for s in t:
                        scores[s] = ts[i]
                if target == 0 or max(ts) >= target:
                    if scoring == "winner_takes" or target == 0:
                        game_winner = list(teams[ti])
                    else:
                        low = min(ts)
                        best_i = ti if ts[ti] == low else ts.index(low)
                        game_winner = list(teams[best_i])
        else:
            self.round_winner = winner
            if scoring == "winner_takes":
                scores[winner] += sum(pts) - pts[winner]  # the winner's hand: empty but blocked
            else:
                for s in active:
                    if s != winner or scoring == "lowest_wins":
                        scores[s] += pts[s]
            if target == 0:
                game_winner = winner
            elif scoring == "winner_takes":
                if scores[winner] >= target:
                    game_winner = winner
            elif scoring == "lowest_wins":
                if max(scores[s] for s in active) >= target:
                    low = min(scores[s] for s in active)
                    game_winner = winner if scores[winner] == low else scores.index(low)
            else:
                gone = [s for s in active if s != winner and scores[s] >= target]
                for s in gone:
                    self.out[s] = True
                self.n_active -= len(gone)
                if gone:
                    events.append({"type": "eliminated", "seats": gone})
                if self.n_active == 1:
                    game_winner = winner
        round_over: Event = {
            "type": "round_over",
            "winner": _copy(self.round_winner),
            "points": pts,
            "scores": list(scores),
        }
        if self.team_scores is not None:
            round_over["team_scores"] = list(self.team_scores)
        events.insert(0, round_over)
        if game_winner is not None:
            self.over = True
            self.winner = game_winner
            events.append({"type": "game_over", "winner": _copy(game_winner)})
        return events


def _copy(w: int | list[int] | None) -> int | list[int] | None:
    return list(w) if isinstance(w, list) else w
