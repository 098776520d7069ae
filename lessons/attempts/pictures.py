"""Pictures of fractions at a practice table: shown until a few right plays in a row.

A practice table started with pictures on (games.players.pictures_on) shows, under each
fraction card's value, a bar or the number line. Counted here from the attempt log, so a
reload or another device finds the same: the pictures fade once the student's last
FADE_AFTER judged plays at the table were all right, and come back with the next refused
play (a child who is stuck again gets the support back). Attempts made while they were shown
are stored with `pictures` set and are never diagnosis evidence (lessons.evidence.loading).
A class session's table never shows them (games.services.creation, games.players).
"""

from __future__ import annotations

from typing import Any, Final

from lessons.models import Attempt, SeatStudent

# Right plays in a row after which the pictures fade.
FADE_AFTER: Final = 3


def pictures_shown(table_id: int, student_id: int) -> bool:
    """Tell whether the student's cards at the table show pictures now (not yet faded)."""
    last = list(
        Attempt.objects.filter(table_id=table_id, student_id=student_id)
        .order_by("-id")
        .values_list("outcome", flat=True)[:FADE_AFTER]
    )
    return len(last) < FADE_AFTER or Attempt.Outcome.WRONG in last


def picture_seats(table: Any) -> frozenset[int]:
    """Return the table's seats whose student's cards show pictures now.

    A seat's student is the attempt log's (SeatStudent); a seat without one has not played a
    judged fraction yet, so its pictures are shown.
    """
    seats = {seat.index: seat.pk for seat in table.seats.all() if seat.user_id is not None}
    students = dict(
        SeatStudent.objects.filter(seat_id__in=seats.values()).values_list("seat_id", "student_id")
    )
    return frozenset(
        index
        for index, seat_id in seats.items()
        if seat_id not in students or pictures_shown(table.pk, students[seat_id])
    )
