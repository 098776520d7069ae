"""What a service sends, read through the outbox's capture (games.outbox.captured)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games import outbox
from games.broadcast import table_group, update_body
from games.realtime.signout import SIGNED_OUT_MESSAGE, tell_signed_out, user_group
from games.services import table_act, table_set_paused
from tests.games.helpers import FRACTIONS_SETUP, hold_still, make_table
from tests.support.outbox import table_updates

pytestmark = pytest.mark.django_db(transaction=True)
_still = pytest.fixture(autouse=True)(hold_still)


def _play(table: Any, user: Any, *, publish: bool = True) -> Any:
    action = {"type": "play", "card": "4/12j"}  # equal to 1/3
    return table_act(table_id=table.pk, user=user, action=action, state_id=0, publish=publish)


def test_a_move_sends_its_table_update_once_committed(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with outbox.captured() as sent:
        outcome = _play(table, pair[1])
    (update,) = table_updates(sent)
    assert [item.group for item in sent if item.message is update] == [table_group(table.pk)]
    assert update["state_id"] == outcome.state_id == 1
    assert update is outcome.update
    assert [e["type"] for e in update_body(update)["events"]][:1] == ["played"]


def test_the_movers_link_gets_the_update_and_nothing_is_sent_for_it(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with outbox.captured() as sent:
        outcome = _play(table, pair[1], publish=False)
    assert table_updates(sent) == []
    assert outcome.update is not None and outcome.update["state_id"] == 1


def test_nothing_leaves_a_transaction_rolled_back(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with outbox.captured() as sent:
        with pytest.raises(RuntimeError), transaction.atomic():
            table_set_paused(table_id=table.pk, paused=True)
            raise RuntimeError("rolled back")
        assert sent == []
        table_set_paused(table_id=table.pk, paused=True)
    (update,) = table_updates(sent)
    assert update_body(update)["events"] == []  # seats or status only


def test_a_message_waits_for_the_commit(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with outbox.captured() as sent, transaction.atomic():
        _play(table, pair[1])
        assert sent == []  # not before the commit: a page would see a change not stored
    assert len(table_updates(sent)) == 1


def test_a_sign_out_is_sent_and_never_repaired(pair: Any) -> None:
    user = pair[0]
    with outbox.captured() as sent:
        tell_signed_out(user.pk, "key")
    (item,) = sent
    assert item.group == user_group(user.pk)
    assert item.message == {"type": SIGNED_OUT_MESSAGE, "session_key": "key"}
    assert item.repaired is False
