"""Play again at a practice table: the end screen's "Play again" starts the same game anew.

The player of a finished practice table gets a new one with the same rules, robots and table
settings (an aimed deal is aimed afresh, from what the diagnosis reads now). A table another
app owns (lessons: an assigned practice) says where its next game starts instead
(games.host.TableHost.replay_url), so that its record stays whole.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games import hooks
from games.errors import TableError
from games.forms import DEFAULT_DECK
from games.models import Table
from games.services import NOT_SEATED, SeatSpec, table_create

# The options an aimed deal adds (games.engine.aim): chosen again for the new game.
AIM_KEYS = ("aim_pairs", "aim_seat")
NOT_OVER = _("This game is not over yet.")


def replay_url(table: Table) -> str | None:
    """Return where a player of this practice table asks for another game (a POST), or None."""
    if table.kind != Table.Kind.PRACTICE:
        return None
    return hooks.replay_url(table) or reverse("games:replay", args=[table.pk])


def practice_again(*, table: Table, user: Any) -> Table:
    """Start a new game like this finished practice table, for its player; the new table.

    Raise TableError: "not_seated" (not the player's), "not_over" (still playing).
    """
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    if table.kind != Table.Kind.PRACTICE or not any(s.user_id == user.pk for s in seats):
        raise TableError("not_seated", NOT_SEATED)
    if table.status != Table.Status.FINISHED:
        raise TableError("not_over", NOT_OVER)
    options = {k: v for k, v in (table.options or {}).items() if k not in AIM_KEYS}
    if table.ruleset == "fractions":
        options |= hooks.practice_options_for(user, options.get("deck") or DEFAULT_DECK)
    specs = [
        SeatSpec(name=hooks.display_name(user), user_id=user.pk)
        if seat.user_id == user.pk
        else SeatSpec(name=seat.name, bot=seat.bot or "heuristic", bot_profile=seat.bot_profile)
        for seat in seats
    ]
    return table_create(
        ruleset=table.ruleset,
        seats=specs,
        kind=Table.Kind.PRACTICE,
        options=options,
        table_settings=table.play_settings,
        created_by=user,
    )


@login_required
@require_POST
def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """Start another game like this finished practice table and open it."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or replay_url(table) != reverse("games:replay", args=[table_id]):
        raise Http404
    try:
        new = practice_again(table=table, user=request.user)
    except TableError as exc:
        if exc.code == "not_seated":
            raise Http404 from exc
        return redirect("games:play", table_id=table_id)
    return redirect("games:play", table_id=new.pk)
