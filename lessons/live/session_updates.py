"""Tell the teacher's live overview of a class session that something changed."""

from __future__ import annotations

from games.realtime import delivery

SESSION_UPDATE = {"type": "session.update"}


def session_group(session_id: int) -> str:
    """Name a class session's Channels group from its id (never from user text)."""
    return f"session_{session_id}"


def session_changed(session_id: int) -> None:
    """Ask every overview link of the session to refresh (call after commit).

    The same path as a table's broadcast (games.realtime.delivery): in daphne it is handed to
    the event loop and never waited on, and it never raises. A blocking send here raised after
    a move had committed when Redis was away (the mover's socket got no state); a failed
    publish now keeps the group, which is sent a repair nudge once the layer is back (the
    overview refreshes on it).
    """
    delivery.publish_from_thread(session_group(session_id), dict(SESSION_UPDATE))
