"""Pick a socket's language from its handshake, as the pages pick theirs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings


def language_of(scope: Mapping[str, Any]) -> str:
    """Return the language cookie's language, else the browser's first known one, else French."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie[:2] in supported:
        return str(cookie[:2])
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for part in value.decode("latin-1").split(","):
                code = part.strip()[:2].lower()
                if code in supported:
                    return str(code)
    return str(settings.LANGUAGE_CODE)
