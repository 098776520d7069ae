"""The language a report is read in: the reader's own choice (the language switcher's)."""

from __future__ import annotations

from django.utils import translation

from lessons.reporting.present import LANGS


def reader_lang() -> str:
    """Return the active language if the diagnosis texts have it, else French."""
    lang = (translation.get_language() or "fr")[:2]
    return lang if lang in LANGS else "fr"
