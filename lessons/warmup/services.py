"""Warm-up rounds: open one, answer its items one by one, a reason where it informs, stop it.

A round asks "Which card is equal to it?" about designed items (lessons.diagnosis.probe_next
chooses each from the student's turns so far). Nothing on the page says right or wrong until
the end. "Why did you choose this card?" follows an answer only where the model says its
reason informs (lessons.diagnosis.why: a wrong answer on a rule still undecided), and now and
then besides, never twice in a row after a right answer: a few times a round, not after every
item. Its answers keep one order for a student (seeded by the student), on every item and
after a reload. The next item is chosen once the question is answered or skipped, or at once
when none is asked; the round ends when probe_next has nothing more to ask.

Every answer is stored (lessons.attempts.probes) in the transaction that checks it, before the
page shows anything else, asked "why?" or not (then its reason is none, as when skipped).
Every function takes keyword-only arguments and raises ValidationError with a translated
message when the input is refused; nothing changes then. A student acts only on their own
rounds (another's round is refused like a missing one).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import date
from typing import Any, Final

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.attempts.probes import probe_attempt_create, probe_attempt_set_reason
from lessons.classrooms.selectors import teacher_teaches
from lessons.diagnosis import REASONS
from lessons.diagnosis.decks import DECK_LEVELS, DEFAULT_DECK_LEVEL
from lessons.diagnosis.why import reason_asked
from lessons.evidence.evidence import window_evidence
from lessons.live.session_updates import session_changed
from lessons.models import (
    Attempt,
    Classroom,
    ClassSession,
    PracticeAssignment,
    Student,
    User,
    WarmupRound,
)
from lessons.warmup.items import next_item

# A safety cap over probe_next's own (it stops by itself well before).
MAX_ITEMS: Final = 24
# An answer the prompt offers besides REASONS: the right way of thinking is a choice too, so
# that the prompt looks the same after a right and a wrong answer. It names no rule: the
# diagnosis reads it as no reason (lessons.evidence.loading keeps only REASONS codes).
REASON_SAME_FACTOR: Final = "same_factor"
PROMPT_CODES: Final = (*REASONS, REASON_SAME_FACTOR)
MAX_RECHECK_DAYS: Final = 60

NOT_FOUND = _("This warm-up is not one of yours.")
FINISHED = _("This warm-up is over.")
NOT_AN_OPTION = _("Choose one of the cards shown.")
STALE_ITEM = _("This card is no longer the one to answer: here is where you are now.")
REASON_FIRST = _("First answer the question about your card, or skip it.")
NO_QUESTION = _("There is no question to answer now.")
UNKNOWN_REASON = _("This answer is not one of the choices.")
NOT_YOUR_CLASS = _("This class is not one of yours.")
CLASSROOM_ARCHIVED = _("This class is archived: it can be read but not changed.")
NO_STUDENTS = _("Choose at least one student of this class.")
NOT_IN_CLASS = _("Choose students of this class only.")
BAD_DECK = _("Choose one of the deck levels.")
BAD_DUE = _("Choose a date from today to %(days)d days ahead.")
NOT_STARTED = _("Start the warm-up first.")


def _refuse(message: Any, code: str, **params: Any) -> ValidationError:
    return ValidationError(message, code=code, params=params or None)


def _student_turns(student: Student) -> list[dict[str, Any]]:
    """Return the student's turns so far (evidence window, game and warm-up), oldest first."""
    return window_evidence(student).turns


def _advance(round_: WarmupRound, now: Any, turns: list[dict[str, Any]] | None = None) -> None:
    """Put the next item on the round, or end it (probe_next has nothing more to ask).

    `turns`: the student's turns when the caller has just read them (else read here).
    """
    item = None
    if round_.answered < MAX_ITEMS:
        item = next_item(
            _student_turns(round_.student) if turns is None else turns,
            level=round_.level,
            seed=round_.seed,
            round_id=round_.pk,
        )
    round_.item = item
    if item is None:
        round_.finished_at = now


def _changed(round_: WarmupRound) -> None:
    """Tell the teacher's live overview that a session round moved on (after commit)."""
    if round_.session_id is not None:
        session_id = int(round_.session_id)
        session_changed(session_id)


def _new_round(
    *,
    student: Student,
    kind: str,
    level: str,
    session: ClassSession | None = None,
    assignment: PracticeAssignment | None = None,
    due_on: date | None = None,
    created_by: User | None = None,
    begin: bool,
) -> WarmupRound:
    now = timezone.now()
    round_ = WarmupRound(
        classroom_id=student.classroom_id,
        student=student,
        kind=kind,
        session=session,
        assignment=assignment,
        level=level,
        seed=random.SystemRandom().randrange(1 << 31),
        due_on=due_on,
        created_by=created_by,
        created_at=now,
    )
    round_.save()  # first: its items are asked for by its id (probe_next's round_id)
    if begin:
        _advance(round_, now)
        round_.save(update_fields=["item", "finished_at"])
    return round_


def session_level(session: ClassSession) -> str:
    """Return the deck level of a session's tables (the items stay within it)."""
    level = (session.options or {}).get("deck", DEFAULT_DECK_LEVEL)
    return level if level in DECK_LEVELS else DEFAULT_DECK_LEVEL


def warmup_open_for_session(*, session: ClassSession, student: Student) -> WarmupRound | None:
    """Give a student who joins a warm-up session their round with its first item (once).

    Call it inside the join's transaction. None when the session has no warm-up or is not a
    fractions session; the student's existing round otherwise.
    """
    if not session.warmup or session.ruleset != "fractions":
        return None
    if student.classroom_id != session.classroom_id:
        raise _refuse(NOT_IN_CLASS, "not_in_class")
    existing = WarmupRound.objects.filter(session=session, student=student).first()
    if existing is not None:
        return existing
    round_ = _new_round(
        student=student,
        kind=WarmupRound.Kind.SESSION,
        level=session_level(session),
        session=session,
        begin=True,
    )
    _changed(round_)
    return round_


def warmup_for_assignment(
    *, student: Student, assignment: PracticeAssignment
) -> WarmupRound | None:
    """Return the round a student answers before an assignment's games, or None (done, or
    the assignment has no warm-up). Opens it with its first item the first time.

    The caller checked that the assignment is the student's; call it in a POST.
    """
    if not assignment.warmup:
        return None
    if Classroom.objects.filter(pk=assignment.classroom_id, archived_at__isnull=False).exists():
        raise _refuse(CLASSROOM_ARCHIVED, "archived")
    with transaction.atomic():
        # Lock the student's row: two clicks at once open one round, not two.
        Student.objects.select_for_update().filter(pk=student.pk).first()
        existing = (
            WarmupRound.objects.filter(assignment=assignment, student=student)
            .order_by("-id")
            .first()
        )
        if existing is not None:
            return None if existing.finished_at is not None else existing
        return _new_round(
            student=student,
            kind=WarmupRound.Kind.PRACTICE,
            level=assignment.deck if assignment.deck in DECK_LEVELS else DEFAULT_DECK_LEVEL,
            assignment=assignment,
            due_on=assignment.due_on,
            created_by=assignment.created_by,
            begin=True,
        )


def _own_round(student: Student, warmup_id: object) -> WarmupRound:
    """Return the student's round, locked; another's round is refused like a missing one."""
    if not isinstance(warmup_id, int) or isinstance(warmup_id, bool):
        raise _refuse(NOT_FOUND, "not_found")
    round_ = (
        # Only the round's row: PostgreSQL cannot lock the nullable side of an outer join
        # (`asking` may be empty).
        WarmupRound.objects.select_for_update(of=("self",))
        .select_related("student__classroom", "asking")
        .filter(pk=warmup_id, student=student)
        .first()
    )
    if round_ is None:
        raise _refuse(NOT_FOUND, "not_found")
    if round_.student.classroom.archived_at is not None:
        # Read-only whatever way the pupil signed in (a sign-in made after the archive).
        raise _refuse(CLASSROOM_ARCHIVED, "archived")
    return round_


def warmup_begin(*, student: Student, warmup_id: object) -> WarmupRound:
    """Start a round that waits for its student (an assigned round or a re-check)."""
    with transaction.atomic():
        round_ = _own_round(student, warmup_id)
        if round_.finished_at is not None:
            raise _refuse(FINISHED, "finished")
        if round_.item is None and round_.asking_id is None:
            _advance(round_, timezone.now())
            round_.save(update_fields=["item", "finished_at"])
            _changed(round_)
        return round_


def warmup_answer(
    *,
    student: Student,
    warmup_id: object,
    item_number: object,
    choice: object,
    response_ms: int | None = None,
) -> Attempt:
    """Store the student's answer to the item on their screen; then ask why, or go on.

    The question follows where lessons.diagnosis.why says so (round.asking is then the answer);
    otherwise the next item (or the end) comes at once. `item_number` is the item the page
    showed (1 for the first): an answer sent twice, or from an old page, is refused and
    changes nothing.
    """
    with transaction.atomic():
        round_ = _own_round(student, warmup_id)
        if round_.finished_at is not None:
            raise _refuse(FINISHED, "finished")
        if round_.asking_id is not None:
            raise _refuse(REASON_FIRST, "reason_first")
        item = round_.item
        if not isinstance(item, dict):
            raise _refuse(NOT_STARTED, "not_started")
        if item_number != round_.answered + 1 or isinstance(item_number, bool):
            raise _refuse(STALE_ITEM, "stale_item")
        options = [str(option) for option in item.get("options", ())]
        if not isinstance(choice, str) or choice not in options:
            raise _refuse(NOT_AN_OPTION, "not_an_option")
        attempt = probe_attempt_create(
            warmup=round_,
            student=student,
            reference=str(item["reference"]),
            options=options,
            chosen=choice,
            item_number=round_.answered + 1,
            response_ms=response_ms,
        )
        round_.answered += 1
        turns = _student_turns(student)
        if _asks_why(round_, turns):
            round_.asking = attempt
        else:
            _advance(round_, timezone.now(), turns)
        round_.save(update_fields=["answered", "asking", "item", "finished_at"])
        _changed(round_)
        return attempt


def _asks_why(round_: WarmupRound, turns: list[dict[str, Any]]) -> bool:
    """Tell whether "why?" follows the answer just stored (the last of `turns`)."""
    last = turns[-1] if turns else None
    if last is None or last.get("source") != "probe" or last.get("round") != round_.pk:
        return False  # not in the evidence window (never in practice): nothing it would inform
    return reason_asked(turns, level=round_.level, seed=round_.seed, round_id=round_.pk)


def reason_choices(round_: WarmupRound) -> list[str]:
    """Return the prompt's answers in the student's own order (seeded by the student).

    The same order on every item, in every round and after a reload: a child finds their
    answer where it was. One order per child, not one for the class, so the first answer
    shown is not the same reason for everyone; a child who always taps the same place gives
    the same reason every time, which the model does not read as evidence (model.py:
    reasons_weigh).
    """
    codes = list(PROMPT_CODES)
    random.Random(f"warmup_reason:{round_.student_id}").shuffle(codes)
    return codes


def warmup_reason(*, student: Student, warmup_id: object, reason: object) -> WarmupRound:
    """Store the reason after an answer (None: skipped), then show the next item or end."""
    with transaction.atomic():
        round_ = _own_round(student, warmup_id)
        if round_.asking is None:
            raise _refuse(NO_QUESTION, "no_question")
        if reason is not None and (not isinstance(reason, str) or reason not in PROMPT_CODES):
            raise _refuse(UNKNOWN_REASON, "unknown_reason")
        probe_attempt_set_reason(attempt=round_.asking, reason=reason)
        round_.asking = None
        if round_.finished_at is None:
            _advance(round_, timezone.now())
        round_.save(update_fields=["asking", "item", "finished_at"])
        _changed(round_)
        return round_


def warmup_stop_for_session(*, session: ClassSession) -> int:
    """End the session's unfinished rounds (the teacher seats the class); return how many.

    Call it inside the seating's transaction. The answers given stay; the rounds say so.
    """
    return WarmupRound.objects.filter(session=session, finished_at__isnull=True).update(
        finished_at=timezone.now(), stopped=True, item=None, asking=None
    )


def warmup_recheck(
    *,
    teacher: User,
    classroom: Classroom,
    students: Iterable[int],
    level: str = DEFAULT_DECK_LEVEL,
    due_on: date | None = None,
    kind: str = WarmupRound.Kind.RECHECK,
) -> list[WarmupRound]:
    """Ask chosen students of a class for a warm-up round (a re-check, or assigned practice).

    Each student gets one round that waits for them on their home page until `due_on`
    (inclusive; None: no date).
    """
    if not teacher_teaches(teacher=teacher, classroom=classroom):
        raise _refuse(NOT_YOUR_CLASS, "not_your_class")
    if classroom.archived_at is not None:
        raise _refuse(CLASSROOM_ARCHIVED, "archived")
    if level not in DECK_LEVELS:
        raise _refuse(BAD_DECK, "bad_deck")
    today = timezone.localdate()
    if due_on is not None and not 0 <= (due_on - today).days <= MAX_RECHECK_DAYS:
        raise _refuse(BAD_DUE, "bad_due", days=MAX_RECHECK_DAYS)
    if kind not in (WarmupRound.Kind.RECHECK, WarmupRound.Kind.PRACTICE):
        raise _refuse(NO_STUDENTS, "bad_kind")
    ids = set()
    for value in students:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _refuse(NOT_IN_CLASS, "not_in_class")
        ids.add(value)
    if not ids:
        raise _refuse(NO_STUDENTS, "no_students")
    chosen = list(Student.objects.filter(classroom=classroom, pk__in=ids).order_by("pk"))
    if len(chosen) != len(ids):
        raise _refuse(NOT_IN_CLASS, "not_in_class")
    with transaction.atomic():
        return [
            _new_round(
                student=student,
                kind=kind,
                level=level,
                due_on=due_on,
                created_by=teacher,
                begin=False,
            )
            for student in chosen
        ]


__all__ = [
    "MAX_ITEMS",
    "PROMPT_CODES",
    "REASON_SAME_FACTOR",
    "reason_choices",
    "session_level",
    "warmup_answer",
    "warmup_begin",
    "warmup_for_assignment",
    "warmup_open_for_session",
    "warmup_reason",
    "warmup_recheck",
    "warmup_stop_for_session",
]
