"""Close the sockets of a sign-in when it signs out, in any tab: every socket of a signed-in
user joins the user's group, and a sign-out tells that group once the request has committed.

On a shared tablet the next child must never play in the previous child's seat: the tabs of the
signed-out session close with 4401 at once. A socket of the same user opened from another
device (another session) checks its own session and stays if it still signs the user in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from games import outbox

SIGNED_OUT_MESSAGE = "user.signed_out"


def user_group(user_id: int) -> str:
    """Name a user's group from their id (never from user text)."""
    return f"user_{user_id}"


@receiver(user_logged_out, dispatch_uid="games.realtime.signout")
def close_sockets_on_sign_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Tell the user's sockets that this session signed out, once the sign-out has committed."""
    if user is None or user.pk is None:
        return
    # Django sends the signal before it flushes the session: the key is still the old one.
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    user_id = user.pk
    tell_signed_out(user_id, session_key)


def tell_signed_out(user_id: int, session_key: str | None) -> None:
    """Send the sign-out to every link of the user, once committed (RealtimeLink.user_signed_out).

    `session_key` None ends every link of the user; a key ends that session's links only.
    """
    # Redis away: the sign-out page must not fail; each link's own session check
    # (RealtimeLink.check_signed_in: with each action, and a stream's heartbeat) closes it.
    message = {"type": SIGNED_OUT_MESSAGE, "session_key": session_key}
    outbox.send_on_commit(user_group(user_id), message, repaired=False)


def tell_sign_ins_changed(user_id: int) -> None:
    """Ask every link of the user to check its own session (a password change: the changing
    device's session was renewed and stays; every other one no longer signs in)."""
    message = {"type": SIGNED_OUT_MESSAGE, "check": True}
    outbox.send_on_commit(user_group(user_id), message, repaired=False)
