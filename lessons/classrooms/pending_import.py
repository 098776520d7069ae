"""A teacher's roster file read but not yet confirmed: kept in the teacher's session.

The preview page shows what confirming would add; the names wait in the session under
PENDING_IMPORT_KEY (`{"classroom": id, "names": [...]}`) until the teacher confirms, and
an erasure drops a waiting file that names the erased pupil (lessons.school.copies).
"""

from __future__ import annotations

from typing import Any

PENDING_IMPORT_KEY = "lessons.classrooms.pending_import"


def pending_import_names(data: dict[str, Any], classroom_ids: set[int]) -> list[str]:
    """Return the names of a session's waiting roster file for one of these classes."""
    pending = data.get(PENDING_IMPORT_KEY)
    if not isinstance(pending, dict) or pending.get("classroom") not in classroom_ids:
        return []
    return [str(name) for name in pending.get("names") or []]
