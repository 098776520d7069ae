"""Link pupils of a class to their ENT accounts, and unlink them: the only writes of the links.

A teacher links from the class's matching screen (an ENT pupil seen but not linked, and a pupil
of the list) or from a class list file with an ENT id column. Each change is all or nothing,
checked with the class locked, and leaves an EntLinkEvent saying who did it.

One ENT account is one pupil: an ENT id already linked to a present pupil of a class still in
use is refused (the teacher of that class unlinks first). A link left on a pupil who has since
gone (removed, or their class archived at the end of the year) gives way to the new one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from lessons.classrooms.name_rule import classroom_lock, name_identity
from lessons.ent.matching import class_name_fits
from lessons.models import (
    ENT_EXTERNAL_ID_MAX_LENGTH,
    Classroom,
    EntClassName,
    EntConnector,
    EntIdentity,
    EntLinkEvent,
    EntSeenPupil,
    Student,
    User,
)

LINK_ARCHIVED = _("This class is archived: its pupils' ENT links cannot change.")
LINK_PUPIL_GONE = _("A chosen pupil is no longer in this class. Reload the page.")
LINK_SEEN_GONE = _("An ENT pupil of the list is no longer waiting (linked meanwhile?). Reload.")
LINK_PUPIL_TWICE = _("“%(name)s” is chosen for more than one ENT account.")
LINK_PUPIL_LINKED = _("“%(name)s” is already linked to an ENT account: unlink it first.")
LINK_ID_TAKEN = _("The ENT account of “%(name)s” is already linked to a pupil of another class.")
LINK_ID_TWICE = _("The ENT id “%(id)s” is given to more than one pupil.")
LINK_ID_BAD = _("“%(id)s” is not an ENT id (at most %(limit)d characters, no spaces).")
LINK_NOT_LINKED = _("“%(name)s” is not linked to an ENT account.")
CLASS_NAME_UNKNOWN = _("No ENT pupil has been seen in the class “%(name)s”.")


@dataclass(frozen=True)
class PupilLink:
    """One link to make: this ENT account (connector and id) is this pupil."""

    student: Student
    connector: EntConnector
    external_id: str


def links_made_message(count: int) -> str:
    """Return what the teacher reads once pupils are linked."""
    return ngettext(
        "%(count)d pupil linked: they can sign in with the ENT.",
        "%(count)d pupils linked: they can sign in with the ENT.",
        count,
    ) % {"count": count}


def ent_id_fault(external_id: str) -> bool:
    """Return whether a text cannot be an ENT id (empty, too long, spaces or unprintable)."""
    return (
        not external_id
        or len(external_id) > ENT_EXTERNAL_ID_MAX_LENGTH
        or not external_id.isprintable()
        or any(char.isspace() for char in external_id)
    )


def classroom_ent_names(classroom: Classroom) -> list[str]:
    """Return the names the class goes by in the ENT: its own and those the teacher chose."""
    return [classroom.name, *classroom.ent_class_names.values_list("name", flat=True)]


def seen_for_classroom(classroom: Classroom) -> list[EntSeenPupil]:
    """Return the unlinked ENT pupils whose ENT classes are this class, oldest name first."""
    names = classroom_ent_names(classroom)
    seen = EntSeenPupil.objects.filter(connector__enabled=True).select_related("connector")
    return [pupil for pupil in seen if class_name_fits(pupil.classes, names)]


def seen_class_names() -> list[str]:
    """Return the ENT class names of the unlinked pupils seen (names only, no pupils)."""
    names: set[str] = set()
    for classes in EntSeenPupil.objects.filter(connector__enabled=True).values_list(
        "classes", flat=True
    ):
        names.update(str(name) for name in classes or [])
    return sorted(names)


def _live(classroom: Classroom) -> Classroom:
    locked = classroom_lock(classroom)
    if locked.archived_at is not None:
        raise ValidationError(LINK_ARCHIVED, code="archived")
    return locked


def link_is_stale(identity: EntIdentity) -> bool:
    """Tell whether a pupil's link has been left behind (the pupil removed or their class
    archived); a teacher's link never is.
    """
    if not identity.user.is_student:
        return False
    student = Student.objects.filter(user_id=identity.user_id).select_related("classroom").first()
    return (
        student is None
        or student.pseudonymised_at is not None
        or student.classroom.archived_at is not None
        or not identity.user.is_active
    )


def _checked(classroom: Classroom, links: Sequence[PupilLink]) -> list[ValidationError]:
    errors: list[ValidationError] = []
    students = [link.student.pk for link in links]
    present = set(
        classroom.students.filter(pk__in=students, pseudonymised_at__isnull=True).values_list(
            "pk", flat=True
        )
    )
    if present != set(students):
        errors.append(ValidationError(LINK_PUPIL_GONE, code="pupil_gone"))
    accounts: set[tuple[int, str]] = set()
    chosen: set[int] = set()
    for link in links:
        name = {"name": link.student.display_name}
        if link.student.pk in chosen:
            errors.append(ValidationError(LINK_PUPIL_TWICE, code="pupil_twice", params=name))
        chosen.add(link.student.pk)
        account = (link.connector.pk, link.external_id)
        if account in accounts:
            errors.append(
                ValidationError(LINK_ID_TWICE, code="id_twice", params={"id": link.external_id})
            )
        accounts.add(account)
        if EntIdentity.objects.filter(user_id=link.student.user_id).exists():
            errors.append(ValidationError(LINK_PUPIL_LINKED, code="pupil_linked", params=name))
        taken = (
            EntIdentity.objects.select_related("user")
            .filter(connector=link.connector, external_id=link.external_id)
            .first()
        )
        if taken is not None and not link_is_stale(taken):
            errors.append(ValidationError(LINK_ID_TAKEN, code="id_taken", params=name))
    return errors


def pupils_link(
    *,
    classroom: Classroom,
    links: Sequence[PupilLink],
    by: User,
    action: str = EntLinkEvent.Action.LINKED,
) -> list[EntIdentity]:
    """Link each pupil to their ENT account; all or nothing, every problem raised at once."""
    with transaction.atomic():
        _live(classroom)
        errors = _checked(classroom, links)
        if errors:
            raise ValidationError(errors)
        try:
            with transaction.atomic():
                made = _links_write(classroom, links, by, action)
        except IntegrityError as error:
            # Another class linked one of these accounts (or pupils) at the same moment.
            raise ValidationError(LINK_SEEN_GONE, code="race") from error
    return made


def _links_write(
    classroom: Classroom, links: Sequence[PupilLink], by: User, action: str
) -> list[EntIdentity]:
    made: list[EntIdentity] = []
    for link in links:
        account = {"connector": link.connector, "external_id": link.external_id}
        # A link left on a pupil who has gone gives way (see the module's docstring).
        EntIdentity.objects.filter(**account).delete()
        EntSeenPupil.objects.filter(**account).delete()
        made.append(
            EntIdentity.objects.create(**account, user_id=link.student.user_id, linked_by=by)
        )
        EntLinkEvent.objects.create(classroom=classroom, student=link.student, by=by, action=action)
    return made


def links_carry(*, source: Classroom, classroom: Classroom, by: User) -> int:
    """Carry the ENT links of an archived class's pupils to the same pupils of its new year's
    class (matched by name, as the new year copies them); return how many were carried.

    An ENT account stays the pupil's from one year to the next: nobody matches them again.
    """
    new_pupils = {
        name_identity(student.display_name): student
        for student in classroom.students.filter(pseudonymised_at__isnull=True)
    }
    carried = 0
    identities = EntIdentity.objects.filter(
        user__student__classroom=source, user__student__pseudonymised_at__isnull=True
    ).select_related("user__student")
    for identity in identities:
        student = new_pupils.get(name_identity(identity.user.student.display_name))
        if student is None or EntIdentity.objects.filter(user_id=student.user_id).exists():
            continue
        identity.user_id = student.user_id
        identity.save(update_fields=["user"])
        EntLinkEvent.objects.create(
            classroom=classroom, student=student, by=by, action=EntLinkEvent.Action.CARRIED
        )
        carried += 1
    return carried


def seen_link(
    *, classroom: Classroom, choices: Mapping[int, Student], by: User
) -> list[EntIdentity]:
    """Link the seen ENT pupils (by their row's id) to the chosen pupils of the class."""
    with transaction.atomic():
        _live(classroom)
        visible = {pupil.pk: pupil for pupil in seen_for_classroom(classroom)}
        if any(seen_id not in visible for seen_id in choices):
            raise ValidationError(LINK_SEEN_GONE, code="seen_gone")
        links = [
            PupilLink(student, visible[seen_id].connector, visible[seen_id].external_id)
            for seen_id, student in choices.items()
        ]
        return pupils_link(classroom=classroom, links=links, by=by)


def pupil_unlink(*, classroom: Classroom, student: Student, by: User) -> None:
    """Remove a pupil's ENT link: their next ENT sign-in waits for the teacher again."""
    with transaction.atomic():
        _live(classroom)
        if not classroom.students.filter(pk=student.pk, pseudonymised_at__isnull=True).exists():
            raise ValidationError(LINK_PUPIL_GONE, code="pupil_gone")
        deleted, _rows = EntIdentity.objects.filter(user_id=student.user_id).delete()
        if not deleted:
            raise ValidationError(
                LINK_NOT_LINKED, code="not_linked", params={"name": student.display_name}
            )
        EntLinkEvent.objects.create(
            classroom=classroom, student=student, by=by, action=EntLinkEvent.Action.UNLINKED
        )


def class_names_set(*, classroom: Classroom, names: Iterable[str]) -> None:
    """Set the ENT class names that are this class (only names of ENT pupils seen)."""
    wanted = sorted(set(names))
    with transaction.atomic():
        _live(classroom)
        known = set(seen_class_names()) | set(
            classroom.ent_class_names.values_list("name", flat=True)
        )
        unknown = [name for name in wanted if name not in known]
        if unknown:
            raise ValidationError(
                [
                    ValidationError(CLASS_NAME_UNKNOWN, code="unknown_class", params={"name": n})
                    for n in unknown
                ]
            )
        classroom.ent_class_names.exclude(name__in=wanted).delete()
        for name in wanted:
            EntClassName.objects.get_or_create(classroom=classroom, name=name)


def links_forget(user_id: int) -> None:
    """Delete a pupil's ENT link and any waiting record of the same ENT account (erasure)."""
    for identity in EntIdentity.objects.filter(user_id=user_id):
        EntSeenPupil.objects.filter(
            connector_id=identity.connector_id, external_id=identity.external_id
        ).delete()
    EntIdentity.objects.filter(user_id=user_id).delete()
