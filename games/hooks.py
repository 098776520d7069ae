"""Extension points that let other apps react to tables without games importing them.

`lessons` registers its attempt log and its access rules here at start-up (AppConfig.ready),
so that the dependency goes one way only: lessons → games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import TableError


@dataclass(frozen=True)
class JudgedPlay:
    """A fraction play the engine judged, right or wrong, before anything is broadcast."""

    table_id: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    view_before: dict[str, Any]
    accepted: bool
    error_code: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    # Milliseconds between the state the player saw being committed and this play.
    response_ms: int | None = None
    # The table's stored actions before this play (TableEvent.seq of the last one): lets a
    # listener tell the plays of one turn from the next.
    moves: int = 0
    # The table's kept facts (Table.memo), stored with the move: a listener may keep under its
    # own key what it would otherwise read again on every play. Locked with the table row.
    memo: dict[str, Any] = field(default_factory=dict)
    # Each seat's last stored action (TableEvent.seq), or None when the table does not know
    # it (a table older than Table.memo): then a listener asks the database.
    seat_seq: dict[int, int] | None = None


@dataclass(frozen=True)
class PlayerAction:
    """Any action a player (not a bot or a timer) had applied, with the view they acted on."""

    table_id: int
    ruleset: str
    seat: int
    user_id: int | None
    action: dict[str, Any]
    view_before: dict[str, Any]
    events: list[dict[str, Any]]
    response_ms: int | None = None
    # As in JudgedPlay: the table's kept facts, and each seat's last stored action before this one.
    memo: dict[str, Any] = field(default_factory=dict)
    seat_seq: dict[int, int] | None = None


# Called inside the action's transaction: what they store commits with the action or not at all.
judged_play_listeners: list[Callable[[JudgedPlay], None]] = []
# Called inside the action's transaction for every action a player had applied.
player_action_listeners: list[Callable[[PlayerAction], None]] = []
# Answer whether a user (not seated) may watch a table: teachers of the seated students.
watch_rules: list[Callable[[Any, Any], bool]] = []


def notify_judged_play(play: JudgedPlay) -> None:
    """Pass a judged fraction play to every listener."""
    for listener in judged_play_listeners:
        listener(play)


def notify_player_action(record: PlayerAction) -> None:
    """Pass a player's applied action to every listener."""
    for listener in player_action_listeners:
        listener(record)


def may_watch(user: Any, table: Any) -> bool:
    """Tell whether any registered rule lets this user watch the table."""
    return any(rule(user, table) for rule in watch_rules)


# Give the name a player is shown under at a table (lessons: the student's display name).
name_rules: list[Callable[[Any], str | None]] = []


def display_name(user: Any) -> str:
    """Return the name a user is shown under at a table."""
    for rule in name_rules:
        name = rule(user)
        if name:
            return name
    return str(user.get_full_name() or user.get_username())


@dataclass(frozen=True)
class TablePlace:
    """Where a table sits in another app's activity (lessons: a table of a class session)."""

    # The table's number as its players and their teacher see it (not the table's id).
    number: int
    # The activity is over (the class session has ended): no next game.
    ended: bool
    # Where a player asks for their next game (a POST), or None.
    next_game_url: str | None = None


# Say where a table sits (None: nowhere; a practice table).
place_rules: list[Callable[[Any], TablePlace | None]] = []


def table_place(table: Any) -> TablePlace | None:
    """Return the first registered answer to where the table sits, or None."""
    for rule in place_rules:
        place = rule(table)
        if place is not None:
            return place
    return None


# Give the extra engine options of a user's practice table (lessons: dealing aimed at the
# student's likely, else emerging, misconception: "aim_pairs" and "aim_seat"). A rule returns
# {} when it has nothing to add; the table's deck level is the form's, never a rule's.
practice_rules: list[Callable[[Any, str], dict[str, Any]]] = []


def practice_options_for(user: Any, deck_level: str) -> dict[str, Any]:
    """Return the first registered rule's non-empty options for a practice table, else {}."""
    for rule in practice_rules:
        options = rule(user, deck_level)
        if options:
            return dict(options)
    return {}


# The reason prompt (lessons: "Why did you think they were equal?"). After a refused fraction
# play the table socket asks these rules what to ask (table_id, user, lang) -> the frame's
# `ask_reason` ({"choices": [{"code", "label"}, ...]}) or None; the answer goes to
# reason_answer_rules (table_id, user, code), which store it or raise games.errors.TableError.
reason_prompt_rules: list[Callable[[int, Any, str], dict[str, Any] | None]] = []
reason_answer_rules: list[Callable[[int, Any, object], None]] = []
# The refusal of an answer when no question waits for it (also when lessons is not installed).
NO_REASON_ASKED = _("No question is waiting for an answer.")


def reason_prompt(table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
    """Return the first registered rule's reason prompt for the user's refused play, or None."""
    for rule in reason_prompt_rules:
        prompt = rule(table_id, user, lang)
        if prompt is not None:
            return prompt
    return None


def reason_answer(table_id: int, user: Any, code: object) -> None:
    """Store the user's answer to the reason prompt; raise TableError when it is refused."""
    if not reason_answer_rules:
        raise TableError("no_reason_asked", NO_REASON_ASKED)
    for rule in reason_answer_rules:
        rule(table_id, user, code)
