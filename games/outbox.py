"""Send what a service changed to the pages that show it: the one way to the channel layer.

Every service of games and lessons (a table's update or notice, the live overview's update, a
sign-out) calls `send_on_commit`: the message leaves once the transaction has committed, so a
page never hears of a change that was rolled back, and it leaves without blocking the worker
thread (games.realtime.publishing hands it to daphne's loop, the delivery ledger keeps what the
layer loses for the layer watch to repair, and it never raises). A table link that acted sends
its own player the update first (`games.services.table_act(..., publish=False)`), then passes
it on with `send_soon`.

Tests read what a service sent with `captured()`, as Zulip's `capture_send_event_calls` does;
`tests/test_outbox_only.py` fails if anything else reaches the layer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.realtime import publishing


@dataclass(frozen=True)
class Sent:
    """One message for one group; `repaired`: a lost one is made good by a repair nudge."""

    group: str
    message: dict[str, Any]
    repaired: bool = True


# The captures open in this process (tests): the innermost one takes what is sent.
_captures: list[list[Sent]] = []


def send_on_commit(group: str, message: dict[str, Any], *, repaired: bool = True) -> None:
    """Send `message` to `group` once the current transaction commits (at once outside one).

    `repaired=False` for a message nobody repairs after an outage (a sign-out: every link
    checks its own session anyway).
    """
    sent = Sent(group, message, repaired)
    transaction.on_commit(lambda: _deliver(sent))


def send_soon(group: str, message: dict[str, Any], *, skip: str | None = None) -> None:
    """Send a committed update from a link's event loop, never waiting on the layer.

    `skip`: the link's own channel, which has the update already.
    """
    if _captures:
        _captures[-1].append(Sent(group, message))
        return
    publishing.publish_soon(group, message, skip)


def _deliver(sent: Sent) -> None:
    if _captures:
        _captures[-1].append(sent)
    elif sent.repaired:
        publishing.publish_from_thread(sent.group, sent.message)
    else:
        publishing.send_or_log(sent.group, sent.message)


@contextmanager
def captured() -> Iterator[list[Sent]]:
    """Collect what is sent meanwhile instead of sending it (tests)."""
    sent: list[Sent] = []
    _captures.append(sent)
    try:
        yield sent
    finally:
        _captures.pop()
