"""Settings for the daphne that the browser tests start: the ordinary ones, with cheap PINs.

The game's pace (GAMES_BOT_DELAY, GAMES_ROUND_PAUSE) comes from the environment, as in production.
"""

from __future__ import annotations

from unoclass.settings import *  # noqa: F403

# Student PINs are not checked by these tests: a cheap hash keeps the set-up quick.
PIN_HASH_ITERATIONS = 1_000
