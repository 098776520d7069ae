"""The warm-up services: each answer stored first, a reason after every answer, refusals.

Scenario: a class session with the warm-up on; a student joins, gets a round with its first
item, answers (stored as an attempt of source "probe"), is asked why (right or wrong alike),
and goes on until probe_next has nothing more to ask. Every refusal changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lessons.diagnosis.why import reason_asked
from lessons.evidence.loading import student_rows, turns_of
from lessons.models import Attempt, WarmupRound
from lessons.sessions import services as sessions
from lessons.warmup import services
from tests.lessons.sessions.helpers import class_of, join_all, start
from tests.lessons.warmup.helpers import ITEMS, scripted
from tests.support.factories import make_teacher

pytestmark = pytest.mark.django_db


def _joined(count: int = 2, **kw: Any) -> tuple[Any, list[Any]]:
    teacher = make_teacher()
    classroom, students = class_of(teacher, count)
    session = start(teacher, classroom, warmup=True, **kw)
    join_all(session, students)
    return session, students


def _round(student: Any) -> WarmupRound:
    return WarmupRound.objects.get(student=student)


def _answer(student: Any, round_: WarmupRound, choice: str) -> Attempt:
    return services.warmup_answer(
        student=student, warmup_id=round_.pk, item_number=round_.answered + 1, choice=choice
    )


def _snapshot(student: Any) -> tuple[Any, ...]:
    round_ = _round(student)
    attempts = list(Attempt.objects.filter(student=student).values_list("pk", "reason"))
    return (round_.answered, round_.asking_id, round_.item, round_.finished_at, attempts)


def test_a_student_who_joins_gets_a_round_with_its_first_item(monkeypatch: Any) -> None:
    script = scripted(monkeypatch)
    session, (ada, _bob) = _joined()
    round_ = _round(ada)
    assert round_.kind == WarmupRound.Kind.SESSION and round_.session_id == session.pk
    assert round_.item == ITEMS[0] and round_.answered == 0 and round_.finished_at is None
    # The items stay within the session's deck level, seeded per round.
    assert {call[1] for call in script.calls} == {"full"}
    assert script.calls[0][2] == round_.seed
    assert script.rounds[0] == round_.pk  # each round asks for its own items
    # Joining again (signing in twice) keeps the same round.
    sessions.session_join(session=session, student=ada)
    assert WarmupRound.objects.filter(student=ada).count() == 1


def test_a_session_without_warm_up_gives_no_round(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, students = class_of(teacher, 2)
    session = start(teacher, classroom)
    join_all(session, students)
    assert not WarmupRound.objects.exists()


def test_each_answer_is_stored_as_a_probe_attempt_then_asked_why(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    attempt = _answer(ada, round_, "2/3")  # wrong: 2/3 is not 1/2
    attempt.refresh_from_db()
    assert attempt.source == Attempt.Source.PROBE and attempt.warmup_id == round_.pk
    assert (attempt.reference_num, attempt.reference_den) == (1, 2)
    assert (attempt.played_num, attempt.played_den, attempt.card) == (2, 3, "2/3")
    assert attempt.claim == "equal" and attempt.claim_source == "asked"
    assert attempt.outcome == Attempt.Outcome.WRONG and "M1" in attempt.tags
    assert attempt.hand == ITEMS[0]["options"] and attempt.turn == 1
    assert attempt.table_id is None and attempt.session_id is None
    round_.refresh_from_db()
    assert round_.asking_id == attempt.pk and round_.answered == 1
    # The prompt offers the same answers after every answer, in an order of its own.
    assert sorted(services.reason_choices(round_)) == sorted(services.PROMPT_CODES)
    services.warmup_reason(student=ada, warmup_id=round_.pk, reason="added_same")
    attempt.refresh_from_db()
    round_ = WarmupRound.objects.get(pk=round_.pk)  # read again (mypy keeps what was asserted)
    assert attempt.reason == "added_same"
    assert round_.asking_id is None and round_.item == ITEMS[1]


def test_a_right_answer_asked_why_keeps_no_reason(monkeypatch: Any) -> None:
    scripted(monkeypatch, ask=True)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    right = _answer(ada, round_, "3/6")
    round_.refresh_from_db()
    assert right.outcome == Attempt.Outcome.EQUAL and round_.asking_id == right.pk
    services.warmup_reason(student=ada, warmup_id=round_.pk, reason="same_bottom")
    (turn,) = turns_of(student_rows(ada.pk))
    assert turn["source"] == "probe" and turn["attempts"][0]["reason"] is None


def test_answers_become_diagnose_probe_turns_in_order(monkeypatch: Any) -> None:
    script = scripted(monkeypatch, ask=True)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    for choice, reason in (("2/3", "added_same"), ("4/12", None), ("5/6", "guessed")):
        _answer(ada, round_, choice)
        services.warmup_reason(student=ada, warmup_id=round_.pk, reason=reason)
        round_.refresh_from_db()
    # The script ran out after three answers: the round is over.
    assert round_.finished_at is not None and round_.item is None and round_.answered == 3
    turns = turns_of(student_rows(ada.pk))
    # Each answer carries its stored time with its offset (issue 31: "held" needs it).
    stored = Attempt.objects.filter(student=ada).order_by("created_at", "id")
    assert [turn.pop("at") for turn in turns] == [a.created_at.isoformat() for a in stored]
    assert turns == [
        {
            "turn": 1,
            "source": "probe",
            "reference": "1/2",
            "denominator": 2,
            "hand": ITEMS[0]["options"],
            "attempts": [
                {"played": "2/3", "claim": "equal", "asked": True, "reason": "added_same"}
            ],
            "drew": False,
            "round": round_.pk,
        },
        {
            "turn": 2,
            "source": "probe",
            "reference": "1/3",
            "denominator": 3,
            "hand": ITEMS[1]["options"],
            "attempts": [{"played": "4/12", "claim": "equal", "asked": True, "reason": None}],
            "drew": False,
            "round": round_.pk,
        },
        {
            "turn": 3,
            "source": "probe",
            "reference": "2/3",
            "denominator": 3,
            "hand": ITEMS[2]["options"],
            "attempts": [{"played": "5/6", "claim": "equal", "asked": True, "reason": "guessed"}],
            "drew": False,
            "round": round_.pk,
        },
    ]
    # probe_next saw each stored answer before choosing the next item.
    assert [sum(t.get("source") == "probe" for t in call[0]) for call in script.calls[-4:]] == [
        0,
        1,
        2,
        3,
    ]


@pytest.mark.parametrize(
    ("item_number", "choice", "code"),
    [
        (1, "7/8", "not_an_option"),
        (1, "", "not_an_option"),
        (1, None, "not_an_option"),
        (1, ["2/3"], "not_an_option"),
        (2, "2/3", "stale_item"),
        (0, "2/3", "stale_item"),
        ("1", "2/3", "stale_item"),
        (True, "2/3", "stale_item"),
    ],
)
def test_a_bad_answer_is_refused_and_changes_nothing(
    monkeypatch: Any, item_number: object, choice: object, code: str
) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    before = _snapshot(ada)
    with pytest.raises(ValidationError) as error:
        services.warmup_answer(
            student=ada, warmup_id=_round(ada).pk, item_number=item_number, choice=choice
        )
    assert error.value.code == code and str(error.value.messages[0])
    assert _snapshot(ada) == before


def test_an_answer_twice_or_before_the_reason_is_refused(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    _answer(ada, round_, "2/3")
    before = _snapshot(ada)
    with pytest.raises(ValidationError) as error:
        services.warmup_answer(student=ada, warmup_id=round_.pk, item_number=1, choice="3/6")
    assert error.value.code == "reason_first"
    with pytest.raises(ValidationError) as error:
        services.warmup_answer(student=ada, warmup_id=round_.pk, item_number=2, choice="1/6")
    assert error.value.code == "reason_first"
    assert _snapshot(ada) == before


@pytest.mark.parametrize("reason", ["M1", "", 3, ["guessed"], "added_same "])
def test_an_unknown_reason_is_refused_and_changes_nothing(monkeypatch: Any, reason: object) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    _answer(ada, round_, "2/3")
    before = _snapshot(ada)
    with pytest.raises(ValidationError) as error:
        services.warmup_reason(student=ada, warmup_id=round_.pk, reason=reason)
    assert error.value.code == "unknown_reason"
    assert _snapshot(ada) == before


def test_a_reason_with_no_question_is_refused(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    before = _snapshot(ada)
    with pytest.raises(ValidationError) as error:
        services.warmup_reason(student=ada, warmup_id=_round(ada).pk, reason="guessed")
    assert error.value.code == "no_question"
    assert _snapshot(ada) == before


def test_a_student_never_acts_on_another_students_round(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session, (ada, bob) = _joined()
    theirs = _round(bob)
    before = _snapshot(bob)
    for call in (
        lambda: services.warmup_answer(
            student=ada, warmup_id=theirs.pk, item_number=1, choice="3/6"
        ),
        lambda: services.warmup_reason(student=ada, warmup_id=theirs.pk, reason="guessed"),
        lambda: services.warmup_begin(student=ada, warmup_id=theirs.pk),
        lambda: services.warmup_answer(student=ada, warmup_id=10**6, item_number=1, choice="3/6"),
        lambda: services.warmup_answer(student=ada, warmup_id="1", item_number=1, choice="3/6"),
    ):
        with pytest.raises(ValidationError) as error:
            call()
        assert error.value.code == "not_found"
    assert _snapshot(bob) == before
    assert not Attempt.objects.filter(student=ada).exists()


def test_students_answering_are_not_dealt_until_the_teacher_seats(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    session, (ada, bob) = _joined()
    # Long after the settle time, nobody is dealt by themselves: the teacher reads first.
    assert sessions.session_seat_due(session=session, now=None) == []
    round_ = _round(ada)
    for choice in ("3/6", "4/12", "8/12"):
        _answer(ada, round_, choice)
        round_.refresh_from_db()
        if round_.asking_id is not None:
            services.warmup_reason(student=ada, warmup_id=round_.pk, reason=None)
            round_.refresh_from_db()
    assert round_.finished_at is not None and not round_.stopped
    assert sessions.session_seat_due(session=session, now=None) == []
    # The teacher seats: Bob's round stops where it was, and everyone is dealt.
    made = sessions.session_seat_now(session=session, teacher=session.classroom.teacher)
    assert len(made) == 1
    bobs = _round(bob)
    assert bobs.finished_at is not None and bobs.stopped and bobs.item is None
    with pytest.raises(ValidationError) as error:
        services.warmup_answer(student=bob, warmup_id=bobs.pk, item_number=1, choice="3/6")
    assert error.value.code == "finished"


def test_a_recheck_waits_for_its_students_then_begins(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, bob, cleo) = class_of(teacher, 3)
    made = services.warmup_recheck(teacher=teacher, classroom=classroom, students=[ada.pk, cleo.pk])
    assert [r.student_id for r in made] == [ada.pk, cleo.pk]
    round_ = made[0]
    assert round_.kind == WarmupRound.Kind.RECHECK and round_.item is None
    with pytest.raises(ValidationError) as error:
        _answer(ada, round_, "3/6")
    assert error.value.code == "not_started"
    services.warmup_begin(student=ada, warmup_id=round_.pk)
    round_.refresh_from_db()
    assert round_.item == ITEMS[0]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"students": []}, "no_students"),
        ({"students": ["1"]}, "not_in_class"),
        ({"level": "halves"}, "bad_deck"),
    ],
)
def test_a_bad_recheck_is_refused_and_creates_nothing(
    monkeypatch: Any, kwargs: dict[str, Any], code: str
) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, _bob) = class_of(teacher, 2)
    arguments: dict[str, Any] = {"students": [ada.pk]} | kwargs
    with pytest.raises(ValidationError) as error:
        services.warmup_recheck(teacher=teacher, classroom=classroom, **arguments)
    assert error.value.code == code
    assert not WarmupRound.objects.exists()


@pytest.mark.parametrize(
    ("days", "accepted"),
    [
        (-1, False),
        (0, True),
        (services.MAX_RECHECK_DAYS, True),
        (services.MAX_RECHECK_DAYS + 1, False),
    ],
)
def test_a_recheck_may_be_due_from_today_to_its_last_day(
    monkeypatch: Any, days: int, accepted: bool
) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, _bob) = class_of(teacher, 2)
    due_on = timezone.localdate() + timedelta(days=days)
    arguments: dict[str, Any] = {"students": [ada.pk], "due_on": due_on}
    if accepted:
        made = services.warmup_recheck(teacher=teacher, classroom=classroom, **arguments)
        assert [r.due_on for r in made] == [due_on]
        return
    with pytest.raises(ValidationError) as error:
        services.warmup_recheck(teacher=teacher, classroom=classroom, **arguments)
    assert error.value.code == "bad_due"
    assert not WarmupRound.objects.exists()


def test_a_recheck_refuses_another_class_and_another_teacher(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher, other = make_teacher(), make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    _elsewhere, (zoe,) = class_of(other, 1)
    with pytest.raises(ValidationError) as error:
        services.warmup_recheck(teacher=teacher, classroom=classroom, students=[ada.pk, zoe.pk])
    assert error.value.code == "not_in_class"
    with pytest.raises(ValidationError) as error:
        services.warmup_recheck(teacher=other, classroom=classroom, students=[ada.pk])
    assert error.value.code == "not_your_class"
    assert not WarmupRound.objects.exists()


def test_a_pupil_moved_to_another_class_takes_their_warm_ups(monkeypatch: Any) -> None:
    from lessons.pupils.changes import student_move
    from tests.support.factories import make_classroom

    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    (round_,) = services.warmup_recheck(teacher=teacher, classroom=classroom, students=[ada.pk])
    services.warmup_begin(student=ada, warmup_id=round_.pk)
    _answer(ada, _round(ada), "3/6")
    other = make_classroom(teacher=teacher)
    student_move(student=ada, to=other)
    assert _round(ada).classroom_id == other.pk
    assert set(Attempt.objects.filter(student=ada).values_list("classroom_id", flat=True)) == {
        other.pk
    }


# "Why?" where it informs (issue 30 §1.4): the real rule, lessons.diagnosis.why.
RIGHT = {"1/2": "3/6", "1/3": "4/12", "2/3": "8/12"}
LONG = [ITEMS[i % len(ITEMS)] for i in range(12)]


def _play(student: Any, round_: WarmupRound, picks: list[str]) -> list[bool]:
    """Answer `picks` in turn, skipping each question; return whether each answer was asked."""
    asked = []
    for choice in picks:
        _answer(student, round_, choice)
        round_.refresh_from_db()
        asked.append(round_.asking_id is not None)
        if round_.asking_id is not None:
            services.warmup_reason(student=student, warmup_id=round_.pk, reason=None)
            round_.refresh_from_db()
    return asked


def test_right_answers_are_asked_why_a_few_times_never_twice_in_a_row(monkeypatch: Any) -> None:
    scripted(monkeypatch, LONG)
    _session, students = _joined(count=6)
    patterns = []
    for number, student in enumerate(students):
        round_ = _round(student)
        WarmupRound.objects.filter(pk=round_.pk).update(seed=1000 + number)
        round_.refresh_from_db()
        asked = _play(student, round_, [RIGHT[item["reference"]] for item in LONG])
        patterns.append(asked)
        assert not any(a and b for a, b in zip(asked, asked[1:], strict=False)), asked
        assert sum(asked) < len(asked) / 2  # a few, not after every item
        # Deterministic: the stored turns, read again, give the same questions.
        turns = turns_of(student_rows(student.pk))
        again = [
            reason_asked(turns[: i + 1], level=round_.level, seed=round_.seed, round_id=round_.pk)
            for i in range(len(turns))
        ]
        assert again == asked
    assert any(any(asked) for asked in patterns)  # now and then after a right answer too


def test_a_wrong_answer_on_an_undecided_rule_is_asked_why(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    _answer(ada, round_, "2/3")  # M1's trap, M1 undecided: its reason informs
    round_.refresh_from_db()
    assert round_.asking_id is not None


def test_an_answer_without_a_question_is_stored_judged_and_read(monkeypatch: Any) -> None:
    scripted(monkeypatch, ask=False)
    _session, (ada, _bob) = _joined()
    round_ = _round(ada)
    attempt = _answer(ada, round_, "2/3")
    round_.refresh_from_db()
    # No question: the next item at once, the answer judged and stored as evidence.
    assert round_.asking_id is None and round_.item == ITEMS[1] and round_.answered == 1
    assert attempt.outcome == Attempt.Outcome.WRONG and "M1" in attempt.tags
    with pytest.raises(ValidationError) as error:
        services.warmup_reason(student=ada, warmup_id=round_.pk, reason="guessed")
    assert error.value.code == "no_question"
    (turn,) = turns_of(student_rows(ada.pk))
    assert turn["source"] == "probe" and turn["round"] == round_.pk
    assert turn["attempts"][0]["played"] == "2/3" and turn["attempts"][0]["reason"] is None
    for choice in ("4/12", "8/12"):
        _answer(ada, round_, choice)
        round_.refresh_from_db()
    assert round_.finished_at is not None and round_.asking_id is None


def test_the_answers_keep_one_order_for_a_pupil(monkeypatch: Any) -> None:
    scripted(monkeypatch, LONG, ask=True)
    _session, students = _joined(count=8)
    orders = []
    for student in students:
        round_ = _round(student)
        seen = []
        for item in LONG[:4]:
            _answer(student, round_, RIGHT[item["reference"]])
            round_.refresh_from_db()
            seen.append(services.reason_choices(round_))
            services.warmup_reason(student=student, warmup_id=round_.pk, reason=None)
            round_.refresh_from_db()
        assert all(order == seen[0] for order in seen)  # the same on every item
        assert sorted(seen[0]) == sorted(services.PROMPT_CODES)
        orders.append(tuple(seen[0]))
    # Per pupil, not one order for the class (8 pupils, 120 orders).
    assert len(set(orders)) > 1
