"""The ENT's pupils: the unlinked ones seen (for the matching screen), the ENTs to sign in with.

A pupil's sign-in itself is lessons.home.ent_pupils (it lands them in their class's session).
"""

from __future__ import annotations

from django.utils import timezone

from lessons.ent.profile import EntProfile
from lessons.models import EntConnector, EntSeenPupil


def seen_record(connector: EntConnector, profile: EntProfile) -> EntSeenPupil:
    """Remember an unlinked pupil for the teacher's matching screen (refreshed at each visit)."""
    seen, _created = EntSeenPupil.objects.update_or_create(
        connector=connector,
        external_id=profile.external_id,
        defaults={
            "display_name": profile.display_name,
            "classes": list(profile.classes),
            "seen_at": timezone.now(),
        },
    )
    return seen


def pupil_connectors() -> list[EntConnector]:
    """Return the ENTs a pupil can sign in with (one button each on /join/)."""
    return list(EntConnector.objects.filter(enabled=True))
