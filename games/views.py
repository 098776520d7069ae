"""Pages of the games app: start a practice table, the play page, teacher controls."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games import hooks
from games.consumers import post_table_frame
from games.engine import card_name
from games.engine.cards import deck_denominators, deck_for
from games.errors import TableError
from games.forms import DECK_CHOICES, DEFAULT_DECK, PracticeForm
from games.players import robot_name, table_info
from games.protocol import state_frame
from games.refusals import table_game
from games.selectors import TableAccess, table_access
from games.services import (
    TIMER_TURNS_BEFORE_BOT,
    SeatSpec,
    seat_set_takeover,
    table_create,
    table_set_paused,
)

# Told to a student whose practice deal is aimed at their misconception (never which one).
AIMED_PRACTICE = _(
    "This game helps you practise a tricky kind of card. Look closely before you say "
    "two fractions are equal!"
)

# Practice asks the reason after every refused "equal" claim (a class session: only if set).
PRACTICE_ASK_REASON = 100


@login_required
def practice(request: HttpRequest) -> HttpResponse:
    """Start a practice table: the signed-in user against bots, aimed if lessons says so.

    ?deck=<level> chooses the deck level the form starts with (the student home's link).
    """
    deck = request.GET.get("deck")
    initial = {"deck": deck} if deck in dict(DECK_CHOICES) else {}
    form = PracticeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        aimed: dict[str, Any] = {}
        if data["ruleset"] == "fractions":
            # lessons' diagnosis adds "aim_pairs" and "aim_seat" (the user sits at seat 0).
            aimed = hooks.practice_options_for(request.user, data.get("deck") or DEFAULT_DECK)
        seats = [SeatSpec(name=hooks.display_name(request.user), user_id=request.user.pk)]
        seats += [
            SeatSpec(name=robot_name(number), bot=data["bot"])
            for number in range(1, data["bots"] + 1)
        ]
        try:
            hooks.practice_check(request.user)
            table = table_create(
                ruleset=data["ruleset"],
                seats=seats,
                options={**form.engine_options(), **aimed},
                table_settings={
                    "accessible": data["accessible"],
                    "highlight_playable": data["highlight_playable"],
                    "ask_reason": PRACTICE_ASK_REASON,
                    "pictures": data.get("pictures") or "",
                },
                created_by=request.user,
            )
        except TableError as exc:
            form.add_error(None, str(exc.message))
        else:
            if aimed:
                messages.info(request, AIMED_PRACTICE)
            return redirect("games:play", table_id=table.pk)
    return render(request, "games/practice.html", {"form": form})


@login_required
def play(request: HttpRequest, table_id: int) -> HttpResponse:
    """Show the play page of a table to its players and to the teacher who may watch it."""
    try:
        access = table_access(table_id=table_id, user=request.user)
    except TableError as exc:
        raise Http404 from exc
    lang = (translation.get_language() or "fr")[:2]
    table = access.table
    # The page shows this state at once (the socket's first state then changes nothing): what
    # the seat may see, as the socket would send it. Nothing moves when the socket answers.
    first_state = state_frame(
        table_game(table), access.seat, table.state_id, table_info(table=table), lang=lang
    )
    card_names = {
        code: card_name(code, lang)
        for code in dict.fromkeys(deck_for(access.table.ruleset, access.table.options or {}))
    }
    return render(
        request,
        "games/play.html",
        {
            "table": access.table,
            "seat": access.seat,
            "watching": access.seat is None,
            "card_names": card_names,
            "first_state": first_state,
            # The denominators a wild card may name: the engine's list for this table's deck
            # (the sheet's list cut to the deck level), so the page never keeps a copy of its own.
            "denominators": list(
                deck_denominators(access.table.ruleset, access.table.options or {})
            ),
            "timer_turns": TIMER_TURNS_BEFORE_BOT,
            # The deck level in words, for the page's help (Uno Fractions only).
            "deck_label": dict(DECK_CHOICES).get(
                (access.table.options or {}).get("deck", DEFAULT_DECK), ""
            )
            if access.table.ruleset == "fractions"
            else "",
            # A class session's table: the number the teacher sees, the way to the next game.
            "place": hooks.table_place(access.table),
        },
    )


@login_required
@require_POST
def seat_bot(request: HttpRequest, table_id: int, seat_index: int) -> HttpResponse:
    """Let a bot play for an absent student, or give the seat back.

    The teacher does both; a student may only take their own seat back ("bot" not "on").
    """
    try:
        access = table_access(table_id=table_id, user=request.user)
    except TableError as exc:
        raise Http404 from exc
    by_bot = request.POST.get("bot") == "on"
    if access.seat is None and not hooks.may_act_on_seat(request.user, access.table, seat_index):
        # A teacher watching a pupil's table acts only on the seats of their own pupils.
        raise PermissionDenied
    if access.seat is not None:
        if by_bot or access.seat != seat_index:
            raise PermissionDenied
        if not any(s.index == seat_index and s.bot_takeover for s in access.table.seats.all()):
            # Nothing to take back: do not restart the student's own turn timer.
            return redirect("games:play", table_id=table_id)
    seat_set_takeover(table_id=access.table.pk, seat_index=seat_index, by_bot=by_bot)
    return redirect("games:play", table_id=table_id)


@login_required
@require_POST
def pause(request: HttpRequest, table_id: int) -> HttpResponse:
    """Pause or resume a table (a teacher of every seated player: it stops them all)."""
    access = _teacher_access(request, table_id)
    seats = access.table.seats.filter(user__isnull=False).values_list("index", flat=True)
    if not all(hooks.may_act_on_seat(request.user, access.table, index) for index in seats):
        raise PermissionDenied
    table_set_paused(table_id=access.table.pk, paused=request.POST.get("paused") == "on")
    return redirect("games:play", table_id=table_id)


def _teacher_access(request: HttpRequest, table_id: int) -> TableAccess:
    try:
        access = table_access(table_id=table_id, user=request.user)
    except TableError as exc:
        raise Http404 from exc
    if access.seat is not None:
        raise PermissionDenied
    return access


@require_POST
async def frames(request: HttpRequest, table_id: int) -> HttpResponse:
    """Take one client frame of the table's fallback link (docs/protocol.md): the JSON answer.

    Not signed in: 401; no seat nor watching place: 403 (the socket's 4401 and 4403).
    """
    return await post_table_frame(request, table_id)
