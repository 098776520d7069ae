"""Class sessions: start one, seat students at balanced tables, move, pause, resume and end.

Seating policy (the teacher's page repeats it):

- A student who signs in while their class has an open session joins it and waits; a student
  already signed in joins with the "Join the class game" button of their home. Opening a page
  never joins nor seats anyone. Waiting students are dealt at tables together: when the
  teacher presses "Seat the waiting students now", or by themselves once nobody has joined for
  SETTLE_SECONDS (so that a class signing in within a minute is seated as one group, not table
  by table). A due deal is a server step (games.driver, `session_step`): planned when a student
  joins, goes back to the waiting list or the session resumes, and when a table's game is over
  (lessons.attempts.hooks); a restarted server plans it again when the teacher's overview or a
  waiting page opens (both only read: `session_pending_step`).
- Tables are balanced: ceil(n / size) tables whose sizes differ by one at most (7 students at
  size 4 make 4 + 3, 5 make 3 + 2). A game (a games.Table of kind "lesson") starts as soon as
  its table is formed.
- Nobody plays alone: a table with one student gets bots up to LONE_TABLE_SEATS seats (fewer
  if the table size is smaller). A deal that happens by itself leaves a lone waiting student
  waiting for LONE_WAIT_SECONDS first, so that another late student can join them.
- Late arrivals: a running game cannot take a new player, so a late student waits and is
  seated with the next deal (with the other late students). The teacher can also move a
  waiting student into a bot's seat at a running table.
- When a table's game is over, its students get a new game together (the table's next game)
  at once, by the same server step.
  The new game waits for its students (the table gathers, games.services): no robot nor
  turn timer moves until each of them has come to it. A student who is there (a page of
  theirs open, games.presence) never loses their seat, still reading the last game's end
  screen included. One who has left (no sign for PRESENT_FOR, 90 s) and has not come after
  ARRIVAL_WAIT_SECONDS has their seat played by a robot (the table's players see the wait
  counted down; the teacher sees "absent·e", then "(robot)") until they come back and play
  or take their seat back. The same holds at the first table of the session, and for a seat
  the game waits on whose student has never played there.
- Moving a student: to another table of the session that has a bot's seat (the student takes
  over that bot's hand at once), or back to the waiting list (seated with the next deal). The
  seat the student leaves is played by a bot; a table left with no student is finished. The
  turn timer follows the seat: a bot plays a due seat at once, a student gets the full time.
- Pause and resume act on every table; nobody is seated while the session is paused.
- Warm-up first (ClassSession.warmup, lessons.warmup): a student who joins gets a warm-up
  round and is not dealt until it is over; nobody is dealt by themselves until the teacher
  has seated the class once (so the teacher can read the class picture first and seat by
  need). Seating stops the rounds still going: their answers stay.
- Seat by need: students sharing a likely misconception (the same diagnosis as every page)
  are dealt together at tables aimed at it (games.engine.aim), the others as usual.
- Ending finishes every table. Members keep the table they sat at, as the session's record;
  their home no longer sends them to it.
- A pupil who leaves the class is dealt no more, by a step planned before included: moved or
  erased, their place goes; removed under a pseudonym, their place at a finished table stays
  as the record but gets no next game.

Every function takes keyword-only arguments and raises ValidationError with a translated
message when the input is refused; a refused call changes nothing. The games themselves (tables,
seats) are changed only through games.services.
"""

from __future__ import annotations

import contextlib
import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Min, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import driver
from games.engine import IllegalAction
from games.engine.options import PLAYER_LIMITS, validate_options
from games.errors import TableError
from games.models import Seat, Table
from games.players import robot_name
from games.services import (
    SeatSpec,
    next_step_for,
    seat_give_to_bot,
    seat_give_to_user,
    table_announce_end,
    table_create,
    table_finish,
    table_set_paused,
)
from lessons.attempts.hooks import SESSION_STEP
from lessons.attempts.seat_students import seat_students_write
from lessons.classrooms.selectors import teacher_teaches
from lessons.live.session_updates import session_changed
from lessons.models import (
    Classroom,
    ClassSession,
    SessionMember,
    SessionTable,
    Student,
    User,
    WarmupRound,
)
from lessons.sessions.selectors import session_open_for_classroom
from lessons.warmup.seating import AIM_OPTIONS, groups_by_need
from lessons.warmup.services import (
    session_level,
    warmup_open_for_session,
    warmup_stop_for_session,
)

SETTLE_SECONDS = 10
LONE_WAIT_SECONDS = 60
LONE_TABLE_SEATS = 3
MAX_TURN_TIMER = 600
# A new table without a turn timer waits this long for a student who has not come to it (still
# on the last game's end screen, or gone) before a robot plays their seat until they come.
ARRIVAL_WAIT_SECONDS = 45
ARRIVAL_WAIT_ACCESSIBLE_SECONDS = 120
# Percent of refused first "equal" claims the page asks about when the teacher ticks "ask why":
# every one, so a short lesson still gathers reasons (games.services clamps it to 0-100).
ASK_REASON_RATE = 100
BOT_KIND = Seat.Bot.HEURISTIC
# The options a teacher may set per ruleset (the engine checks their values).
SESSION_OPTIONS = {
    "fractions": ("wrong_attempt_penalty", "uno_penalty", "deck"),
    "classic": ("stacking", "seven_o", "jump_in", "uno_penalty"),
    "family_quick": ("uno_penalty",),
}

NOT_YOUR_CLASS = _("This class is not one of yours.")
CLASSROOM_ARCHIVED = _("This class is archived: it can be read but not changed.")
BAD_RULESET = _("Choose Uno Fractions, classic UNO or UNO Family Quick.")
BAD_TABLE_SIZE = _("In this game a table seats %(low)d to %(high)d players.")
BAD_TURN_TIMER = _("The turn timer is between 0 (none) and %(limit)d seconds.")
BAD_OPTIONS = _("These rule options are not valid: %(reason)s")
ALREADY_OPEN = _("This class already has a session in progress. End it before starting another.")
SESSION_ENDED = _("This session has ended.")
NOT_A_MEMBER = _("This student has not joined the session.")
NOT_IN_CLASS = _("This student is not in the class of this session.")
NO_SUCH_TABLE = _("This session has no such table.")
SAME_TABLE = _("The student already sits at this table.")
ALREADY_WAITING = _("The student is already waiting for a table.")
TABLE_OVER = _("The game at this table is over.")
NO_FREE_SEAT = _("This table has no robot seat a student could take.")
SESSION_PAUSED = _("The session is paused: resume it first.")


def _refuse(message: Any, code: str, **params: Any) -> ValidationError:
    return ValidationError(message, code=code, params=params or None)


def plan_table_sizes(count: int, size: int) -> list[int]:
    """Split `count` students into the fewest tables of at most `size`, sizes within one."""
    if count <= 0:
        return []
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _check_teacher(session: ClassSession, teacher: User) -> None:
    if not teacher_teaches(teacher=teacher, classroom=session.classroom):
        raise _refuse(NOT_YOUR_CLASS, "not_your_class")


def _check_not_ended(session: ClassSession) -> None:
    if session.status == ClassSession.Status.ENDED:
        raise _refuse(SESSION_ENDED, "ended")


def _clean_options(ruleset: str, size: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Keep the teacher's options and let the engine check them at every table size."""
    options = dict(options or {})
    unknown = set(options) - set(SESSION_OPTIONS[ruleset])
    if unknown:
        raise _refuse(BAD_OPTIONS, "bad_options", reason=", ".join(sorted(unknown)))
    for players in sorted({PLAYER_LIMITS[ruleset][0], size}):
        try:
            validate_options(ruleset, players, options)
        except IllegalAction as exc:
            # The engine words its refusals in French and English itself.
            words = getattr(exc, "messages", None) or {}
            language = "en" if translation.get_language() == "en" else "fr"
            raise ValidationError(words.get(language, str(exc)), code="bad_options") from exc
    return options


def session_start(
    *,
    teacher: User,
    classroom: Classroom,
    ruleset: str = "fractions",
    table_size: int = 4,
    options: dict[str, Any] | None = None,
    turn_timer: int = 0,
    accessible: bool = False,
    animations: bool = True,
    sound: bool = True,
    ask_reason: bool = False,
    warmup: bool = False,
    now: datetime | None = None,
) -> ClassSession:
    """Open a session for a class with its rules and table settings (recorded with it).

    `ask_reason` (Uno Fractions only) makes the play page ask the student why they thought two
    fractions were equal after every refused first "equal" claim of a turn (ASK_REASON_RATE).
    `warmup` (Uno Fractions only): students answer a warm-up round before they are seated.
    `animations` and `sound` off: no card moves and no sound at the session's tables.
    """
    if not teacher_teaches(teacher=teacher, classroom=classroom):
        raise _refuse(NOT_YOUR_CLASS, "not_your_class")
    if classroom.archived_at is not None:
        raise _refuse(CLASSROOM_ARCHIVED, "archived")
    if ruleset not in PLAYER_LIMITS:
        raise _refuse(BAD_RULESET, "bad_ruleset")
    low, high = PLAYER_LIMITS[ruleset]
    if type(table_size) is not int or not low <= table_size <= high:
        raise _refuse(BAD_TABLE_SIZE, "bad_table_size", low=low, high=high)
    if type(turn_timer) is not int or not 0 <= turn_timer <= MAX_TURN_TIMER:
        raise _refuse(BAD_TURN_TIMER, "bad_turn_timer", limit=MAX_TURN_TIMER)
    clean = _clean_options(ruleset, table_size, options)
    with transaction.atomic():
        # Lock the class row so that two clicks cannot open two sessions.
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        if session_open_for_classroom(classroom=classroom) is not None:
            raise _refuse(ALREADY_OPEN, "already_open")
        return ClassSession.objects.create(
            classroom=classroom,
            ruleset=ruleset,
            options=clean,
            table_size=table_size,
            play_settings={
                "turn_timer": 0 if accessible else turn_timer,
                "accessible": bool(accessible),
                "animations": bool(animations),
                "sound": bool(sound),
            }
            | ({"ask_reason": ASK_REASON_RATE} if ask_reason and ruleset == "fractions" else {}),
            started_at=now or timezone.now(),
            warmup=bool(warmup) and ruleset == "fractions",
        )


def _lock(session: ClassSession) -> ClassSession:
    """Lock the session row for the rest of the transaction (call it first)."""
    # PostgreSQL locks the row; SQLite ignores FOR UPDATE but every transaction there starts
    # IMMEDIATE (settings), which serialises them: two deals never seat the same students.
    return ClassSession.objects.select_for_update().select_related("classroom").get(pk=session.pk)


def session_join(
    *, session: ClassSession, student: Student, now: datetime | None = None
) -> SessionMember:
    """Add a student of the class to the session (once), then seat whoever is due."""
    if student.classroom_id != session.classroom_id:
        raise _refuse(NOT_IN_CLASS, "not_in_class")
    now = now or timezone.now()
    with transaction.atomic():
        locked = _lock(session)
        _check_not_ended(locked)
        member, created = SessionMember.objects.get_or_create(
            session=locked, student=student, defaults={"joined_at": now}
        )
        if created:
            session_changed(locked.pk)
        warmup_open_for_session(session=locked, student=student)
        _plan(locked, now, _seat_due(locked, now))
    member.refresh_from_db()
    return member


def session_join_open(*, student: Student, now: datetime | None = None) -> SessionMember | None:
    """Join the student to their class's session in progress, if any (they just signed in)."""
    session = session_open_for_classroom(classroom=student.classroom)
    if session is None:
        return None
    try:
        return session_join(session=session, student=student, now=now)
    except ValidationError:  # ended in the meantime: nothing to join
        return None


def session_seat_due(*, session: ClassSession, now: datetime | None = None) -> list[SessionTable]:
    """Deal the waiting students when the pool has settled (see the policy above)."""
    with transaction.atomic():
        return _seat_due(_lock(session), now or timezone.now())


# A step that found nothing due looks again no sooner than this (seconds).
MIN_LOOK_AGAIN = 1.0


def session_step(session_id: int, now: datetime | None = None) -> list[driver.Step]:
    """Run a session's server step (games.driver): deal whoever is due, plan what follows.

    The deal reads the database again under the session's lock, so a step that arrives
    twice, late or early deals each student once and at their time; the steps returned are
    the new tables' first ones and the session's next deadline, if any.
    """
    now = now or timezone.now()
    with transaction.atomic():
        session = ClassSession.objects.filter(pk=session_id).first()
        if session is None:
            return []
        locked = _lock(session)
        made = _seat_due(locked, now)
        steps: list[driver.Step] = [s for t in made if (s := next_step_for(t.table))]
        pending = session_pending_step(session=locked, now=now)
    if pending is not None and not made:
        pending = driver.HostStep(pending.kind, pending.key, max(MIN_LOOK_AGAIN, pending.delay))
    return steps + ([pending] if pending is not None else [])


def session_pending_step(
    *, session: ClassSession, now: datetime | None = None
) -> driver.HostStep | None:
    """Tell when the session's next deal falls due, if ever (a read: nothing changes)."""
    now = now or timezone.now()
    at = _deal_due_at(session, now)
    if at is None:
        return None
    return driver.HostStep(SESSION_STEP, session.pk, max(0.0, (at - now).total_seconds()))


def _deal_due_at(session: ClassSession, now: datetime) -> datetime | None:
    """Say when `_seat_due` deals next (the same rules, read without the lock, in one query).

    The waiting page asks every few seconds per pupil: one aggregate row, whatever the class.
    """
    if session.status != ClassSession.Status.OPEN:
        return None
    waiting = _waiting_filter(session)
    found = _in_play(session).aggregate(
        over=Count("pk", filter=Q(table__table__status=Table.Status.FINISHED)),
        waiting=Count("pk", filter=waiting),
        first=Min("joined_at", filter=waiting),
        last=Max("joined_at", filter=waiting),
    )
    if found["over"]:
        return now
    if session.warmup and not session.tables.exists():
        return None
    if not found["waiting"]:
        return None
    at: datetime = found["last"] + timedelta(seconds=SETTLE_SECONDS)
    if found["waiting"] == 1:
        at = max(at, found["first"] + timedelta(seconds=LONE_WAIT_SECONDS))
    return at


def _plan(session: ClassSession, now: datetime, made: list[SessionTable]) -> None:
    """Plan, once committed, the new tables' first steps and the session's next deal."""
    for seated in made:
        driver.plan_on_commit(next_step_for(seated.table))
    driver.plan_on_commit(session_pending_step(session=session, now=now))


def session_seat_now(
    *, session: ClassSession, teacher: User, by_need: bool = False
) -> list[SessionTable]:
    """Deal every waiting student at once, a lone one with bots (the teacher's button).

    Warm-up rounds still going end here. `by_need`: students sharing a likely misconception
    sit together at tables aimed at it (lessons.warmup.seating), the others as usual.
    """
    _check_teacher(session, teacher)
    with transaction.atomic():
        locked = _lock(session)
        _check_not_ended(locked)
        if locked.status == ClassSession.Status.PAUSED:
            raise _refuse(SESSION_PAUSED, "paused")
        warmup_stop_for_session(session=locked)
        waiting = list(_waiting(locked))
        if not by_need or locked.ruleset != "fractions":
            made = _deal(locked, waiting)
        else:
            made = []
            groups = groups_by_need([m.student for m in waiting], level=session_level(locked))
            by_student = {m.student_id: m for m in waiting}
            for group in groups:
                members = [by_student[student.pk] for student in group.students]
                made += _deal(locked, members, extra_options=group.options)
        _plan(locked, timezone.now(), made)
        return made


def _in_play(session: ClassSession) -> QuerySet[SessionMember]:
    """Return the session's members still in its games: a removed pupil's place is a record."""
    return SessionMember.objects.filter(session=session, student__pseudonymised_at__isnull=True)


def _waiting_filter(session: ClassSession) -> Q:
    # A student still answering the warm-up is not dealt yet.
    answering = WarmupRound.objects.filter(session=session, finished_at__isnull=True)
    return Q(table__isnull=True) & ~Q(student_id__in=answering.values("student_id"))


def _waiting(session: ClassSession) -> QuerySet[SessionMember]:
    return (
        _in_play(session)
        .filter(_waiting_filter(session))
        .select_related("student")
        .order_by("joined_at", "id")
    )


def _seat_due(session: ClassSession, now: datetime) -> list[SessionTable]:
    if session.status != ClassSession.Status.OPEN:
        return []
    made = _rematch(session)
    if session.warmup and not session.tables.exists():
        return made  # the teacher seats the class once the warm-up is read
    waiting = list(_waiting(session))
    if not waiting:
        return made
    if now - max(m.joined_at for m in waiting) < timedelta(seconds=SETTLE_SECONDS):
        return made
    if len(waiting) == 1 and now - waiting[0].joined_at < timedelta(seconds=LONE_WAIT_SECONDS):
        return made
    return made + _deal(session, waiting)


def _bots_for(humans: int, size: int) -> int:
    return max(0, min(size, LONE_TABLE_SEATS) - humans) if humans == 1 else 0


def _new_table(
    session: ClassSession,
    members: list[SessionMember],
    number: int,
    extra_options: dict[str, Any] | None = None,
    game: int = 1,
) -> SessionTable:
    """Start a game for these members (bots keep a lone student company) at table `number`."""
    seats = [SeatSpec(name=m.student.display_name, user_id=m.student.user_id) for m in members]
    seats += [
        SeatSpec(name=robot_name(index), bot=BOT_KIND)
        for index in range(1, _bots_for(len(members), session.table_size) + 1)
    ]
    try:
        table = table_create(
            ruleset=session.ruleset,
            seats=seats,
            kind=Table.Kind.LESSON,
            options=session.options | (extra_options or {}),
            # The game waits for its students to come (a robot for one who has left).
            table_settings={
                **session.play_settings,
                "arrival_wait": _arrival_wait(session),
                "gather": True,
            },
            created_by=session.classroom.teacher,
        )
    except TableError as exc:  # options were checked at start: this is a bug, not input
        raise RuntimeError(f"session {session.pk}: table refused: {exc.code}") from exc
    seated = SessionTable.objects.create(session=session, table=table, number=number, game=game)
    SessionMember.objects.filter(pk__in=[m.pk for m in members]).update(table=seated)
    seat_students_write(table_id=table.pk)
    return seated


def _arrival_wait(session: ClassSession) -> int:
    """Say how long a new table waits for a student who has not come to it (see the policy).

    Setting SESSIONS_ARRIVAL_WAIT (seconds) shortens it for the browser tests.
    """
    if session.play_settings.get("accessible"):
        return ARRIVAL_WAIT_ACCESSIBLE_SECONDS
    return int(getattr(settings, "SESSIONS_ARRIVAL_WAIT", None) or ARRIVAL_WAIT_SECONDS)


def _next_number(session: ClassSession) -> int:
    return max(session.tables.values_list("number", flat=True), default=0) + 1


def _deal(
    session: ClassSession,
    waiting: list[SessionMember],
    extra_options: dict[str, Any] | None = None,
) -> list[SessionTable]:
    """Seat the waiting members at new balanced tables; each table's game starts now."""
    made: list[SessionTable] = []
    start = 0
    for size in plan_table_sizes(len(waiting), session.table_size):
        members = waiting[start : start + size]
        made.append(_new_table(session, members, _next_number(session), extra_options))
        start += size
    if made:
        session_changed(session.pk)
    return made


def _rematch(session: ClassSession) -> list[SessionTable]:
    """Give the students of a table whose game is over a new game together, at its number."""
    made: list[SessionTable] = []
    in_play = _in_play(session).select_related("student").order_by("joined_at", "id")
    over = (
        session.tables.filter(table__status=Table.Status.FINISHED, members__in=in_play.values("pk"))
        .distinct()
        .select_related("table")
        .order_by("number")
    )
    for old in over:
        members = list(in_play.filter(table=old))
        # A table seated by need keeps its aim for the next game.
        aimed = {k: v for k, v in (old.table.options or {}).items() if k in AIM_OPTIONS}
        made.append(_new_table(session, members, old.number, aimed, game=old.game + 1))
    if made:
        session_changed(session.pk)
    return made


def _release_seat(member: SessionMember) -> None:
    """Hand a member's seat to a bot (games finishes a table left with no student)."""
    if member.table is None:
        return
    # A finished game keeps its seats as the record; a member without a seat has none to give.
    with contextlib.suppress(TableError):
        seat_give_to_bot(table_id=member.table.table_id, user_id=member.student.user_id)
        seat_students_write(table_id=member.table.table_id)


def session_seats_leave(*, student: Student) -> None:
    """Take a student out of every class session: their seats go to robots (a moved pupil).

    A table left with no student finishes (games); a finished game keeps its seats.
    """
    members = SessionMember.objects.filter(student=student).select_related("student", "table")
    sessions = set()
    for member in members:
        _release_seat(member)
        sessions.add(member.session_id)
    SessionMember.objects.filter(student=student).delete()
    for session_id in sessions:
        session_changed(session_id)


def session_move(
    *, session: ClassSession, teacher: User, student_id: int, table_number: int | None
) -> SessionMember:
    """Move a student to a robot's seat at another table, or back to the waiting list."""
    _check_teacher(session, teacher)
    with transaction.atomic():
        locked = _lock(session)
        _check_not_ended(locked)
        member = (
            SessionMember.objects.select_related("student", "table")
            .filter(session=locked, student_id=student_id)
            .first()
        )
        if member is None:
            raise _refuse(NOT_A_MEMBER, "not_a_member")
        if table_number is None:
            if member.table is None:
                raise _refuse(ALREADY_WAITING, "already_waiting")
            _release_seat(member)
            member.table = None
            member.save(update_fields=["table"])
            _plan(locked, timezone.now(), [])
        else:
            # A number's latest game: the one its children play now.
            target = (
                locked.tables.select_related("table")
                .filter(number=table_number)
                .order_by("-game")
                .first()
            )
            if target is None:
                raise _refuse(NO_SUCH_TABLE, "no_such_table")
            if member.table_id == target.pk:
                raise _refuse(SAME_TABLE, "same_table")
            try:
                seat_give_to_user(
                    table_id=target.table_id,
                    user_id=member.student.user_id,
                    name=member.student.display_name,
                )
            except TableError as exc:
                if exc.code == "finished":
                    raise _refuse(TABLE_OVER, "table_over") from exc
                raise _refuse(NO_FREE_SEAT, "no_free_seat") from exc
            _release_seat(member)
            seat_students_write(table_id=target.table_id)
            member.table = target
            member.save(update_fields=["table"])
        session_changed(locked.pk)
    return member


def session_set_paused(*, session: ClassSession, teacher: User, paused: bool) -> ClassSession:
    """Pause or resume every table of the session."""
    _check_teacher(session, teacher)
    with transaction.atomic():
        locked = _lock(session)
        _check_not_ended(locked)
        locked.status = ClassSession.Status.PAUSED if paused else ClassSession.Status.OPEN
        locked.save(update_fields=["status"])
        for table_id in locked.tables.values_list("table_id", flat=True):
            table_set_paused(table_id=table_id, paused=paused)
        if not paused:
            _plan(locked, timezone.now(), [])
        session_changed(locked.pk)
    return locked


def session_end(
    *, session: ClassSession, teacher: User, now: datetime | None = None
) -> ClassSession:
    """End the session: every table's game stops; members keep their table as the record."""
    _check_teacher(session, teacher)
    with transaction.atomic():
        locked = _lock(session)
        _check_not_ended(locked)
        locked.status = ClassSession.Status.ENDED
        locked.ended_at = now or timezone.now()
        locked.save(update_fields=["status", "ended_at"])
        for table_id in locked.tables.values_list("table_id", flat=True):
            table_finish(table_id=table_id)
            # A table whose game was over already still has pages open on its end screen.
            table_announce_end(table_id=table_id)
        session_changed(locked.pk)
    return locked
