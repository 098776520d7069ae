"""What the privacy notice says about how long pupils' data are kept.

Nothing is purged automatically yet, so `retention_in_force()` returns None and the notice says
so, and what the school must do. Once `manage.py purge_expired` (issue 12, data protection)
applies the school's setting (`SchoolPolicy.retention_months`), return that period here, and
the notice states it. Storing a setting that nothing applies must not change the notice.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Retention:
    """The erasure the server applies by itself."""

    # Months after a class is archived (or the school year ends) before its pupils' data go.
    months: int


def retention_in_force() -> Retention | None:
    """Return the automatic erasure in force, or None while nothing is erased automatically."""
    return None
