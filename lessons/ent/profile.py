"""Read an ENT's CAS answer through a connector's attribute names: who, what role, which class."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from lessons.models import ENT_EXTERNAL_ID_MAX_LENGTH, EntConnector

Role = Literal["teacher", "pupil"]


@dataclass(frozen=True)
class EntProfile:
    """What one CAS answer says of the user; nothing of it is stored for a linked user."""

    external_id: str
    display_name: str
    role: Role | None  # None: neither a teacher nor a pupil here (a parent, a staff member)
    classes: tuple[str, ...]
    schools: tuple[str, ...]


def _values(attributes: Mapping[str, object], name: str) -> tuple[str, ...]:
    """Return an attribute's values as strings (CAS gives one value or a list)."""
    if not name:
        return ()
    raw = attributes.get(name)
    if raw is None:
        return ()
    items = raw if isinstance(raw, list | tuple) else [raw]
    return tuple(str(item).strip() for item in items if item is not None and str(item).strip())


def profile_from_answer(
    connector: EntConnector, cas_user: str, attributes: Mapping[str, object]
) -> EntProfile | None:
    """Return the profile of a validated CAS answer, or None if it carries no usable id.

    The id comes from the connector's id attribute; when the ENT releases none, the CAS user
    name stands in (it is what the server vouched for).
    """
    ids = _values(attributes, connector.id_attribute)
    external_id = ids[0] if ids else (cas_user or "").strip()
    if not external_id or len(external_id) > ENT_EXTERNAL_ID_MAX_LENGTH:
        return None
    roles = set(_values(attributes, connector.role_attribute))
    role: Role | None = None
    if roles & connector.teacher_role_values:
        role = "teacher"
    elif roles & connector.pupil_role_values:
        role = "pupil"
    names = _values(attributes, connector.name_attribute)
    return EntProfile(
        external_id=external_id,
        display_name=(names[0] if names else "")[:150],
        role=role,
        classes=_values(attributes, connector.classes_attribute),
        schools=_values(attributes, connector.school_attribute),
    )
