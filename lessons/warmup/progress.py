"""The teacher's view of a session's warm-up: each student's progress, then the class picture.

Progress is how many items each student answered and whether they finished: never which card
they chose (the overview may be on the classroom's screen). The class picture
(lessons.warmup.picture) reads the same diagnosis as every page.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons.classrooms.names import name_key
from lessons.models import ClassSession, SessionMember, WarmupRound
from lessons.warmup.picture import ClassPicture, class_picture
from lessons.warmup.services import session_level

STATE_NOT_STARTED = "not_started"
STATE_ANSWERING = "answering"
STATE_FINISHED = "finished"
STATE_STOPPED = "stopped"


@dataclass(frozen=True)
class ProgressRow:
    """One student's warm-up progress: items answered and where they are."""

    student_id: int
    name: str
    answered: int
    state: str


@dataclass(frozen=True)
class SessionWarmup:
    """A session's warm-up as the teacher's overview shows it."""

    rows: list[ProgressRow]
    picture: ClassPicture
    seated: bool  # the teacher has seated the class: the warm-up is over

    @property
    def finished(self) -> int:
        """Return how many students finished (or were stopped when the class was seated)."""
        return sum(1 for row in self.rows if row.state in (STATE_FINISHED, STATE_STOPPED))

    @property
    def all_done(self) -> bool:
        """Tell whether every student who joined is done with the warm-up."""
        return bool(self.rows) and self.finished == len(self.rows)


def _state(round_: WarmupRound | None) -> str:
    if round_ is None:
        return STATE_NOT_STARTED
    if round_.finished_at is not None:
        return STATE_STOPPED if round_.stopped else STATE_FINISHED
    return STATE_ANSWERING


def session_warmup(*, session: ClassSession) -> SessionWarmup | None:
    """Return the session's warm-up progress and class picture, or None (no warm-up)."""
    if not session.warmup:
        return None
    rounds = {r.student_id: r for r in WarmupRound.objects.filter(session=session)}
    members = [
        m.student for m in SessionMember.objects.filter(session=session).select_related("student")
    ]
    members.sort(key=lambda s: name_key(s.display_name))
    rows = []
    answered: dict[int, int] = {}
    for student in members:
        round_ = rounds.get(student.pk)
        answered[student.pk] = round_.answered if round_ is not None else 0
        rows.append(
            ProgressRow(student.pk, student.display_name, answered[student.pk], _state(round_))
        )
    done = [s for s in members if _state(rounds.get(s.pk)) in (STATE_FINISHED, STATE_STOPPED)]
    # A round probe_next ended before any item (already decided by the game's turns) has
    # evidence too; one stopped before any answer has none.
    evidence = {
        pk: count or int(_state(rounds.get(pk)) == STATE_FINISHED) for pk, count in answered.items()
    }
    picture = class_picture(done, answered=evidence, level=session_level(session))
    return SessionWarmup(rows, picture, session.tables.exists())


__all__ = ["ProgressRow", "SessionWarmup", "session_warmup"]
