"""What a class's ENT matching screen shows: the ENT pupils waiting, each with what the matching
proposes, the pupils already linked (and who linked them), and the latest link changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons.classrooms.selectors import students_of_classroom
from lessons.ent.links import contested_class_names, seen_for_classroom
from lessons.ent.matching import EntPupil, Kind, Reason, RosterPupil, match
from lessons.models import Classroom, EntIdentity, EntLinkEvent, EntSeenPupil, Student, User

AUDIT_ROWS = 30


@dataclass(frozen=True)
class WaitingRow:
    """One ENT pupil waiting: the proposed pupil (if any), how sure, or the homonyms."""

    seen: EntSeenPupil
    proposed: Student | None
    kind: Kind | None
    reason: Reason | None
    homonyms: tuple[Student, ...]


@dataclass(frozen=True)
class LinkedRow:
    """One pupil of the class linked to an ENT account."""

    student: Student
    identity: EntIdentity


@dataclass(frozen=True)
class MatchingScreen:
    """Everything the matching screen reads."""

    waiting: list[WaitingRow]
    unlinked: list[Student]
    linked: list[LinkedRow]
    events: list[EntLinkEvent]
    # ENT classes this class takes that another teacher's class takes too (pupils hidden).
    contested: list[str]
    # Pupils seen in this class's ENT classes and linked in another class (the notices).
    elsewhere: list[EntLinkEvent]


def matching_screen(classroom: Classroom, teacher: User) -> MatchingScreen:
    """Return the class's matching screen as the teacher may see it: proposals for the
    waiting (lessons.ent.claims), the links, the audit and the notices.
    """
    students = students_of_classroom(classroom=classroom)
    identities = {
        identity.user_id: identity
        for identity in EntIdentity.objects.filter(
            user_id__in=[student.user_id for student in students]
        ).select_related("linked_by", "connector")
    }
    unlinked = [student for student in students if student.user_id not in identities]
    seen = seen_for_classroom(classroom, teacher)
    result = match(
        [EntPupil(str(pupil.pk), pupil.display_name, tuple(pupil.classes)) for pupil in seen],
        [RosterPupil(student.pk, student.display_name) for student in unlinked],
    )
    by_pk = {student.pk: student for student in unlinked}
    proposals = {proposal.ent_id: proposal for proposal in result.proposals}
    homonyms = {
        ent_id: tuple(by_pk[key] for key in group.keys)
        for group in result.homonyms
        for ent_id in group.ent_ids
    }
    waiting = []
    for pupil in seen:
        proposal = proposals.get(str(pupil.pk))
        waiting.append(
            WaitingRow(
                seen=pupil,
                proposed=by_pk[proposal.key] if proposal else None,
                kind=proposal.kind if proposal else None,
                reason=proposal.reason if proposal else None,
                homonyms=homonyms.get(str(pupil.pk), ()),
            )
        )
    events = list(
        EntLinkEvent.objects.filter(classroom=classroom)
        .exclude(action=EntLinkEvent.Action.ELSEWHERE)
        .select_related("student", "by")[:AUDIT_ROWS]
    )
    elsewhere = list(
        EntLinkEvent.objects.filter(
            classroom=classroom, action=EntLinkEvent.Action.ELSEWHERE
        ).select_related("student__classroom", "by")[:AUDIT_ROWS]
    )
    return MatchingScreen(
        waiting=waiting,
        unlinked=unlinked,
        linked=[
            LinkedRow(student, identities[student.user_id])
            for student in students
            if student.user_id in identities
        ],
        events=events,
        contested=contested_class_names(classroom, teacher),
        elsewhere=elsewhere,
    )
