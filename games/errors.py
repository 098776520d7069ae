"""The web layer's refusal: a stable code, a translated message, and nothing changed."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused request, with a stable code and a translated message; nothing changed."""

    def __init__(
        self,
        code: str,
        message: Any,
        details: dict[str, Any] | None = None,
        messages: dict[str, str] | None = None,
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.details = details or {}
        # The engine's own wording in each language, when the refusal comes from the rules.
        self.messages = messages or {}

    def message_in(self, lang: str) -> str:
        """Return the message in `lang` (call inside translation.override(lang))."""
        return str(self.messages.get(lang) or self.message)
