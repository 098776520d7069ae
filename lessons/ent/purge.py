"""Forget what the ENT sign-in keeps for a short while: unlinked pupils seen more than
ENT_SEEN_RETENTION_DAYS ago, and ticket records older than a session can live.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from lessons.ent.tickets import ticket_purge
from lessons.models import ENT_SEEN_RETENTION_DAYS, EntSeenPupil


def ent_purge(*, now: datetime | None = None) -> tuple[int, int]:
    """Delete the stale seen-pupil and ticket records; return how many of each."""
    moment = now or timezone.now()
    cutoff = moment - timedelta(days=ENT_SEEN_RETENTION_DAYS)
    seen, _ = EntSeenPupil.objects.filter(seen_at__lt=cutoff).delete()
    return seen, ticket_purge(now=moment)
