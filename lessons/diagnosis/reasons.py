"""The student's own reason for a wrong "equal" claim, and the rule each reason points to.

After a refused "equal" claim the play page may ask "Why did you think they were equal?" with
these answers (Eedi's diagnostic answers, inside the game), in a fresh random order each time:
the status model reads a child who clicks without reading as choosing each answer with chance
1 / len(REASONS). The warm-up keeps one order per child instead (lessons.warmup: a child finds
their answer where it was); a child who always taps the same place then gives one reason
every time, which the model does not read as evidence (model.py, reasons_weigh).
"""

from __future__ import annotations

from typing import Final

REASON_ADDED: Final = "added_same"
REASON_SAME_TOP: Final = "same_top"
REASON_SAME_BOTTOM: Final = "same_bottom"
REASON_GUESSED: Final = "guessed"

# Reason code -> the rule it points to (None: "I guessed" points to no rule).
REASONS: Final[dict[str, str | None]] = {
    REASON_ADDED: "M1",
    REASON_SAME_TOP: "M2",
    REASON_SAME_BOTTOM: "M3",
    REASON_GUESSED: None,
}

# The answers as a child reads them, French first.
REASON_LABELS: Final[dict[str, dict[str, str]]] = {
    REASON_ADDED: {
        "fr": "J’ai ajouté le même nombre en haut et en bas",
        "en": "I added the same number on top and bottom",
    },
    REASON_SAME_TOP: {
        "fr": "Les nombres du haut sont les mêmes",
        "en": "The top numbers are the same",
    },
    REASON_SAME_BOTTOM: {
        "fr": "Les nombres du bas sont les mêmes",
        "en": "The bottom numbers are the same",
    },
    REASON_GUESSED: {"fr": "J’ai deviné", "en": "I guessed"},
}

# Rule -> the reason that names it.
REASON_FOR_RULE: Final[dict[str, str]] = {
    rule: code for code, rule in REASONS.items() if rule is not None
}

__all__ = [
    "REASONS",
    "REASON_ADDED",
    "REASON_FOR_RULE",
    "REASON_GUESSED",
    "REASON_LABELS",
    "REASON_SAME_BOTTOM",
    "REASON_SAME_TOP",
]
