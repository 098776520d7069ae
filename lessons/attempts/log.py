"""Store every judged fraction play of a student (the attempt log) and every missed equivalence.

lessons' table host (lessons.attempts.hooks.LessonsHost, games.host) calls it inside a move's
transaction: it returns the rows to write and games stores them with the move, so a row
commits with the action or not at all, and always before the action is broadcast. A seat's
student, class and session come from lessons' own row (SeatStudent), which the table lock
reads with the seats: written when a service seats or moves a student, else on the seat's
first judged play or draw (and again whenever it no longer matches the seat's player).

The claimed rule: a claim the client sent is the student's; without one it is inferred the way
the play page infers it (no reference fraction, or the played card has the current
denominator: "denominator"; another denominator: "equal"). The page asks the student only when
both rules could apply (a reference fraction and a card with its denominator), and otherwise
sends the claim it inferred; so `claim_source` is "asked" when a claim was sent in that
ambiguous case (or when a client sent a claim that differs from the inference), and "inferred"
otherwise. Because the page asks in every ambiguous case, chance rates are computed with
`claim_asked=True`: a same-denominator card could always have been claimed "equal".

Plays on an empty discard (no reference, no named denominator) judge nothing and are not
logged. Bots, timers and teachers never reach the log: only a seated student's own actions do.

Turns. Every attempt carries `turn`: the table's stored actions (TableEvent.seq) when the
first judged play of the student's turn was made, so (table, turn) names one turn. A play
belongs to the turn of the student's previous attempt at the table unless that attempt was
accepted (an accepted play ends the turn) or another seat has acted since the turn began;
otherwise it opens a new turn. A refused card tried again therefore stays in its turn, and a
draw in the turn sets `drew` on the turn's attempts. lessons.diagnosis reads only the first
claim of each turn as evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.utils import timezone

from games.engine.fractions import FractionValue, is_fraction_card, parse_fraction
from games.errors import TableError
from games.listeners import Insert, JudgedPlay, PlayerAction, Update, Write
from games.models import TableEvent
from lessons.attempts.pictures import pictures_shown
from lessons.attempts.seat_students import last_attempt, seat_student_facts
from lessons.attempts.seat_students import wrong_turn as _wrong_turn
from lessons.classrooms.services import CLASSROOM_ARCHIVED
from lessons.diagnosis import (
    CLAIM_DENOMINATOR,
    CLAIM_EQUAL,
    RULES_VERSION,
    attempt_evidence,
    classify,
    infer_claim,
    missed_equivalences,
    skill_tags,
)
from lessons.live.session_updates import session_changed
from lessons.models import Attempt, MissedEquivalence, SeatStudent, Student


@dataclass
class _Seated:
    """A student's seat facts this move starts from; `write()` keeps what the move changed."""

    facts: SeatStudent
    # The row as the lock read it: "kept" (up to date), "missing" or "stale" (another user's).
    row: str
    open_turn_before: int | None

    def write(self) -> list[Write]:
        """Return the write that stores the facts as they now stand (none if unchanged)."""
        facts = self.facts
        if self.row == "missing":
            return [Insert(facts)]
        if self.row == "stale":
            values = {
                "user_id": facts.user_id,
                "student_id": facts.student_id,
                "classroom_id": facts.classroom_id,
                "session_id": facts.session_id,
                "open_turn": facts.open_turn,
            }
            return [Update(SeatStudent, {"seat_id": facts.seat_id}, values)]
        if facts.open_turn != self.open_turn_before:
            return [Update(SeatStudent, {"seat_id": facts.seat_id}, {"open_turn": facts.open_turn})]
        return []


def _seated(
    seat_row: Model | None, user_id: int | None, table_id: int, seat_id: int
) -> _Seated | None:
    """Return the facts of a seated student (from their row, else looked up), or None."""
    if user_id is None:
        return None
    if isinstance(seat_row, SeatStudent) and seat_row.user_id == user_id:
        # Archiving a class deletes its seats' rows (classroom_archive), and no service writes
        # one for an archived class: a kept row is a class not archived.
        return _Seated(seat_row, "kept", seat_row.open_turn)
    student = (
        Student.objects.select_related("classroom")
        .filter(user_id=user_id, user__role="student")
        .first()
    )
    if student is None:
        return None
    if student.classroom.archived_at is not None:
        # An archived class is read-only, whatever way its pupil came in (a table dealt before
        # the archive, a sign-in made after it): the move is refused, nothing is stored, and
        # the table says why (its move rolls back with this refusal).
        raise TableError("archived", CLASSROOM_ARCHIVED)
    facts = seat_student_facts(seat_id=seat_id, table_id=table_id, student=student)
    return _Seated(facts, "missing" if seat_row is None else "stale", facts.open_turn)


def open_turn(
    student_id: int,
    table_id: int,
    seat: int,
    *,
    wrong_turn: int | None | bool = False,
    last_moves: dict[int, int] | None = None,
) -> int | None:
    """Return the student's turn still open at the table (its `turn`), or None.

    Open: the student's last attempt there was refused and no other seat acted since its
    turn began (the student's own draws and penalty draws keep the turn open). `wrong_turn`
    (the last attempt's turn if it was refused, else None) and `last_moves` (each seat's last
    stored action) spare the queries when the caller knows them.
    """
    turn = _wrong_turn(last_attempt(student_id, table_id)) if wrong_turn is False else wrong_turn
    if turn is None or turn is True:
        return None
    if last_moves is not None:
        others_acted = any(seq > turn for other, seq in last_moves.items() if other != seat)
    else:
        others = TableEvent.objects.filter(table_id=table_id, seq__gt=turn).exclude(seat=seat)
        others_acted = others.exists()
    return None if others_acted else turn


def _hand_fractions(hand: list[Any]) -> list[str]:
    """Keep the fraction cards of a hand, as plain fractions ("2/6r" -> "2/6")."""
    return ["{}/{}".format(*parse_fraction(card)) for card in hand if is_fraction_card(card)]


def _claim(
    action: dict[str, Any],
    reference: FractionValue | None,
    denominator: int | None,
    played: FractionValue,
) -> tuple[str, str]:
    """Return (claim, claim_source) for a play."""
    inferred = infer_claim(reference, denominator, played)
    sent = action.get("claim")
    if sent not in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
        return inferred, Attempt.ClaimSource.INFERRED
    ambiguous = reference is not None and played[1] == reference[1]
    if ambiguous or sent != inferred:
        return sent, Attempt.ClaimSource.ASKED
    return sent, Attempt.ClaimSource.INFERRED


def _outcome(play: JudgedPlay, claim: str) -> str:
    """Read the engine's verdict: the rule an accepted play was accepted by, else wrong."""
    if not play.accepted:
        return Attempt.Outcome.WRONG
    played = next((e for e in play.events if e.get("type") == "played"), {})
    rule = played.get("rule")
    if rule in (Attempt.Outcome.EQUAL, Attempt.Outcome.DENOMINATOR):
        return str(rule)
    # "both" (the same fraction again): the page calls it by the claim.
    return claim


def attempt_figures(
    reference: FractionValue | None,
    named: int,
    played: FractionValue,
    claim: str,
    hand: list[str],
    wrong: bool,
) -> tuple[list[str], dict[str, float], list[str], list[str]]:
    """Return tags, chance rates, opportunities and skills of one play."""
    if reference is not None:
        evidence = attempt_evidence(reference, played, claim, hand, claim_asked=True)
        data = evidence.as_dict()
        return (
            list(data["tags"]),  # type: ignore[call-overload]
            dict(data["p0"]),  # type: ignore[call-overload]
            list(data["opportunities"]),  # type: ignore[call-overload]
            skill_tags(reference, played),
        )
    # After a named denominator there is no fraction to compare values with: only the
    # same-denominator rule (D1 when broken) can be judged, and it exercises S1.
    if not wrong:
        return [], {}, [], ["S1"]
    tags = classify((1, named), played, claim) if claim == CLAIM_DENOMINATOR else ["U"]
    return tags, {}, [], ["S1"]


def log_judged_play(play: JudgedPlay) -> list[Write]:
    """Return the attempt of a student's judged fraction play (right or wrong), and the seat's
    facts if they changed."""
    card = play.action.get("card")
    if not is_fraction_card(card):
        return []
    view = play.view_before
    reference = parse_fraction(view["reference"]) if view.get("reference") else None
    denominator = view.get("denominator")
    if reference is None and not denominator:
        return []
    seated = _seated(play.seat_row, play.user_id, play.table_id, play.seat_id)
    if seated is None:
        return []
    facts = seated.facts
    played = parse_fraction(card)
    claim, source = _claim(play.action, reference, denominator, played)
    outcome = _outcome(play, claim)
    hand = _hand_fractions(view.get("hand") or [])
    wrong = outcome == Attempt.Outcome.WRONG
    tags, p0, opportunities, skills = attempt_figures(
        reference, int(denominator or 0), played, claim, hand, wrong
    )
    turn = open_turn(
        facts.student_id,
        play.table_id,
        play.seat,
        wrong_turn=facts.open_turn,
        last_moves=play.last_moves,
    )
    turn = play.moves if turn is None else turn
    attempt = Attempt(
        classroom_id=facts.classroom_id,
        student_id=facts.student_id,
        session_id=facts.session_id,
        table_id=play.table_id,
        created_at=timezone.now(),
        reference_num=reference[0] if reference else None,
        reference_den=reference[1] if reference else None,
        named_denominator=None if reference else denominator,
        played_num=played[0],
        played_den=played[1],
        card=card,
        claim=claim,
        claim_source=source,
        outcome=outcome,
        tags=tags if wrong else [],
        p0=p0,
        opportunities=opportunities,
        skills=skills,
        hand=hand,
        response_ms=play.response_ms,
        rules_version=RULES_VERSION,
        turn=turn,
        # Shown as the student saw the cards (before this play): then never evidence.
        pictures=play.pictures and pictures_shown(play.table_id, facts.student_id),
    )
    facts.open_turn = turn if wrong else None
    session_id = facts.session_id
    if session_id is not None:
        session_changed(session_id)
    return [Insert(attempt), *seated.write()]


def log_draw(record: PlayerAction) -> list[Write]:
    """Return what a student's draw tells: a fraction equal to the reference was held (a missed
    equivalence), and the attempts of the turn it ends were followed by a draw (`drew`)."""
    if record.ruleset != "fractions" or record.action.get("type") != "draw":
        return []
    seated = _seated(record.seat_row, record.user_id, record.table_id, record.seat_id)
    if seated is None:
        return []
    facts = seated.facts
    writes: list[Write] = []
    missed = _missed_equivalence(record, facts)
    if missed is not None:
        writes.append(Insert(missed))
    turn = open_turn(
        facts.student_id,
        record.table_id,
        record.seat,
        wrong_turn=facts.open_turn,
        last_moves=record.last_moves,
    )
    if turn is not None:
        where = {"student_id": facts.student_id, "table_id": record.table_id, "turn": turn}
        writes.append(Update(Attempt, where, {"drew": True}))
    return writes + seated.write()


def _missed_equivalence(record: PlayerAction, facts: SeatStudent) -> MissedEquivalence | None:
    """Return the (unsaved) missed equivalence of a voluntary draw, if an equal card was held."""
    reference = record.view_before.get("reference")
    if not reference:
        return None
    held = [card for card in record.view_before.get("hand") or [] if is_fraction_card(card)]
    equal = set(missed_equivalences(reference, [parse_fraction(card) for card in held]))
    if not equal:
        return None
    return MissedEquivalence(
        classroom_id=facts.classroom_id,
        student_id=facts.student_id,
        session_id=facts.session_id,
        table_id=record.table_id,
        created_at=timezone.now(),
        reference=reference,
        equal_cards=[card for card in held if parse_fraction(card) in equal],
        rules_version=RULES_VERSION,
    )
