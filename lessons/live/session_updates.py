"""Tell the teacher's live overview of a class session that something changed."""

from __future__ import annotations

from games import outbox

SESSION_UPDATE = {"type": "session.update"}


def session_group(session_id: int) -> str:
    """Name a class session's Channels group from its id (never from user text)."""
    return f"session_{session_id}"


def session_changed(session_id: int) -> None:
    """Ask every overview link of the session to refresh, once the transaction commits.

    Through the outbox, like a table's broadcast: in daphne it is handed to the event loop and
    never waited on, and it never raises. A blocking send here raised after a move had
    committed when Redis was away (the mover's socket got no state); a failed publish keeps the
    group, which is sent a repair nudge once the layer is back (the overview refreshes on it).
    """
    outbox.send_on_commit(session_group(session_id), dict(SESSION_UPDATE))
