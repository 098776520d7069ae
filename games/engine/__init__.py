"""The pure rules engine of unoclass: Uno Fractions, classic UNO (with variants), Family Quick.

No Django, no I/O, no clock: a seeded, JSON-serialisable ``Game``.
"""

from __future__ import annotations

from .cards import RULESETS, card_name
from .errors import IllegalAction
from .game import Game
from .view import events_for

__all__ = ["RULESETS", "Game", "IllegalAction", "card_name", "events_for"]
