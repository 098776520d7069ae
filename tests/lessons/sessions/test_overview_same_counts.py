"""The overview over both links and the dashboards count the same games alike (issue 31 §6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games import driver
from games.services import table_act
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.session_report import session_report
from tests.conftest import ClassWorld
from tests.games.helpers import receive_until
from tests.games.streams import cookie_for, post_frame
from tests.lessons.sessions.helpers import scripted_session
from tests.lessons.sessions.test_overview import _overview_socket, _wrong_play

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60  # nothing else moves during the test
    yield
    driver.cancel_all()


def _play_a_turn(class_a: Any, session: Any, table: Any) -> dict[str, tuple[int, int]]:
    """Play one turn (a refused card, then a right one); return each dashboard's count."""
    player = class_a.other_student
    _wrong_play(table, player.user)
    action = {"type": "play", "card": "4/12j", "claim": "equal"}
    table_act(table_id=table.pk, user=player.user, action=action, state_id=0)
    lesson = next(ln for ln in session_report(session).lines if ln.student == player.student)
    dash = class_dashboard(class_a.classroom)
    line = next(ln for ln in dash.lines if ln.student == player.student)
    return {
        "session": (lesson.claims, lesson.claims - lesson.correct),
        "class": (line.claims, line.claims - line.correct),
    }


async def test_socket_stream_and_dashboards_count_one_wrong_claim(class_a: ClassWorld) -> None:
    session, table = await database_sync_to_async(scripted_session)(class_a)
    counts = await database_sync_to_async(_play_a_turn)(class_a, session, table)
    student = class_a.other_student.student.pk

    comm = await _overview_socket(session.pk, class_a.teacher)
    connected, _ = await comm.connect()
    assert connected
    socket = await receive_until(comm, "overview")
    await comm.disconnect()
    posted = await post_frame(
        f"/sessions/{session.pk}/frames/", await cookie_for(class_a.teacher), {"type": "sync"}
    )
    (fallback,) = posted.frames
    for name, frame in (("socket", socket), ("fallback", fallback)):
        (row,) = [s for s in frame["data"]["students"] if s["id"] == student]
        counts[name] = (row["attempts"], row["errors"])
        assert row["tries"] == 2
    assert set(counts.values()) == {(1, 1)}, counts
