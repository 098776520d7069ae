"""Read what services sent through the outbox (games.outbox.captured) in tests."""

from __future__ import annotations

from typing import Any

from games.outbox import Sent


def table_updates(sent: list[Sent]) -> list[dict[str, Any]]:
    """Return the `table.update` messages among what was sent, in order."""
    return [item.message for item in sent if item.message.get("type") == "table.update"]
