"""The one port through which the app that hosts the tables serves games: a typed table host.

`lessons` registers its host once at start-up (LessonsConfig.ready), so that the dependency
goes one way only: lessons -> games. It answers who may watch a table and act on its seats,
what a player is called, where a table sits, the options and checks of a practice table, the
reason prompt and its answer, and what a judged play or a player's action writes inside the
move's transaction (games.listeners holds what it is told), and hears that a table's game
is over. Without a registered host, games
runs on `NullHost`: names from the account, nobody watches, nothing is written beside a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Model
from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.listeners import JudgedPlay, PlayerAction, Write

# The refusal of an answer when no question waits for it (also when no host asks any).
NO_REASON_ASKED = _("No question is waiting for an answer.")
NO_COMPARE_ASKED = _("No comparison is waiting for an answer.")


@dataclass(frozen=True)
class TablePlace:
    """Where a table sits in the host's activity (lessons: a table of a class session)."""

    # The table's number as its players and their teacher see it (not the table's id).
    number: int
    # The activity is over (the class session has ended): no next game.
    ended: bool
    # Where a player asks for their next game (a POST), or None.
    next_game_url: str | None = None


class TableHost(Protocol):
    """What games asks the app that hosts its tables."""

    @property
    def seat_row(self) -> type[Model] | None:
        """Name a model with a one-to-one `seat` key to games.Seat, read with the seats by
        the table lock (its row of the acting seat comes in `seat_row`), or None."""
        ...

    def display_name(self, user: Any) -> str | None:
        """Return the name a user is shown under at a table, or None (the account's)."""
        ...

    def may_watch(self, user: Any, table: Any) -> bool:
        """Tell whether a user who is not seated may watch the table."""
        ...

    def may_act_on_seat(self, user: Any, table: Any, seat_index: int) -> bool:
        """Tell whether a watching user may act on one seat (a robot in or out, a pause)."""
        ...

    def table_place(self, table: Any) -> TablePlace | None:
        """Say where the table sits, or None (nowhere: a practice table)."""
        ...

    def replay_url(self, table: Any) -> str | None:
        """Say where the player of a finished practice table the host owns asks for another
        game (a POST URL), or None (games' own way)."""
        ...

    def practice_options(self, user: Any, deck_level: str) -> dict[str, Any]:
        """Return the extra engine options of the user's practice table ({}: none); the deck
        level is the form's, never the host's."""
        ...

    def practice_check(self, user: Any) -> None:
        """Raise TableError (with the message to show) when the user may not start practice."""
        ...

    def reason_prompt(self, table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
        """Return what to ask after the user's refused fraction play (the frame's
        `ask_reason`: {"choices": [{"code", "label"}, ...]}), or None."""
        ...

    def reason_answer(self, table_id: int, user: Any, code: object) -> None:
        """Store the answer to the reason prompt; raise TableError when it is refused."""
        ...

    def compare_prompt(
        self, table_id: int, user: Any, example: dict[str, Any], lang: str
    ) -> dict[str, Any] | None:
        """Return the question to compare after the user's refused trap at a practice table
        (the worked example's `compare`), or None. Never evidence."""
        ...

    def compare_answer(self, table_id: int, user: Any, choice: object) -> None:
        """Log the answer to the compare question; raise TableError when it is refused."""
        ...

    def picture_seats(self, table: Any) -> frozenset[int]:
        """Return the seats of a practice table with pictures on whose cards show them now
        (not yet faded: docs/protocol.md, `pictures`)."""
        ...

    def judged_play(self, play: JudgedPlay) -> list[Write]:
        """Return the rows to write for a judged fraction play (accepted or refused)."""
        ...

    def player_action(self, record: PlayerAction) -> list[Write]:
        """Return the rows to write for any action a player had applied."""
        ...

    def table_over(self, table_id: int) -> None:
        """Hear, inside the transaction, that a table's game is over (won, or finished by a
        caller): plan what follows (lessons: the class session's new game, games.driver)."""
        ...


class NullHost:
    """The host while no app registered one."""

    seat_row: type[Model] | None = None

    def display_name(self, user: Any) -> str | None:
        return None

    def may_watch(self, user: Any, table: Any) -> bool:
        return False

    def may_act_on_seat(self, user: Any, table: Any, seat_index: int) -> bool:
        return True  # whoever may watch the table

    def table_place(self, table: Any) -> TablePlace | None:
        return None

    def replay_url(self, table: Any) -> str | None:
        return None

    def practice_options(self, user: Any, deck_level: str) -> dict[str, Any]:
        return {}

    def practice_check(self, user: Any) -> None:
        return None

    def picture_seats(self, table: Any) -> frozenset[int]:
        return frozenset()  # no attempt log to count right plays in: no pictures

    def reason_prompt(self, table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
        return None

    def reason_answer(self, table_id: int, user: Any, code: object) -> None:
        raise TableError("no_reason_asked", NO_REASON_ASKED)

    def compare_prompt(
        self, table_id: int, user: Any, example: dict[str, Any], lang: str
    ) -> dict[str, Any] | None:
        return None

    def compare_answer(self, table_id: int, user: Any, choice: object) -> None:
        raise TableError("no_compare_asked", NO_COMPARE_ASKED)

    def judged_play(self, play: JudgedPlay) -> list[Write]:
        return []

    def player_action(self, record: PlayerAction) -> list[Write]:
        return []

    def table_over(self, table_id: int) -> None:
        return None


_registered: TableHost = NullHost()


def register(host: TableHost) -> None:
    """Make `host` the one games asks (lessons, at start-up; a test's stand-in)."""
    global _registered
    _registered = host


def registered() -> TableHost:
    """Return the registered host (a NullHost when none is)."""
    return _registered


def display_name(user: Any) -> str:
    """Return the name a user is shown under at a table (the host's, else the account's)."""
    return _registered.display_name(user) or str(user.get_full_name() or user.get_username())
