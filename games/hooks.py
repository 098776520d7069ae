"""Extension points that let other apps react to tables without games importing them.

`lessons` registers its access, naming, placing, practice and reason rules here at start-up
(AppConfig.ready), so that the dependency goes one way only: lessons → games. What a move
writes besides the table (the attempt log) goes through games.listeners.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import TableError

# Answer whether a user (not seated) may watch a table: teachers of the seated students.
watch_rules: list[Callable[[Any, Any], bool]] = []


def may_watch(user: Any, table: Any) -> bool:
    """Tell whether any registered rule lets this user watch the table."""
    return any(rule(user, table) for rule in watch_rules)


# Answer whether a watching user may act on one seat (hand it to a robot or back; a pause
# acts on every seat): lessons lets only the teachers of that seat's pupil's class. No rule:
# whoever may watch the table.
seat_rules: list[Callable[[Any, Any, int], bool]] = []


def may_act_on_seat(user: Any, table: Any, seat_index: int) -> bool:
    """Tell whether every registered rule lets this watching user act on the table's seat."""
    return all(rule(user, table, seat_index) for rule in seat_rules)


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


# Say where the player of a finished practice table asks for another game (a POST URL), for a
# table another app owns (lessons: an assigned practice's way in); None: not this rule's.
replay_rules: list[Callable[[Any], str | None]] = []


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


# Refuse a user's practice table before it is dealt (lessons: a pupil of an archived class,
# which is read-only): a rule raises games.errors.TableError with the message to show.
practice_checks: list[Callable[[Any], None]] = []


def practice_check(user: Any) -> None:
    """Raise the first registered rule's TableError when the user may not start practice."""
    for rule in practice_checks:
        rule(user)


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


# The compare question after a refused trap at a practice table (lessons: "Which one is at the
# same place as the pile's card?"). The socket asks these rules (table_id, user, example, lang)
# for the worked example's `compare` or None; the answer goes to compare_answer_rules (table_id,
# user, choice), which log it or raise games.errors.TableError. Never evidence.
compare_prompt_rules: list[Callable[[int, Any, dict[str, Any], str], dict[str, Any] | None]] = []
compare_answer_rules: list[Callable[[int, Any, object], None]] = []
NO_COMPARE_ASKED = _("No comparison is waiting for an answer.")


def compare_prompt(
    table_id: int, user: Any, example: dict[str, Any], lang: str
) -> dict[str, Any] | None:
    """Return the first registered rule's compare question for the worked example, or None."""
    for rule in compare_prompt_rules:
        prompt = rule(table_id, user, example, lang)
        if prompt is not None:
            return prompt
    return None


def compare_answer(table_id: int, user: Any, choice: object) -> None:
    """Log the user's answer to the compare question; raise TableError when it is refused."""
    if not compare_answer_rules:
        raise TableError("no_compare_asked", NO_COMPARE_ASKED)
    for rule in compare_answer_rules:
        rule(table_id, user, choice)
