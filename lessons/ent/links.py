"""Link pupils of a class to their ENT accounts, and unlink them: the only writes of the links.

A teacher links from the class's matching screen (an ENT pupil seen but not linked, and a pupil
of the list) or from a class list file with an ENT id column. Each change is all or nothing,
checked with the class locked, and leaves an EntLinkEvent saying who did it.

One ENT account is one pupil: an ENT id already linked to a present pupil of a class still in
use is refused (the teacher of that class unlinks first). A link left on a pupil who has since
gone (removed, or their class archived at the end of the year) gives way to the new one.

A teacher sees and links only the waiting pupils lessons.ent.claims lets them see; when a
pupil is linked, every other active class whose ENT classes the pupil was seen in gets a
notice (an ELSEWHERE event on its matching screen).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from lessons.classrooms.access import is_school_admin
from lessons.classrooms.name_rule import classroom_lock, name_identity
from lessons.ent.claims import Claims, claims_read
from lessons.ent.tickets import ent_sign_ins_end
from lessons.models import (
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
CLASS_NAME_TAKEN = _(
    "Another teacher's class already takes the ENT class “%(name)s”: only the school admin "
    "can give it to this class."
)


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


def classroom_ent_names(classroom: Classroom) -> list[str]:
    """Return the names the class goes by in the ENT: its own and those the teacher chose."""
    return [classroom.name, *classroom.ent_class_names.values_list("name", flat=True)]


def seen_for_classroom(
    classroom: Classroom, teacher: User, claims: Claims | None = None
) -> list[EntSeenPupil]:
    """Return the unlinked ENT pupils of the ENT classes this class takes that the teacher
    may see (lessons.ent.claims), in name order.
    """
    claims = claims or claims_read(including=classroom)
    seen = EntSeenPupil.objects.filter(connector__enabled=True).select_related("connector")
    return [
        pupil
        for pupil in seen
        if any(claims.visible(str(name), classroom, teacher) for name in pupil.classes or [])
    ]


def contested_class_names(classroom: Classroom, teacher: User) -> list[str]:
    """Return the ENT class names seen that this class takes but another teacher's class
    takes too: their pupils wait for the school admin to give the name to one class.
    """
    claims = claims_read(including=classroom)
    return [name for name in seen_class_names() if claims.contested(name, classroom, teacher)]


def class_names_free(classroom: Classroom, teacher: User, names: Iterable[str]) -> list[str]:
    """Return the names the teacher may choose for the class: no other teacher's class's."""
    claims = claims_read(including=classroom)
    return [name for name in names if not claims.taken_by_others(name, classroom, teacher)]


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
    claims = claims_read(including=classroom)
    for link in links:
        account = {"connector": link.connector, "external_id": link.external_id}
        seen_in = [
            str(name)
            for classes in EntSeenPupil.objects.filter(**account).values_list("classes", flat=True)
            for name in classes or []
        ]
        # A link left on a pupil who has gone gives way (see the module's docstring).
        EntIdentity.objects.filter(**account).delete()
        EntSeenPupil.objects.filter(**account).delete()
        made.append(
            EntIdentity.objects.create(**account, user_id=link.student.user_id, linked_by=by)
        )
        EntLinkEvent.objects.create(classroom=classroom, student=link.student, by=by, action=action)
        _elsewhere_notices(claims, classroom, link.student, by, seen_in)
    return made


def _elsewhere_notices(
    claims: Claims, classroom: Classroom, student: Student, by: User, seen_in: list[str]
) -> None:
    """Tell each other active class whose ENT classes the pupil was seen in (named like it,
    chosen or given) that the pupil is now linked in `classroom`.
    """
    told: set[int] = set()
    for name in seen_in:
        told |= claims.named(name)
    for other in sorted(told - {classroom.pk}):
        if claims.labels[other].archived_at is None:
            EntLinkEvent.objects.create(
                classroom_id=other, student=student, by=by, action=EntLinkEvent.Action.ELSEWHERE
            )


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
    """Link the seen ENT pupils (by their row's id) to the chosen pupils of the class; only
    those the teacher sees waiting there (lessons.ent.claims).
    """
    with transaction.atomic():
        _live(classroom)
        visible = {pupil.pk: pupil for pupil in seen_for_classroom(classroom, by)}
        if any(seen_id not in visible for seen_id in choices):
            raise ValidationError(LINK_SEEN_GONE, code="seen_gone")
        links = [
            PupilLink(student, visible[seen_id].connector, visible[seen_id].external_id)
            for seen_id, student in choices.items()
        ]
        return pupils_link(classroom=classroom, links=links, by=by)


def pupil_unlink(*, classroom: Classroom, student: Student, by: User) -> None:
    """Remove a pupil's ENT link and end the sessions its ENT sign-ins opened: their next ENT
    sign-in waits for the teacher again.
    """
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
        # Whoever signed in through the link (the wrong pupil, if that is why it goes) is out.
        ent_sign_ins_end(student.user_id)


def class_names_set(*, classroom: Classroom, names: Iterable[str], by: User) -> None:
    """Set the ENT class names that are this class (only names of ENT pupils seen, and none
    another teacher's class takes: the school admin gives those). A name the school admin
    gave stays.
    """
    wanted = sorted(set(names))
    with transaction.atomic():
        _live(classroom)
        chosen = set(classroom.ent_class_names.values_list("name", flat=True))
        known = set(seen_class_names()) | chosen
        errors = [
            ValidationError(CLASS_NAME_UNKNOWN, code="unknown_class", params={"name": n})
            for n in wanted
            if n not in known
        ]
        fresh = [name for name in wanted if name in known and name not in chosen]
        errors += [
            ValidationError(CLASS_NAME_TAKEN, code="taken_class", params={"name": n})
            for n in fresh
            if n not in class_names_free(classroom, by, [n])
        ]
        if errors:
            raise ValidationError(errors)
        classroom.ent_class_names.exclude(name__in=wanted).filter(granted=False).delete()
        for name in wanted:
            EntClassName.objects.get_or_create(classroom=classroom, name=name)


def links_forget(user_id: int) -> None:
    """Delete a pupil's ENT link and any waiting record of the same ENT account (erasure)."""
    for identity in EntIdentity.objects.filter(user_id=user_id):
        EntSeenPupil.objects.filter(
            connector_id=identity.connector_id, external_id=identity.external_id
        ).delete()
    EntIdentity.objects.filter(user_id=user_id).delete()


CLASS_NAME_GIVE_UNKNOWN = _("Choose an ENT class seen and a class in use.")


def class_name_give(*, name: str, classroom: Classroom | None, by: User) -> None:
    """Give an ENT class to one class (the school admin's decision): only that class takes
    it from now on, whatever others are named or chose. None takes the decision back.
    """
    if not is_school_admin(by):
        raise PermissionDenied
    with transaction.atomic():
        if name not in set(seen_class_names()) | set(
            EntClassName.objects.filter(granted=True).values_list("name", flat=True)
        ):
            raise ValidationError(CLASS_NAME_GIVE_UNKNOWN, code="unknown_class")
        EntClassName.objects.filter(name=name, granted=True).delete()
        if classroom is None:
            return
        _live(classroom)
        EntClassName.objects.update_or_create(
            classroom=classroom, name=name, defaults={"granted": True}
        )


def class_name_takers(name: str) -> tuple[list[Classroom], bool]:
    """Return the active classes that take an ENT class, and whether the school admin gave it."""
    claims = claims_read()
    takers = sorted((claims.labels[pk] for pk in claims.takers(name)), key=lambda c: (c.name, c.pk))
    return takers, claims.is_granted(name)
