"""What one seat (or a spectator) may see: no other hand, no pile order, ever."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


# Every key of a view, in its order (the ruleset facts come after).
_VIEW_KEYS = (
    "ruleset",
    "players",
    "dealer",
    "round",
    "round_over",
    "game_over",
    "seat",
    "hand",
    "hand_sizes",
    "turn",
    "acting",
    "awaiting",
    "uno_window",
    "direction",
    "top",
    "colour",
    "denominator",
    "draw_pile_size",
    "discard_size",
    "drawn",
    "scores",
    "round_winner",
    "winner",
    "eliminated",
    "options",
)
# What a practice aims at is for the teacher's records only: no view shows it.
_UNSHOWN_OPTIONS = frozenset({"aim_pairs", "aim_seat"})


def _view_base(g: Game) -> dict[str, Any]:
    """Return a view's frame for the round: every key, the fields fixed for the round filled.

    Copying a frame that has every key already costs less than adding them one by one
    (docs/performance.md); "options" holds the options shown, copied into each view.
    """
    base = dict.fromkeys(_VIEW_KEYS)
    base["ruleset"] = g.ruleset
    base["players"] = g.n
    base["dealer"] = g.dealer
    base["round"] = g.round
    base["round_over"] = g.round_over
    base["game_over"] = g.over
    base["options"] = {k: v for k, v in g.opts.items() if k not in _UNSHOWN_OPTIONS}
    return base


def build_view(g: Game, seat: int | None) -> dict[str, Any]:
    """Return the view of ``seat``; ``None`` is a spectator (the teacher) and sees no hand."""
    turn, uno_win = g.turn, g.uno_win
    base = g.view_base
    if base is None:  # reset by deal and scoring
        base = g.view_base = _view_base(g)
    view = base.copy()
    view["seat"] = seat
    view["hand"] = list(g.hands[seat]) if seat is not None else []
    view["hand_sizes"] = list(map(len, g.hands))
    # The frame holds None for "turn", "awaiting", "uno_window" and "drawn": only a value
    # that is not None is written.
    if turn >= 0:
        view["turn"] = view["acting"] = turn
        if seat == turn:
            view["drawn"] = g.drawn
    else:
        view["acting"] = g.acting_seat()
    if uno_win >= 0:
        view["awaiting"] = _awaiting(g)
        view["uno_window"] = uno_win
    elif g.awaiting is not None:
        view["awaiting"] = _awaiting(g)
    view["direction"] = g.direction
    view["top"] = g.discard[-1] if g.discard else None
    view["colour"] = g.colour
    view["denominator"] = g.den or None
    view["draw_pile_size"] = len(g.pile)
    view["discard_size"] = len(g.discard)
    view["scores"] = list(g.scores)
    rw, w = g.round_winner, g.winner
    view["round_winner"] = list(rw) if type(rw) is list else rw
    view["winner"] = list(w) if type(w) is list else w
    view["eliminated"] = [s for s, o in enumerate(g.out) if o] if g.n_active != g.n else []
    view["options"] = base["options"].copy()
    if g.ruleset != "classic" or g.opts["teams"] or g.opts["rotating_partners"]:
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
