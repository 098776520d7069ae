"""What the privacy notice says about how long pupils' data are kept.

`manage.py purge_expired` (run daily from cron, docs/deploy.md) erases a class's pupils'
data the school's retention period after the class is archived or its school year ends
(lessons.school.retention); the notice states that period.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons.school.retention import school_policy


@dataclass(frozen=True)
class Retention:
    """The erasure the server applies by itself."""

    # Months after a class is archived (or the school year ends) before its pupils' data go.
    months: int
    # Whether the plays are kept under a pseudonym (names and PINs still go).
    keep_pseudonymised: bool = False


def retention_in_force() -> Retention | None:
    """Return the automatic erasure in force (the school's policy)."""
    policy = school_policy()
    return Retention(months=policy.months, keep_pseudonymised=policy.keep_pseudonymised)
