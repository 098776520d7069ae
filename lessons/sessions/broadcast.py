"""Tell the teacher's live overview of a class session that something changed."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def session_group(session_id: int) -> str:
    """Name a class session's Channels group from its id (never from user text)."""
    return f"session_{session_id}"


def session_changed(session_id: int) -> None:
    """Ask every overview socket of the session to refresh (call after commit)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(session_group(session_id), {"type": "session.update"})
