"""Settings for the daphne that the browser tests start: the ordinary ones, with quick bots.

GAMES_BOT_DELAY and GAMES_ROUND_PAUSE come from the environment here until the main settings
read them (see /work/notes/play-page-requests.md).
"""

from __future__ import annotations

import os

from unoclass.settings import *  # noqa: F403

GAMES_BOT_DELAY = float(os.environ.get("GAMES_BOT_DELAY", "1.2"))
GAMES_ROUND_PAUSE = float(os.environ.get("GAMES_ROUND_PAUSE", "10"))
# Student PINs are not checked by these tests: a cheap hash keeps the set-up quick.
PIN_HASH_ITERATIONS = 1_000
