"""What one seat (or a spectator) may see: no other hand, no pile order, ever."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


def build_view(g: Game, seat: int | None) -> dict[str, Any]:
    """Return the view of ``seat``; ``None`` is a spectator (the teacher) and sees no hand."""
    turn = g.turn
    base = g.view_base
    if base is None:  # what stays the same for a whole round (reset by deal and scoring)
        base = g.view_base = {
            "ruleset": g.ruleset,
            "players": g.n,
            "dealer": g.dealer,
            "round": g.round,
            "round_over": g.round_over,
            "game_over": g.over,
        }
    view = base.copy()
    view["seat"] = seat
    view["hand"] = list(g.hands[seat]) if seat is not None else []
    view["hand_sizes"] = list(map(len, g.hands))
    view["turn"] = turn if turn >= 0 else None
    view["acting"] = g.acting_seat()
    view["awaiting"] = _awaiting(g)
    view["uno_window"] = g.uno_win if g.uno_win >= 0 else None
    view["direction"] = g.direction
    view["top"] = g.discard[-1] if g.discard else None
    view["colour"] = g.colour
    view["denominator"] = g.den or None
    view["draw_pile_size"] = len(g.pile)
    view["discard_size"] = len(g.discard)
    view["drawn"] = g.drawn if seat is not None and seat == turn else None
    view["scores"] = list(g.scores)
    rw, w = g.round_winner, g.winner
    view["round_winner"] = list(rw) if type(rw) is list else rw
    view["winner"] = list(w) if type(w) is list else w
    view["eliminated"] = [s for s, o in enumerate(g.out) if o] if g.n_active != g.n else []
    view["options"] = dict(g.opts)
    if "aim_pairs" in g.opts:  # what a practice aims at is for the teacher's records only
        del view["options"]["aim_pairs"], view["options"]["aim_seat"]
    _add_ruleset_facts(g, view)
    return view


def _awaiting(g: Game) -> dict[str, Any] | None:
    """Return who must answer what (a +4, a +2 to stack, Quickos, an open UNO window)."""
    aw = g.awaiting
    if aw is not None:
        awaiting: dict[str, Any] = {"seat": aw["seat"], "kind": aw["kind"]}
        if aw["kind"] in ("stack", "penalty"):
            awaiting["total"] = aw["total"]
        return awaiting
    if g.uno_win >= 0:
        return {"seat": g.uno_win, "kind": "uno"}
    return None


def _add_ruleset_facts(g: Game, view: dict[str, Any]) -> None:
    """Add what only one ruleset shows: the reference fraction, the functions, the teams."""
    if g.ruleset == "fractions":
        view["reference"] = g.ref
    elif g.ruleset != "classic":
        view["options"]["family_quick_functions"] = list(g.opts["family_quick_functions"])
    elif g.opts["teams"] or g.opts["rotating_partners"]:
        view["teams"] = g.teams()
        view["team_scores"] = list(g.team_scores) if g.team_scores is not None else None


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Return the events as ``seat`` may see them: secret ``cards`` only for ``visible_to``."""
    out = []
    for e in events:
        if "visible_to" in e:
            e = dict(e)
            allowed = e.pop("visible_to")
            if seat is None or seat not in allowed:
                e.pop("cards", None)
        out.append(e)
    return out
