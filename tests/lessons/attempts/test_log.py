"""The attempt log: every judged fraction play of a student, and every missed equivalence."""

from __future__ import annotations

from typing import Any

import pytest

from games.errors import TableError
from games.services import table_step
from lessons.diagnosis import RULES_VERSION, classify
from lessons.models import Attempt, ClassSession, MissedEquivalence, SessionTable, User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, act, make_table

pytestmark = pytest.mark.django_db


def _setup(**hands: list[str]) -> dict[str, Any]:
    setup = {**FRACTIONS_SETUP, "hands": [list(h) for h in FRACTIONS_SETUP["hands"]]}
    for seat, hand in hands.items():
        setup["hands"][int(seat[-1])] = hand
    return setup


def test_right_equal_play_is_logged_with_its_evidence(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    act(table, pair[1], {"type": "play", "card": "4/12j", "claim": "equal"})
    attempt = Attempt.objects.get()
    assert attempt.student == class_a.other_student.student
    assert attempt.classroom == class_a.classroom
    assert attempt.session is None and attempt.table_id == table.pk
    assert (attempt.reference_num, attempt.reference_den) == (1, 3)
    assert (attempt.played_num, attempt.played_den, attempt.card) == (4, 12, "4/12j")
    assert attempt.claim == "equal"
    # The page sends "equal" by itself for another denominator: the student was not asked.
    assert attempt.claim_source == "inferred"
    assert attempt.outcome == "equal" and attempt.correct
    assert attempt.tags == []
    assert attempt.skills == ["S3"]
    assert attempt.hand == ["4/12", "2/3", "10/12", "1/6"]
    assert attempt.rules_version == RULES_VERSION
    assert attempt.response_ms is not None and attempt.response_ms >= 0
    assert attempt.named_denominator is None


def test_play_without_a_claim_gets_the_inferred_rule(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    act(table, pair[1], {"type": "play", "card": "4/12j"})
    attempt = Attempt.objects.get()
    assert (attempt.claim, attempt.claim_source, attempt.outcome) == ("equal", "inferred", "equal")


def test_right_denominator_play_asked_by_the_page(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=_setup(seat1=["2/3r", "4/12j", "10/12v", "1/6b"]))
    act(table, pair[1], {"type": "play", "card": "2/3r", "claim": "denominator"})
    attempt = Attempt.objects.get()
    assert (attempt.claim, attempt.claim_source) == ("denominator", "asked")
    assert attempt.outcome == "denominator" and attempt.tags == []
    assert "S1" in attempt.skills


def test_wrong_play_is_logged_though_refused(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=_setup(seat1=["2/3r", "4/12j", "10/12v", "1/6b"]))
    with pytest.raises(TableError) as err:
        act(table, pair[1], {"type": "play", "card": "2/3r", "claim": "equal"})
    assert err.value.code == "not_equivalent"
    table.refresh_from_db()
    assert table.state_id == 0  # the game did not move
    attempt = Attempt.objects.get()
    assert (attempt.claim, attempt.claim_source, attempt.outcome) == ("equal", "asked", "wrong")
    assert not attempt.correct
    # 1/3 -> 2/3 claimed equal: same denominator (M3), numerator scaled (M3a), the other
    # part of a whole (M6), and the M0 umbrella.
    assert attempt.tags == ["M0", "M3", "M3a", "M6"] == classify((1, 3), (2, 3), "equal")
    assert "M3" in attempt.p0 and 0 < attempt.p0["M3"] <= 1
    assert "M3" in attempt.opportunities


def test_wrong_play_with_a_penalty_is_logged_once(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, options={"wrong_attempt_penalty": 2})
    act(table, pair[1], {"type": "play", "card": "10/12v", "claim": "equal"})
    table.refresh_from_db()
    assert table.state_id == 1  # the penalty changed the game
    attempt = Attempt.objects.get()
    assert attempt.outcome == "wrong" and attempt.tags
    assert (attempt.reference_num, attempt.reference_den) == (1, 3)
    assert (attempt.played_num, attempt.played_den) == (10, 12)


def test_plays_after_a_named_denominator(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    act(table, pair[1], {"type": "play", "card": "4/12j", "claim": "equal"})
    act(table, pair[0], {"type": "play", "card": "joker", "denominator": 6})
    with pytest.raises(TableError):
        act(table, pair[1], {"type": "play", "card": "10/12v"})
    act(table, pair[1], {"type": "play", "card": "1/6b"})
    wrong, right = Attempt.objects.order_by("id")[1:]
    for attempt in (wrong, right):
        assert attempt.reference_num is None and attempt.reference_den is None
        assert attempt.named_denominator == 6
        assert (attempt.claim, attempt.claim_source) == ("denominator", "inferred")
        assert attempt.skills == ["S1"]
    assert (wrong.outcome, wrong.tags) == ("wrong", ["D1"])
    assert (right.outcome, right.tags) == ("denominator", [])


def test_an_equal_claim_after_a_named_denominator_is_labelled_u(pair: tuple[User, User]) -> None:
    # With no reference fraction there is nothing to be equal to: no rule can name the
    # mistake, and the attempt says so ("U") rather than carrying no label at all.
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    act(table, pair[1], {"type": "play", "card": "4/12j", "claim": "equal"})
    act(table, pair[0], {"type": "play", "card": "joker", "denominator": 6})
    with pytest.raises(TableError):
        act(table, pair[1], {"type": "play", "card": "1/6b", "claim": "equal"})
    wrong = Attempt.objects.order_by("id").last()
    assert wrong is not None and wrong.named_denominator == 6
    assert (wrong.claim, wrong.outcome, wrong.tags) == ("equal", "wrong", ["U"])


def test_draw_while_holding_an_equal_fraction_is_a_missed_equivalence(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    act(table, pair[1], {"type": "draw"})
    missed = MissedEquivalence.objects.get()
    assert missed.student == class_a.other_student.student
    assert missed.reference == "1/3"
    assert missed.equal_cards == ["4/12j"]
    assert missed.table_id == table.pk and missed.session is None
    assert missed.rules_version == RULES_VERSION
    assert Attempt.objects.count() == 0


def test_draw_without_an_equal_fraction_is_not_a_miss(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=_setup(seat1=["2/3r", "5/6j", "10/12v", "1/6b"]))
    act(table, pair[1], {"type": "draw"})
    assert MissedEquivalence.objects.count() == 0


def test_a_bots_play_is_not_logged(pair: tuple[User, User]) -> None:
    table = make_table([pair[0], None], setup=FRACTIONS_SETUP)
    outcome = table_step(table_id=table.pk, state_id=0)
    assert outcome is not None and outcome.events
    assert Attempt.objects.count() == 0
    assert MissedEquivalence.objects.count() == 0


def test_a_teachers_play_is_not_logged(class_a: ClassWorld, pair: tuple[User, User]) -> None:
    table = make_table([pair[0], class_a.teacher], setup=FRACTIONS_SETUP)
    act(table, class_a.teacher, {"type": "play", "card": "4/12j", "claim": "equal"})
    assert Attempt.objects.count() == 0


def test_attempt_at_a_session_table_names_the_session(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    session = ClassSession.objects.create(classroom=class_a.classroom)
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    SessionTable.objects.create(session=session, table=table, number=1)
    act(table, pair[1], {"type": "play", "card": "4/12j", "claim": "equal"})
    act(table, pair[0], {"type": "draw"})
    assert Attempt.objects.get().session == session
    # Seat 0 held 2/6, equal to the 4/12 on the pile, and drew.
    assert MissedEquivalence.objects.get().session == session
