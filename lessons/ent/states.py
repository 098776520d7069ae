"""The state of an ENT sign-in: a random value this browser's session holds, carried in the
service URL's query, checked and consumed at the callback.

A ticket is issued for one service URL, and each sign-in's service URL carries its own state
(`…/callback/?state=<random>`): the callback accepts it only from the session that started that
sign-in, once, within STATE_SECONDS. A callback URL someone else's browser started (a login
CSRF, or the first step of linking a victim's account to the sender's ENT account) is refused
before its ticket is claimed or sent to the ENT: it changes nothing.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, TypedDict

from django.http import HttpRequest

STATES_KEY = "ent_states"
STATE_PARAMETER = "state"
# The time between pressing the ENT button and coming back: the ENT's sign-in form in between.
STATE_SECONDS = 10 * 60
# Sign-ins a session may have under way at once (one per open tab, say); older ones give way.
STATES_MAX = 5
# 32 random bytes, URL-safe base64 (43 characters): unguessable, and a plain query value.
STATE_BYTES = 32
STATE_MAX_LENGTH = 64


class SignInState(TypedDict):
    """What a started sign-in remembers: its connector, its deadline and where to land."""

    connector: int
    until: float
    next: str


def now() -> float:
    """Return the clock the states are read by (a function, so tests can move it)."""
    return time.time()


def _states(request: HttpRequest) -> dict[str, Any]:
    stored = request.session.get(STATES_KEY)
    return dict(stored) if isinstance(stored, dict) else {}


def state_start(request: HttpRequest, connector_id: int, next_url: str) -> str:
    """Remember a new sign-in in the session; return its state for the service URL."""
    moment = now()
    live: dict[str, dict[str, Any]] = {
        state: record
        for state, record in _states(request).items()
        if isinstance(record, dict) and float(record.get("until", 0)) >= moment
    }
    # The oldest give way: a session holds at most STATES_MAX sign-ins under way.
    newest = sorted(live.items(), key=lambda item: float(item[1].get("until", 0)))
    kept: dict[str, Any] = dict(newest[-(STATES_MAX - 1) :]) if STATES_MAX > 1 else {}
    state = secrets.token_urlsafe(STATE_BYTES)
    kept[state] = SignInState(connector=connector_id, until=moment + STATE_SECONDS, next=next_url)
    request.session[STATES_KEY] = kept
    return state


def state_take(request: HttpRequest, connector_id: int, state: str) -> SignInState | None:
    """Consume the sign-in the state names; None unless this session started it for this
    connector less than STATE_SECONDS ago. A state this session never held changes nothing.
    """
    if not state or len(state) > STATE_MAX_LENGTH:
        return None
    states = _states(request)
    record = states.get(state)
    if not isinstance(record, dict):
        return None
    del states[state]  # one use, whatever follows
    request.session[STATES_KEY] = states
    if int(record.get("connector") or 0) != connector_id:
        return None
    if float(record.get("until", 0)) < now():
        return None
    return SignInState(
        connector=connector_id,
        until=float(record["until"]),
        next=str(record.get("next") or ""),
    )
