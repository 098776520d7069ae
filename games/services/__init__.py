"""Write operations on tables: the only path that changes a game (one module per job).

- creation: create a table and deal its first round (table_create);
- moves: a player's action (table_act), through commit: store the move, broadcast after it;
- server_steps, planning, awaiting: the server's own moves (robots, turn timers, the next
  round), when they fall due (the NextStep games.driver runs), whom a table waits for;
- seats: seat hand-overs (a robot in or out, a student into a robot's seat);
- table_status: pause, finish, announce the end of a table's activity;
- records: replay a table, rename a player in it;
- outcomes, table_lock: the values they share, the table lock.

The public names are re-exported here: some seventy modules (lessons, the tests, the benches)
import them from `games.services`, and a caller needs a service, not its module.
"""

from games.errors import TableError
from games.services.awaiting import robot_time
from games.services.creation import table_create
from games.services.moves import JUDGED_ERROR_CODES, table_act
from games.services.outcomes import NOT_SEATED, NextStep, Outcome, SeatSpec
from games.services.planning import bot_delay, due_seat, next_step_for, round_pause
from games.services.records import player_name_replace, table_replay
from games.services.seats import seat_give_to_bot, seat_give_to_user, seat_set_takeover
from games.services.server_steps import TIMER_TURNS_BEFORE_BOT, seat_came, table_step
from games.services.table_status import (
    ACTIVITY_ENDED,
    table_announce_end,
    table_finish,
    table_set_paused,
)

__all__ = [
    "ACTIVITY_ENDED",
    "JUDGED_ERROR_CODES",
    "NOT_SEATED",
    "TIMER_TURNS_BEFORE_BOT",
    "NextStep",
    "Outcome",
    "SeatSpec",
    "TableError",
    "bot_delay",
    "due_seat",
    "next_step_for",
    "player_name_replace",
    "robot_time",
    "round_pause",
    "seat_came",
    "seat_give_to_bot",
    "seat_give_to_user",
    "seat_set_takeover",
    "table_act",
    "table_announce_end",
    "table_create",
    "table_finish",
    "table_replay",
    "table_set_paused",
    "table_step",
]
