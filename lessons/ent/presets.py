"""Attribute names and role values of the ENT shapes we know, to fill a connector's form.

Édifice (Open ENT NG, ONE): "Connecteur – CAS – Inventaire des réponses". The GAR: CAS 3.0,
IDO (opaque id), PRO (profile), DIV (classes), UAI.
"""

from __future__ import annotations

from typing import TypedDict


class PresetValues(TypedDict):
    """What a preset fills in a connector."""

    protocol: int
    id_attribute: str
    name_attribute: str
    role_attribute: str
    classes_attribute: str
    school_attribute: str
    teacher_roles: str
    pupil_roles: str


PRESETS: dict[str, PresetValues] = {
    "edifice": {
        "protocol": 2,
        "id_attribute": "externalId",
        "name_attribute": "displayName",
        "role_attribute": "profile",
        "classes_attribute": "classes",
        "school_attribute": "uai",
        "teacher_roles": "Teacher",
        "pupil_roles": "Student",
    },
    "gar": {
        "protocol": 3,
        "id_attribute": "IDO",
        # The GAR releases names (PRE first name, NOM) only when the resource's contract asks
        # (minimal data); without them the teacher matches the pupil by class.
        "name_attribute": "PRE",
        "role_attribute": "PRO",
        "classes_attribute": "DIV",
        "school_attribute": "UAI",
        "teacher_roles": "National_ens, National_doc",
        "pupil_roles": "National_elv",
    },
}
