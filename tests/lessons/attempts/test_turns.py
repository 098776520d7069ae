"""The attempt log's clean evidence stream: turns, asked or inferred, drew, p0 on uneven pairs."""

from __future__ import annotations

from typing import Any

import pytest

from games.errors import TableError
from games.models import Table, TableEvent
from lessons.diagnosis import RULE_IDS, classify, diagnose
from lessons.evidence.loading import student_rows, turns_of
from lessons.models import Attempt, User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, act, make_table

pytestmark = pytest.mark.django_db


def _refused(table: Table, user: Any, action: dict[str, Any]) -> None:
    with pytest.raises(TableError):
        act(table, user, action)


def test_tries_of_one_turn_share_it_and_the_next_turn_is_new(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    anais, basile = pair
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    # Basile (seat 1) on 1/3: two refused tries, then 4/12, accepted: one turn. The same try
    # again is refused unjudged and not logged (issue 30 §1.8).
    _refused(table, basile, {"type": "play", "card": "10/12v", "claim": "equal"})
    _refused(table, basile, {"type": "play", "card": "10/12v", "claim": "equal"})
    _refused(table, basile, {"type": "play", "card": "2/3r", "claim": "equal"})
    act(table, basile, {"type": "play", "card": "4/12j", "claim": "equal"})
    # Anaïs (seat 0) on 4/12: a refused try, then she draws: her turn, with a draw.
    _refused(table, anais, {"type": "play", "card": "5/6v", "claim": "equal"})
    act(table, anais, {"type": "draw"})
    table.refresh_from_db()
    if table.state["turn"] == 0:
        act(table, anais, {"type": "pass"})
    # Basile's next turn on 4/12: 1/6 claimed equal, a new turn.
    _refused(table, basile, {"type": "play", "card": "1/6b", "claim": "equal"})

    own = list(Attempt.objects.filter(student=class_a.other_student.student).order_by("id"))
    assert [a.turn for a in own[:3]] == [0] * 3  # the table had stored no action yet
    assert own[3].turn is not None and own[3].turn > 0
    assert not any(a.drew for a in own)
    (hers,) = Attempt.objects.filter(student=class_a.student.student)
    assert hers.turn == 1 and hers.drew  # one stored action (Basile's play) before her turn
    assert hers.turn != own[3].turn

    # The turns diagnose() reads: Basile's first turn counts once (a second try is a probe),
    # the accepted play last.
    turns = turns_of(student_rows(class_a.other_student.student.pk))
    assert [len(turn["attempts"]) for turn in turns] == [3, 1]
    assert [a["played"] for a in turns[0]["attempts"]] == ["10/12", "2/3", "4/12"]
    assert turns[0]["hand"] == ["4/12", "2/3", "10/12", "1/6"]
    result = diagnose(turns)
    assert result["M1"]["k"] == 1 and result["M3"]["k"] == 0  # 2/3 (M3) was a probe
    assert result["M3"]["probes"] == 1


def test_another_seats_action_ends_an_open_turn(
    pair: tuple[User, User], class_a: ClassWorld
) -> None:
    anais, basile = pair
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    _refused(table, basile, {"type": "play", "card": "10/12v", "claim": "equal"})
    # As if the turn had passed and come back (another seat acted in between).
    TableEvent.objects.create(table=table, seq=1, seat=0, actor="player", action={}, result=[])
    Table.objects.filter(pk=table.pk).update(moves=1, state_id=1)
    _refused(table, basile, {"type": "play", "card": "10/12v", "claim": "equal"})
    first, second = Attempt.objects.order_by("id")
    assert (first.turn, second.turn) == (0, 1)


def test_asked_and_inferred_claims_are_stored(pair: tuple[User, User]) -> None:
    anais, basile = pair
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    # Another denominator: only "equal" could apply, the claim is inferred (sound).
    _refused(table, basile, {"type": "play", "card": "10/12v"})
    # The same denominator as 1/3: the page asks; "equal" was the student's choice.
    _refused(table, basile, {"type": "play", "card": "2/3r", "claim": "equal"})
    inferred, asked = Attempt.objects.order_by("id")
    assert (inferred.claim, inferred.claim_source) == ("equal", "inferred")
    assert (asked.claim, asked.claim_source) == ("equal", "asked")
    turns = turns_of(student_rows(asked.student_id))
    assert [a["asked"] for a in turns[0]["attempts"]] == [False, True]


def _shares(reference: tuple[int, int], hand: list[tuple[int, int]]) -> dict[str, float]:
    """Each rule's share of the hand's wrong "equal" options (written apart from the product)."""
    a, b = reference
    options = [card for card in hand if a * card[1] != b * card[0]]
    counts: dict[str, int] = {}
    for card in options:
        for rule in classify(reference, card, "equal"):
            counts[rule] = counts.get(rule, 0) + 1
    return {rule: counts[rule] / len(options) for rule in RULE_IDS if rule in counts}


@pytest.mark.parametrize("card", ["10/12v", "1/6b", "2/3r"])
def test_p0_and_opportunities_on_uneven_pairs(pair: tuple[User, User], card: str) -> None:
    # 1/3 against 10/12, 1/6 or 2/3: swapping the reference and the played card changes the
    # shares (other wrong options), so a log that swapped them is caught.
    _anais, basile = pair
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    _refused(table, basile, {"type": "play", "card": card, "claim": "equal"})
    attempt = Attempt.objects.get()
    hand = [(4, 12), (2, 3), (10, 12), (1, 6)]
    expected = _shares((1, 3), hand)
    assert attempt.p0 == pytest.approx(expected)
    # Opportunities: the rules some wrong "equal" option fits, plus D1 (a card of another
    # denominator could have been claimed "same denominator").
    assert attempt.opportunities == [r for r in RULE_IDS if r in expected or r == "D1"]
    played = (attempt.played_num, attempt.played_den)
    assert attempt.p0 != pytest.approx(_shares(played, [*hand, (1, 3)]))
