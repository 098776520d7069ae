"""Which columns of a model an export carries: every stored column but the secrets.

Read from the model, so a new column is exported without anyone remembering to list it; the
pupil's data export (lessons.school.student_export) and the research attempts CSV
(lessons.reporting.exports) read their rows through it.
"""

from __future__ import annotations

from typing import Final

from django.db import models

# Columns never exported: secrets.
# An ENT sign-in's ticket hash and session key would let whoever reads the file replay the
# sign-in or take over the session.
SECRET_COLUMNS: Final = frozenset(
    {
        "lessons.Student.pin_hash",
        "lessons.User.password",
        "lessons.EntSignIn.ticket_hash",
        "lessons.EntSignIn.session_key",
    }
)


def columns(model: type[models.Model]) -> tuple[str, ...]:
    """Return the exported columns of `model`: every concrete column but the secrets."""
    label = model._meta.label
    return tuple(
        field.attname
        for field in model._meta.concrete_fields
        if f"{label}.{field.name}" not in SECRET_COLUMNS
    )
