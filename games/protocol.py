"""The frames of the table socket (docs/protocol.md): what the server sends, and its limits."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.announce import announce, visible_event
from games.engine import Game
from games.engine.explain import (
    LANGS,
    explain_named_denominator,
    explain_wrong_play,
    to_play_parts,
    worked_example,
)
from games.errors import TableError
from games.models import Table
from games.services import JUDGED_ERROR_CODES

MAX_FRAME_BYTES = 4096
# Per-connection limit: a steady 20 messages a second, bursts of 20.
RATE_PER_SECOND = 20.0
RATE_BURST = 20


def state_frame(
    game: Game,
    seat: int | None,
    state_id: int,
    info: dict[str, Any],
    events: list[dict[str, Any]] | None = None,
    lang: str | None = None,
) -> dict[str, Any]:
    """Build the `state` frame: the seat's view, the state number and the table's public facts.

    `events` (from `event_items`): what happened to lead to this state, sent with it (one
    frame per seat and move, not one per event). With `lang`, `to_play` says in words what
    may go on the pile now (games.engine.explain), one phrase a kind of card.
    """
    view = game.view(seat)
    frame: dict[str, Any] = {"type": "state", "state_id": state_id}
    if events is not None:
        frame["events"] = events
    pictures = info.get("pictures")
    if pictures is not None:
        info = {key: value for key, value in info.items() if key != "pictures"}
    frame.update(view=view, table=info)
    if pictures is not None and seat is not None and view.get("ruleset") == "fractions":
        # A practice table with pictures on (games.players.pictures_on): the seat's own cards
        # show them until a few right plays in a row fade them (the host counts them).
        frame["pictures"] = {"kind": pictures["kind"], "shown": seat in pictures["seats"]}
    if lang in LANGS:
        frame["to_play"] = to_play_parts(view, lang)
    if seat is not None and view.get("ruleset") == "fractions":
        # The seat's own facts (never another's: they would tell its cards). `refused`: the
        # cards refused to it this turn, each with the rules ruled out (games.refusals).
        # `denominator_cards`: its +2, Joker and +4 that may be played now, each naming a
        # denominator: the page opens the chooser for these only, so a +2 that cannot go on
        # the pile is refused at once, with no question first. Special cards only: a
        # fraction's fit is the child's to find.
        frame["refused"] = game.refused_cards(seat)
        frame["denominator_cards"] = _denominator_cards(game, seat, view["hand"])
    # Classic UNO may highlight playable cards (a table setting); Uno Fractions never does:
    # there the student chooses and the server judges.
    if (
        seat is not None
        and info.get("settings", {}).get("highlight_playable")
        and game.view(None).get("ruleset") != "fractions"
    ):
        frame["playable"] = sorted(
            {a["card"] for a in game.legal_actions(seat) if a.get("type") == "play"}
        )
    return frame


_NAMING_CARDS = frozenset({"joker", "+04", "+02r", "+02j", "+02v", "+02b"})


def _denominator_cards(game: Game, seat: int, hand: list[str]) -> list[str]:
    """Return the seat's cards that may be played now naming a denominator, sorted."""
    if _NAMING_CARDS.isdisjoint(hand):
        return []  # most states: no legal_actions to list
    return sorted({a["card"] for a in game.legal_actions(seat) if a.get("denominator") is not None})


def event_items(
    events: list[dict[str, Any]], seat: int | None, info: dict[str, Any], lang: str
) -> list[dict[str, Any]]:
    """Build what the seat may see of each event, with its spoken text: `{"event", "text"}`."""
    names = {p["seat"]: p["name"] for p in info.get("players", [])}
    items = []
    for event in events:
        shown = visible_event(event, seat)
        items.append({"event": shown, "text": announce(shown, lang, names, seat)})
    return items


def event_frames(
    events: list[dict[str, Any]], seat: int | None, info: dict[str, Any], lang: str
) -> list[dict[str, Any]]:
    """Build one `event` frame per event (the log on connect, events that came late)."""
    return [{"type": "event", **item} for item in event_items(events, seat, info, lang)]


def _explanation(details: dict[str, Any], lang: str) -> str | None:
    """Explain a refused fraction: against the reference, or the denominator that was named."""
    reference, played = details.get("reference"), details["played"]
    rule = "denominator" if details.get("rule") == "denominator" else "equal"
    try:
        if reference is None:
            return explain_named_denominator(int(details["denominator"]), played, lang)
        return explain_wrong_play(reference, played, rule, lang)
    except (ValueError, TypeError, KeyError):
        return None


def error_frame(exc: TableError, lang: str) -> dict[str, Any]:
    """Build the `error` frame; a wrong fraction play carries a short explanation."""
    details = dict(exc.details)
    if exc.code in JUDGED_ERROR_CODES and details.get("played"):
        details["explanation"] = _explanation(details, lang) or exc.message_in(lang)
    return {
        "type": "error",
        "code": exc.code,
        "message": exc.message_in(lang) or _("This action is not allowed."),
        "details": details,
    }


def refusal_example(
    table_id: int, seat: int, details: dict[str, Any], lang: str
) -> dict[str, Any] | None:
    """Build the worked example of a refused fraction play at a practice table, else None.

    Only a practice table shows it (a class session's table never does), only against a
    reference fraction, and it reads the seat's own hand through the engine's view of that
    seat: no other hand can reach the frame.
    """
    reference, card = details.get("reference"), details.get("card") or details.get("played")
    if not isinstance(reference, str) or not isinstance(card, str):
        return None
    row = Table.objects.filter(pk=table_id).values("kind", "state").first()
    if row is None or row["kind"] != Table.Kind.PRACTICE:
        return None
    hand = Game.from_dict(row["state"]).view(seat).get("hand", [])
    try:
        return worked_example(reference, card, [c for c in hand if isinstance(c, str)], lang)
    except ValueError:
        return None
