"""A table of absent players never runs for ever (issue 11, point 7).

The turn timer only draws and passes; after TIMER_TURNS_BEFORE_BOT of its turns in a row a
robot plays the seat, and a round where every seat in turn draws nothing and passes is
blocked and ends (docs/engine.md "Blocked round"). The clock is driven by hand: table_step
gets `now=` past the deadline, nothing sleeps and no real timer runs.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.announce import announce
from games.engine import Game
from games.engine.cards import DECKS
from games.models import Seat, Table, TableEvent
from games.players import table_info
from games.services import (
    TIMER_TURNS_BEFORE_BOT,
    bot_delay,
    next_step_for,
    table_act,
    table_step,
)
from lessons.models import User
from tests.conftest import ClassWorld
from tests.engine.strategies import Config, configs
from tests.games.helpers import make_table

pytestmark = pytest.mark.django_db

TIMER = {"turn_timer": 30}
# Uno Fractions, two students, a full draw pile: seat 1 plays first on 1/3.
SETUP = {
    "dealer": 0,
    "hands": [["2/6r", "5/6v", "1/2b", "joker"], ["4/12j", "2/3r", "10/12v", "1/6b"]],
    "start": "1/3v",
}


def _table(table_id: int) -> Table:
    return Table.objects.prefetch_related("seats").get(pk=table_id)


def _seat(table_id: int, index: int) -> Seat:
    return Seat.objects.get(table_id=table_id, index=index)


def _due_now(table: Table) -> datetime:
    """Return a clock reading at which the table's timer (if any) has run out."""
    return (table.deadline or timezone.now()) + timedelta(seconds=1)


def _timer_turn(table_id: int) -> int:
    """Let the timer play one whole turn of the acting seat; return that seat."""
    table = _table(table_id)
    seat = Game.from_dict(table.state).acting_seat()
    assert seat is not None and table.deadline is not None
    while True:
        outcome = table_step(table_id=table_id, state_id=table.state_id, now=_due_now(table))
        assert outcome is not None
        table = _table(table_id)
        if Game.from_dict(table.state).acting_seat() != seat or table.deadline is None:
            return seat


def _robots_until(table_id: int, seat: int) -> None:
    """Let the robots play until ``seat`` is due (a robot may play twice: a two-player +2)."""
    for _ in range(20):
        table = _table(table_id)
        if Game.from_dict(table.state).acting_seat() == seat:
            return
        assert table_step(table_id=table_id, state_id=table.state_id) is not None
    raise AssertionError(f"seat {seat} never became due")


def test_the_timer_hands_a_seat_to_a_robot_after_its_third_turn_in_a_row(
    pair: tuple[User, User],
) -> None:
    assert TIMER_TURNS_BEFORE_BOT == 3
    table = make_table(list(pair), setup=SETUP, table_settings=TIMER)
    turns = [_timer_turn(table.pk) for _ in range(4)]
    assert turns == [1, 0, 1, 0]
    assert not _seat(table.pk, 0).bot_takeover and not _seat(table.pk, 1).bot_takeover
    assert _timer_turn(table.pk) == 1  # seat 1's third turn played by the timer
    seat = _seat(table.pk, 1)
    assert seat.bot_takeover and seat.bot == Seat.Bot.HEURISTIC and seat.is_automatic
    assert seat.user_id == pair[1].pk  # the seat stays the student's
    assert not _seat(table.pk, 0).bot_takeover
    # Every timer move is on the record, and the seats show the robot to everyone.
    table = _table(table.pk)
    actors = set(TableEvent.objects.filter(table=table).values_list("actor", flat=True))
    assert actors == {TableEvent.Actor.TIMER}
    players = {p["seat"]: p for p in table_info(table=table)["players"]}
    assert players[1]["takeover"] is True and players[0]["takeover"] is False
    # Seat 0's third timer turn hands it over too; from then on robots play, at bot pace.
    assert _timer_turn(table.pk) == 0
    assert _seat(table.pk, 0).bot_takeover
    table = _table(table.pk)
    assert table.deadline is None
    step = next_step_for(table)
    assert step is not None and step.delay == bot_delay()
    outcome = table_step(table_id=table.pk, state_id=table.state_id)
    assert outcome is not None
    last = TableEvent.objects.filter(table=table).order_by("seq").last()
    assert last is not None and last.actor == TableEvent.Actor.BOT


def test_a_move_of_the_student_breaks_the_run(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=SETUP, table_settings=TIMER)
    assert [_timer_turn(table.pk) for _ in range(4)] == [1, 0, 1, 0]
    # Seat 1 draws by itself; the timer then passes for it: the run starts again.
    table = _table(table.pk)
    table_act(table_id=table.pk, user=pair[1], action={"type": "draw"}, state_id=table.state_id)
    assert _timer_turn(table.pk) == 1
    assert not _seat(table.pk, 1).bot_takeover
    assert _timer_turn(table.pk) == 0
    assert _seat(table.pk, 0).bot_takeover  # seat 0 never acted: its third timer turn
    for _ in range(2):
        assert not _seat(table.pk, 1).bot_takeover
        _robots_until(table.pk, 1)
        assert _timer_turn(table.pk) == 1
    assert _seat(table.pk, 1).bot_takeover


def _taken_over(pair: Any) -> Table:
    """Return a table whose seat 1 a robot plays, on seat 1's turn."""
    table = make_table(list(pair), setup=SETUP, table_settings=TIMER)
    for _ in range(5):
        _timer_turn(table.pk)
    table = _table(table.pk)
    # Seat 0 is due: play its turn as the student would, so seat 1's robot is due next.
    table_act(table_id=table.pk, user=pair[0], action={"type": "draw"}, state_id=table.state_id)
    table = _table(table.pk)
    table_act(table_id=table.pk, user=pair[0], action={"type": "pass"}, state_id=table.state_id)
    table = _table(table.pk)
    assert _seat(table.pk, 1).bot_takeover and Game.from_dict(table.state).acting_seat() == 1
    assert table.deadline is None
    return table


def test_the_student_takes_the_seat_back_by_playing(pair: tuple[User, User]) -> None:
    table = _taken_over(pair)
    outcome = table_act(
        table_id=table.pk, user=pair[1], action={"type": "draw"}, state_id=table.state_id
    )
    assert [e["type"] for e in outcome.events][:1] == ["drew"]
    assert not _seat(table.pk, 1).bot_takeover
    table = _table(table.pk)
    assert table.deadline is not None  # the student's own timer runs again
    last = TableEvent.objects.filter(table=table).order_by("seq").last()
    assert last is not None and last.actor == TableEvent.Actor.PLAYER


def test_a_late_action_still_gives_the_seat_back_and_plays_nothing(pair: tuple[User, User]) -> None:
    table = _taken_over(pair)
    moves, state_id = table.moves, table.state_id
    outcome = table_act(
        table_id=table.pk, user=pair[1], action={"type": "draw"}, state_id=state_id - 1
    )
    assert outcome.events == [] and outcome.state_id == state_id
    table = _table(table.pk)
    assert not _seat(table.pk, 1).bot_takeover
    assert (table.moves, table.state_id) == (moves, state_id)
    assert table.deadline is not None  # seat 1 is due: its timer is armed again
    assert next_step_for(table) is not None and next_step_for(table).delay > bot_delay()  # type: ignore[union-attr]


def test_the_take_back_button(pair: tuple[User, User], class_a: ClassWorld, client: Client) -> None:
    table = _taken_over(pair)
    url = reverse("games:seat_bot", args=[table.pk, 1])
    # Someone else's seat, or asking for a robot: refused.
    client.force_login(pair[0])
    assert client.post(url, {"bot": "off"}).status_code == 403
    client.force_login(pair[1])
    assert client.post(url, {"bot": "on"}).status_code == 403
    assert _seat(table.pk, 1).bot_takeover
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    assert 'id="play-takeback"' in page
    response = client.post(url, {"bot": "off"})
    assert response.status_code == 302
    assert not _seat(table.pk, 1).bot_takeover
    assert _table(table.pk).deadline is not None


def test_the_take_back_button_does_not_restart_a_running_timer(
    pair: tuple[User, User], client: Client
) -> None:
    table = make_table(list(pair), setup=SETUP, table_settings=TIMER)
    deadline = timezone.now() + timedelta(seconds=3)
    Table.objects.filter(pk=table.pk).update(deadline=deadline)
    client.force_login(pair[1])
    client.post(reverse("games:seat_bot", args=[table.pk, 1]), {"bot": "off"})
    assert _table(table.pk).deadline == deadline


def test_the_teacher_sees_the_robot_and_may_give_the_seat_back(
    pair: tuple[User, User], class_a: ClassWorld, client: Client
) -> None:
    table = _taken_over(pair)
    client.force_login(class_a.teacher)
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    assert 'data-bot-input="1"' in page
    assert 'value="off" data-bot-input="1"' in page  # the toggle gives the seat back


def _full_deck_setup(ruleset: str, players: int, start: str) -> dict[str, Any]:
    """Deal the whole deck but the start card: nothing to draw, nothing to reshuffle."""
    rest = list(DECKS[ruleset])
    rest.remove(start)
    return {
        "dealer": 0,
        "hands": [rest[seat::players] for seat in range(players)],
        "start": start,
    }


@pytest.mark.parametrize(
    ("ruleset", "start"), [("fractions", "1/3v"), ("classic", "5r"), ("family_quick", "5r")]
)
def test_the_observed_table_ends_a_blocked_round(
    pair: tuple[User, User], ruleset: str, start: str
) -> None:
    # The reported table: both hands hold the deck (pile 0, a one-card discard), both away.
    setup = _full_deck_setup(ruleset, 2, start)
    table = make_table(
        list(pair), ruleset=ruleset, setup=setup, table_settings=TIMER, options={"target_score": 0}
    )
    assert _timer_turn(table.pk) == 1
    assert _timer_turn(table.pk) == 0
    table = _table(table.pk)
    assert table.status == Table.Status.FINISHED
    last = TableEvent.objects.filter(table=table).order_by("seq").last()
    assert last is not None
    kinds = [e["type"] for e in last.result]
    assert kinds == ["drew", "passed", "blocked", "round_over", "game_over"]
    names = {0: "Anaïs", 1: "Basile"}
    blocked = last.result[2]
    assert announce(blocked, "fr", names, None) == (
        "Plus rien à piocher et personne n’a joué : la manche est bloquée et s’arrête."
    )
    assert announce(blocked, "en", names, None) == (
        "Nothing left to draw and nobody played: the round is blocked and ends."
    )
    assert next_step_for(table) is None


# ---------------------------------------------------------------- every seat away, any position

# The bound: a robot takes each seat after at most TIMER_TURNS_BEFORE_BOT turns of the timer
# (two moves each: draw, pass), so robots play every seat from about move 2 * 3 * 10 = 60 on
# (10 seats); the rest is a robots' game to a target of at most 100 points (as
# tests.engine.strategies draws them). The same policy played in the engine alone over 3,000
# Hypothesis examples (this strategy, up to 80 random moves first) took at most 748 moves;
# this test's examples take under 400. MAX_STEPS is five times that worst case; a table that
# ran for ever (the reported one logged a pass a second past state 650) would pass it.
MAX_STEPS = 4_000
WARM_UP = 80


def _users(count: int) -> list[Any]:
    model = get_user_model()
    return [model.objects.get_or_create(username=f"away{n}")[0] for n in range(count)]


def _reach(config: Config, moves: int, rng: random.Random) -> Game:
    """Play random legal moves from a new game: a reachable position."""
    game = Game.new(config.ruleset, config.players, options=config.options, seed=config.seed)
    for _ in range(moves):
        if game.over:
            break
        seat = game.acting_seat()
        if seat is None:
            seat = rng.randrange(config.players)
        actions = game.legal_actions(seat)
        if actions:
            game.apply(seat, rng.choice(actions))
    return game


@pytest.mark.timeout(600)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(config=configs(), moves=st.integers(0, WARM_UP), timer=st.integers(1, 600))
def test_a_table_of_absent_players_always_finishes(config: Config, moves: int, timer: int) -> None:
    users = _users(config.players)
    table = make_table(users, ruleset=config.ruleset, table_settings={"turn_timer": timer})
    game = _reach(config, moves, random.Random(config.seed))
    Table.objects.filter(pk=table.pk).update(
        state=game.to_dict(),
        options=config.options,
        deadline=timezone.now() if not game.over else None,
        status=Table.Status.FINISHED if game.over else Table.Status.PLAYING,
    )
    table = _table(table.pk)
    steps = 0
    while table.status != Table.Status.FINISHED:
        assert steps < MAX_STEPS, f"not over after {MAX_STEPS} steps"
        outcome = table_step(table_id=table.pk, state_id=table.state_id, now=_due_now(table))
        assert outcome is not None, "the server has nothing to do on an unfinished table"
        table = _table(table.pk)
        steps += 1
    assert Game.from_dict(table.state).over
    actors = set(TableEvent.objects.filter(table=table).values_list("actor", flat=True))
    assert actors <= {TableEvent.Actor.TIMER, TableEvent.Actor.BOT}
    # The timer never played a seat for more than its turns: a robot took over in time.
    timed_turns = [0] * config.players
    rows = TableEvent.objects.filter(table=table, actor=TableEvent.Actor.TIMER)
    for seat, action, result in rows.values_list("seat", "action", "result"):
        ended = action["type"] != "draw" or any(e["type"] == "passed" for e in result)
        if action["type"] != "next_round" and ended:
            timed_turns[seat] += 1
    assert max(timed_turns) <= TIMER_TURNS_BEFORE_BOT, timed_turns
