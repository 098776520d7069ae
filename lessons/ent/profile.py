"""Read an ENT's CAS answer through a connector's attribute names: who, what role, which class.

Names and class names come cleaned as a typed pupil's name is (lessons.classrooms.name_rule):
controls and invisible format characters dropped first (a right-to-left override U+202E would
make one name look like another on the matching screen), white space made single spaces.
A role holding both a teacher's and a pupil's value is ambiguous: refused, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from lessons.classrooms.name_rule import name_clean
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
    # Both a teacher's and a pupil's role value (then role is None): the sign-in is refused.
    role_ambiguous: bool = False


def ent_text_clean(text: str) -> str:
    """Return an ENT's name as a typed name is stored: no controls or format characters
    (U+202E and the other bidi controls, zero-width ones), white space as single spaces.
    """
    visible = "".join(
        char if char.isprintable() else " " if char.isspace() else "" for char in text
    )
    return name_clean(visible)


def _values(attributes: Mapping[str, object], name: str) -> tuple[str, ...]:
    """Return an attribute's values as strings (CAS gives one value or a list)."""
    if not name:
        return ()
    raw = attributes.get(name)
    if raw is None:
        return ()
    items = raw if isinstance(raw, list | tuple) else [raw]
    return tuple(str(item).strip() for item in items if item is not None and str(item).strip())


def _names(attributes: Mapping[str, object], name: str) -> tuple[str, ...]:
    """Return an attribute's values cleaned as names (see the module), empty ones dropped."""
    cleaned = (ent_text_clean(value) for value in _values(attributes, name))
    return tuple(value for value in cleaned if value)


def profile_from_answer(
    connector: EntConnector, cas_user: str, attributes: Mapping[str, object]
) -> EntProfile | None:
    """Return the profile of a validated CAS answer, or None if it carries no usable id.

    The id comes from the connector's id attribute; when the ENT releases none, the CAS user
    name stands in (it is what the server vouched for). An id with invisible characters is no
    usable id: the link page shows it to the teacher, who must read it as it is.
    """
    ids = _values(attributes, connector.id_attribute)
    external_id = ids[0] if ids else (cas_user or "").strip()
    if (
        not external_id
        or len(external_id) > ENT_EXTERNAL_ID_MAX_LENGTH
        or not external_id.isprintable()
    ):
        return None
    roles = set(_values(attributes, connector.role_attribute))
    teacher = bool(roles & connector.teacher_role_values)
    pupil = bool(roles & connector.pupil_role_values)
    role: Role | None = None
    if teacher and not pupil:
        role = "teacher"
    elif pupil and not teacher:
        role = "pupil"
    names = _names(attributes, connector.name_attribute)
    return EntProfile(
        external_id=external_id,
        display_name=(names[0] if names else "")[:150],
        role=role,
        classes=_names(attributes, connector.classes_attribute),
        schools=_values(attributes, connector.school_attribute),
        role_ambiguous=teacher and pupil,
    )
