"""The table socket passes on a notice from outside the game, and says what may be played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async

from games import driver
from games.services import ACTIVITY_ENDED, table_announce_end, table_finish
from lessons.models import User
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.games.streams import table_reader

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_steps() -> Iterator[None]:
    yield
    driver.cancel_all()


def _finish_and_announce(table_id: int) -> None:
    table_finish(table_id=table_id)
    table_announce_end(table_id=table_id)


@pytest.mark.parametrize("transport", ["socket", "stream"])
async def test_a_page_on_a_finished_table_hears_that_its_activity_ended(
    pair: tuple[User, User], transport: str
) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    link = await table_reader(transport, table.pk, pair[0])
    first = await link.frame("state")
    # The link speaks the page's language (English here): what may go on the pile.
    assert first["to_play"][0] == "a fraction equal to 1/3 or with 3 at the bottom"
    await database_sync_to_async(_finish_and_announce)(table.pk)
    notice = await link.frame("notice")
    assert notice == {"type": "notice", "notice": ACTIVITY_ENDED}
    await link.disconnect()
