"""Store every judged fraction play of a student (the attempt log) and every missed equivalence.

The games app calls these listeners inside the action's transaction (games.hooks), so a row
commits with the action or not at all, and always before the action is broadcast.

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

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import hooks
from games.engine.fractions import FractionValue, is_fraction_card, parse_fraction
from games.models import TableEvent
from games.move_rows import first_row, insert_one, update_then_insert
from lessons.diagnosis import (
    CLAIM_DENOMINATOR,
    CLAIM_EQUAL,
    RULES_VERSION,
    attempt_evidence,
    classify,
    missed_equivalences,
    skill_tags,
)
from lessons.models import Attempt, MissedEquivalence, SessionTable, Student
from lessons.sessions.broadcast import session_changed

# The attempt log's key in the table's kept facts (games Table.memo, locked and stored with
# each move): {"session": id or None, "<user id>": {"student": id or None, "classroom": id,
# "last": [turn, outcome] of the student's last attempt at the table, or None}}. Filled on a
# seat's first judged play or draw, then kept up to date here: a move reads no lessons row.
# A student's classroom and a table's session never change once the table plays.
MEMO_KEY = "lessons"


def _kept(memo: dict[str, Any]) -> dict[str, Any]:
    kept = memo.setdefault(MEMO_KEY, {})
    return kept if isinstance(kept, dict) else {}


def _seated(memo: dict[str, Any], user_id: int | None, table_id: int) -> dict[str, Any] | None:
    """Return the kept facts of a seated student (looked up once per table), or None."""
    if user_id is None:
        return None
    kept = _kept(memo)
    key = str(user_id)
    if key not in kept:
        student = _student_of(user_id)
        kept[key] = (
            {"student": None}
            if student is None
            else {
                "student": student[0],
                "classroom": student[1],
                "last": _last_attempt(student[0], table_id),
            }
        )
    entry = kept[key]
    return entry if entry.get("student") is not None else None


def _session_kept(memo: dict[str, Any], table_id: int) -> int | None:
    """Return the table's class session (looked up once per table), or None."""
    kept = _kept(memo)
    if "session" not in kept:
        kept["session"] = _session_id_of(table_id)
    session_id = kept["session"]
    return int(session_id) if session_id is not None else None


def _student_of(user_id: int | None) -> tuple[int, int] | None:
    """Return the student's id and classroom id of a user who is a student, else None."""
    if user_id is None:
        return None
    # Two numbers, not a model: this runs in the move's transaction (first play of a seat).
    found = first_row(Student, _student_query, user_id, "student")
    return None if found is None else (int(found[0]), int(found[1]))


def _student_query(user_id: int, role: str) -> QuerySet[Student, tuple[int, int]]:
    return Student.objects.filter(user_id=user_id, user__role=role).values_list(
        "pk", "classroom_id"
    )


def _session_id_of(table_id: int) -> int | None:
    found = first_row(SessionTable, _session_query, table_id)
    return None if found is None else int(found[0])


def _session_query(table_id: int) -> QuerySet[SessionTable, tuple[int]]:
    return SessionTable.objects.filter(table_id=table_id).order_by("pk").values_list("session_id")


def _last_attempt(student_id: int, table_id: int) -> list[Any] | None:
    found = first_row(Attempt, _last_attempt_query, student_id, table_id)
    return None if found is None else list(found)


def _last_attempt_query(
    student_id: int, table_id: int
) -> QuerySet[Attempt, tuple[int | None, str]]:
    return (
        Attempt.objects.filter(student_id=student_id, table_id=table_id)
        .order_by("-id")
        .values_list("turn", "outcome")
    )


def open_turn(
    student_id: int,
    table_id: int,
    seat: int,
    *,
    last: list[Any] | None | bool = False,
    seat_seq: dict[int, int] | None = None,
) -> int | None:
    """Return the student's turn still open at the table (its `turn`), or None.

    Open: the student's last attempt there was refused and no other seat acted since its
    turn began (the student's own draws and penalty draws keep the turn open). `last` (the
    last attempt's [turn, outcome], None for none) and `seat_seq` (each seat's last stored
    action) spare the queries when the caller knows them.
    """
    if last is False:
        last = _last_attempt(student_id, table_id)
    if not isinstance(last, list) or last[0] is None or last[1] != Attempt.Outcome.WRONG:
        return None
    turn = int(last[0])
    if seat_seq is not None:
        others_acted = any(seq > turn for other, seq in seat_seq.items() if other != seat)
    else:
        others = TableEvent.objects.filter(table_id=table_id, seq__gt=turn).exclude(seat=seat)
        others_acted = others.exists()
    return None if others_acted else turn


def _hand_fractions(hand: list[Any]) -> list[str]:
    """Keep the fraction cards of a hand, as plain fractions ("2/6r" -> "2/6")."""
    return ["{}/{}".format(*parse_fraction(card)) for card in hand if is_fraction_card(card)]


def inferred_claim(
    reference: FractionValue | None, denominator: int | None, played: FractionValue
) -> str:
    """Return the rule the play page infers when the student is not asked."""
    if reference is None or played[1] == denominator:
        return CLAIM_DENOMINATOR
    return CLAIM_EQUAL


def _claim(
    action: dict[str, Any],
    reference: FractionValue | None,
    denominator: int | None,
    played: FractionValue,
) -> tuple[str, str]:
    """Return (claim, claim_source) for a play."""
    inferred = inferred_claim(reference, denominator, played)
    sent = action.get("claim")
    if sent not in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
        return inferred, Attempt.ClaimSource.INFERRED
    ambiguous = reference is not None and played[1] == reference[1]
    if ambiguous or sent != inferred:
        return sent, Attempt.ClaimSource.ASKED
    return sent, Attempt.ClaimSource.INFERRED


def _outcome(play: hooks.JudgedPlay, claim: str) -> str:
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


def log_judged_play(play: hooks.JudgedPlay) -> None:
    """Store the attempt of a student's judged fraction play (right or wrong)."""
    card = play.action.get("card")
    if not is_fraction_card(card):
        return
    view = play.view_before
    reference = parse_fraction(view["reference"]) if view.get("reference") else None
    denominator = view.get("denominator")
    if reference is None and not denominator:
        return
    seated = _seated(play.memo, play.user_id, play.table_id)
    if seated is None:
        return
    played = parse_fraction(card)
    claim, source = _claim(play.action, reference, denominator, played)
    outcome = _outcome(play, claim)
    hand = _hand_fractions(view.get("hand") or [])
    wrong = outcome == Attempt.Outcome.WRONG
    tags, p0, opportunities, skills = attempt_figures(
        reference, int(denominator or 0), played, claim, hand, wrong
    )
    session_id = _session_kept(play.memo, play.table_id)
    student_id = int(seated["student"])
    turn = open_turn(
        student_id, play.table_id, play.seat, last=seated.get("last"), seat_seq=play.seat_seq
    )
    turn = play.moves if turn is None else turn
    attempt = Attempt(
        classroom_id=seated["classroom"],
        student_id=student_id,
        session_id=session_id,
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
    )
    insert_one(attempt)  # no queryset compiled per play (games.move_rows)
    seated["last"] = [turn, outcome]
    if session_id is not None:
        transaction.on_commit(lambda: session_changed(session_id))


def log_draw(record: hooks.PlayerAction) -> None:
    """Store what a student's draw tells: a fraction equal to the reference was held (a missed
    equivalence), and the attempts of the turn it ends were followed by a draw (`drew`).

    Both writes are one statement on PostgreSQL (games.move_rows): a move's transaction
    stays within three statements.
    """
    if record.ruleset != "fractions" or record.action.get("type") != "draw":
        return
    seated = _seated(record.memo, record.user_id, record.table_id)
    if seated is None:
        return
    missed = _missed_equivalence(record, seated)
    student_id = int(seated["student"])
    last = seated.get("last")
    turn = open_turn(student_id, record.table_id, record.seat, last=last, seat_seq=record.seat_seq)
    if turn is not None:
        turn_attempts = Attempt.objects.filter(
            student_id=student_id, table_id=record.table_id, turn=turn
        )
        update_then_insert(turn_attempts, {"drew": True}, [missed] if missed else [])
    elif missed is not None:
        missed.save()


def _missed_equivalence(
    record: hooks.PlayerAction, seated: dict[str, Any]
) -> MissedEquivalence | None:
    """Return the (unsaved) missed equivalence of a voluntary draw, if an equal card was held."""
    reference = record.view_before.get("reference")
    if not reference:
        return None
    held = [card for card in record.view_before.get("hand") or [] if is_fraction_card(card)]
    equal = set(missed_equivalences(reference, [parse_fraction(card) for card in held]))
    if not equal:
        return None
    return MissedEquivalence(
        classroom_id=seated["classroom"],
        student_id=seated["student"],
        session_id=_session_kept(record.memo, record.table_id),
        table_id=record.table_id,
        created_at=timezone.now(),
        reference=reference,
        equal_cards=[card for card in held if parse_fraction(card) in equal],
        rules_version=RULES_VERSION,
    )
