"""System check: an enabled ENT connector over plain http is refused in production."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register
from django.db import DatabaseError


@register(Tags.security, deploy=True)
def ent_servers_use_https(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """Warn for each enabled connector whose CAS server is not https while DEBUG is off."""
    if settings.DEBUG:
        return []
    from lessons.models import EntConnector

    try:
        plain = [
            connector.name
            for connector in EntConnector.objects.filter(enabled=True)
            if not connector.server_url.lower().startswith("https://")
        ]
    except DatabaseError:  # no database yet (before migrate): nothing configured
        return []
    return [
        Warning(
            f"The ENT connector {name!r} reaches its CAS server over plain http.",
            hint="Use the ENT's https address: a ticket and its answer must not travel "
            "in clear. Sign-in through it is refused until then.",
            id="unoclass.ent.W001",
        )
        for name in plain
    ]
