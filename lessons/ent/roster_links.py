"""Link pupils to their ENT accounts from a class list file's ENT id column.

The preview checks what it can before anything is added (an id no ENT pupil waiting in this
class's ENT classes has, for this teacher; an id already linked to a present pupil of another
class; a pupil of the class already linked to another id); confirming adds the new names and
links everyone in one transaction, through links.pupils_link, which checks again.

A file's id is no proof: it links only an ENT pupil who signed in and waits where the teacher
sees them (lessons.ent.claims), as the matching screen would.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import name_identity
from lessons.ent.links import (
    LINK_ID_TAKEN,
    LINK_PUPIL_LINKED,
    PupilLink,
    link_is_stale,
    pupils_link,
    seen_for_classroom,
)
from lessons.models import Classroom, EntConnector, EntIdentity, EntLinkEvent, Student, User

CSV_ENT_NONE = _(
    "The file has an ENT id column, but no ENT is set up for the school: ask the school's "
    "administrator, or remove the column."
)
CSV_ENT_CHOOSE = _("The file has ENT ids: choose the ENT they come from.")
CSV_ENT_UNSEEN = _(
    "No ENT pupil with the id “%(id)s” (for %(name)s) is waiting in this class's ENT classes: "
    "the pupil signs in once with the ENT, then the id can be linked."
)


def import_connector(connectors: list[EntConnector], chosen: EntConnector | None) -> EntConnector:
    """Return the ENT a file's ids come from: the only one, or the one chosen."""
    if not connectors:
        raise ValidationError(CSV_ENT_NONE, code="no_ent")
    if len(connectors) == 1:
        return connectors[0]
    if chosen is None:
        raise ValidationError(CSV_ENT_CHOOSE, code="choose_ent")
    return chosen


def _present(classroom: Classroom) -> dict[str, Student]:
    return {
        name_identity(student.display_name): student
        for student in classroom.students.filter(pseudonymised_at__isnull=True)
    }


def _already(student: Student, connector: EntConnector, ent_id: str) -> bool | None:
    """Tell whether the pupil is linked to this id (True), to another (False) or none (None)."""
    identity = EntIdentity.objects.filter(user_id=student.user_id).first()
    if identity is None:
        return None
    return identity.connector_id == connector.pk and identity.external_id == ent_id


def _waiting_ids(classroom: Classroom, connector: EntConnector, by: User) -> set[str]:
    """Return the ENT ids of the pupils the teacher sees waiting in this class's ENT classes."""
    return {
        seen.external_id
        for seen in seen_for_classroom(classroom, by)
        if seen.connector_id == connector.pk
    }


def _unseen(name: str, ent_id: str) -> ValidationError:
    return ValidationError(CSV_ENT_UNSEEN, code="unseen", params={"id": ent_id, "name": name})


def import_links_check(
    *, classroom: Classroom, connector: EntConnector, ent_ids: Mapping[str, str], by: User
) -> int:
    """Return how many links confirming would make, or raise every problem found."""
    present = _present(classroom)
    waiting = _waiting_ids(classroom, connector, by)
    errors: list[ValidationError] = []
    count = 0
    for name, ent_id in ent_ids.items():
        student = present.get(name_identity(name))
        if student is not None:
            already = _already(student, connector, ent_id)
            if already:
                continue
            if already is False:
                errors.append(
                    ValidationError(LINK_PUPIL_LINKED, code="pupil_linked", params={"name": name})
                )
                continue
        taken = (
            EntIdentity.objects.select_related("user")
            .filter(connector=connector, external_id=ent_id)
            .first()
        )
        if taken is not None and not link_is_stale(taken):
            errors.append(ValidationError(LINK_ID_TAKEN, code="id_taken", params={"name": name}))
            continue
        if ent_id not in waiting:
            errors.append(_unseen(name, ent_id))
            continue
        count += 1
    if errors:
        raise ValidationError(errors)
    return count


def import_links_make(
    *, classroom: Classroom, connector: EntConnector, ent_ids: Mapping[str, str], by: User
) -> list[EntIdentity]:
    """Link the file's pupils (already added) to their ENT ids; call inside the import's
    transaction, so a refusal takes the added names back too.
    """
    present = _present(classroom)
    waiting = _waiting_ids(classroom, connector, by)
    links = []
    errors = []
    for name, ent_id in ent_ids.items():
        student = present.get(name_identity(name))
        if student is None:
            continue  # removed meanwhile: pupils_link would refuse nothing to link
        if _already(student, connector, ent_id):
            continue
        if ent_id not in waiting:  # linked elsewhere, or hidden, since the preview
            errors.append(_unseen(name, ent_id))
            continue
        links.append(PupilLink(student, connector, ent_id))
    if errors:
        raise ValidationError(errors)
    return pupils_link(classroom=classroom, links=links, by=by, action=EntLinkEvent.Action.IMPORTED)
