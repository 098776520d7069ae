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
        self.awaiting, self.drawn = None, None
        self.uno_flag = self.uno_win = -1
        points_of = POINTS[self.ruleset]
        pts = [sum(points_of[c] for c in h) for h in self.hands]
        teams = self.teams()
        events: list[Event] = []
        game_winner: int | list[int] | None
        if teams is None:
            self.round_winner = winner
            game_winner = self._score_seats(winner, pts, events)
        elif self.opts.get("rotating_partners"):
            game_winner = self._score_partners(winner, pts, teams)
        else:
            game_winner = self._score_teams(winner, pts, teams)
        round_over: Event = {
            "type": "round_over",
            "winner": _copy(self.round_winner),
            "points": pts,
            "scores": list(self.scores),
        }
        if self.team_scores is not None:
            round_over["team_scores"] = list(self.team_scores)
        events.insert(0, round_over)
        if game_winner is not None:
            self.over = True
            self.winner = game_winner
            events.append({"type": "game_over", "winner": _copy(game_winner)})
        return events

    def _score_partners(
        self, winner: int, pts: list[int], teams: list[list[int]]
    ) -> list[int] | None:
        """Score a rotating-partners round; after the third, the best seats win the game."""
        scores, n = self.scores, self.n
        won = next(t for t in teams if winner in t)
        self.round_winner = list(won)
        others = sum(pts[s] for s in range(n) if s not in won)
        for s in won:
            scores[s] += others
        if self.round < 3:
            return None
        best = max(scores)
        return [s for s in range(n) if scores[s] == best]

    def _score_teams(self, winner: int, pts: list[int], teams: list[list[int]]) -> list[int] | None:
        """Score a fixed-teams round; return the winning team once the game is over."""
        target, scoring = self.opts["target_score"], self.opts["scoring"]
        ti = next(i for i, t in enumerate(teams) if winner in t)
        self.round_winner = list(teams[ti])
        ts = self.team_scores
        assert ts is not None
        if scoring == "winner_takes":
            ts[ti] += sum(pts[s] for s in range(self.n) if s not in teams[ti])
        else:
            for i, t in enumerate(teams):
                ts[i] += sum(pts[s] for s in t)
        for i, t in enumerate(teams):
            for s in t:
                self.scores[s] = ts[i]
        if target != 0 and max(ts) < target:
            return None
        if scoring == "winner_takes" or target == 0:
            return list(teams[ti])
        low = min(ts)
        return list(teams[ti if ts[ti] == low else ts.index(low)])

    def _score_seats(self, winner: int, pts: list[int], events: list[Event]) -> int | None:
        """Score a round without teams; return the game's winner once the game is over."""
        scores, scoring = self.scores, self.opts["scoring"]
        active = [s for s in range(self.n) if not self.out[s]]
        if scoring == "winner_takes":
            scores[winner] += sum(pts) - pts[winner]  # the winner's hand: empty but blocked
        else:
            for s in active:
                if s != winner or scoring == "lowest_wins":
                    scores[s] += pts[s]
        target = self.opts["target_score"]
        if target == 0:
            return winner
        if scoring == "winner_takes":
            return winner if scores[winner] >= target else None
        if scoring == "lowest_wins":
            if max(scores[s] for s in active) < target:
                return None
            low = min(scores[s] for s in active)
            return winner if scores[winner] == low else scores.index(low)
        return self._eliminate(winner, active, events)

    def _eliminate(self, winner: int, active: list[int], events: list[Event]) -> int | None:
        """Put out the seats at the target (elimination); the last seat left wins the game."""
        target = self.opts["target_score"]
        gone = [s for s in active if s != winner and self.scores[s] >= target]
        for s in gone:
            self.out[s] = True
        self.n_active -= len(gone)
        if gone:
            events.append({"type": "eliminated", "seats": gone})
        return winner if self.n_active == 1 else None


def _copy(w: int | list[int] | None) -> int | list[int] | None:
    return list(w) if isinstance(w, list) else w
