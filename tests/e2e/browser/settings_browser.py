"""Settings for the daphne that the browser tests start: the ordinary ones, with cheap PINs.

The game's pace (GAMES_BOT_DELAY, GAMES_ROUND_PAUSE) comes from the environment, as in production.
"""

from __future__ import annotations

import os

from unoclass.settings import *  # noqa: F403

# Student PINs are not checked by these tests: a cheap hash keeps the set-up quick.
PIN_HASH_ITERATIONS = 1_000

# Presence (games.presence) and the arrival wait of a session's tables, in seconds: a module
# that tests them on a server of its own shortens them from the environment (unset: the
# product's 90 s and 45 s).
GAMES_PRESENT_FOR = float(os.environ.get("GAMES_PRESENT_FOR") or 0) or None
SESSIONS_ARRIVAL_WAIT = int(os.environ.get("SESSIONS_ARRIVAL_WAIT") or 0) or None
