"""Invariants of a warm-up round under any sequence of answers, reasons and bad input.

Real items (lessons.diagnosis.probe_next). Whatever the pupil sends: every stored answer is
counted once, the question asked is always about the latest answer, the answer was one of
the cards shown, the round never passes 24 items, and a refused call changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons.models import Attempt, WarmupRound
from lessons.warmup import services
from tests.lessons.sessions.helpers import class_of
from tests.support.factories import make_teacher

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("answer"), st.integers(0, 5), st.integers(-1, 2)),
        st.tuples(
            st.just("reason"),
            st.sampled_from([*services.PROMPT_CODES, None, "M1", "", 7]),
            st.just(0),
        ),
    ),
    max_size=40,
)


def _state(round_: WarmupRound) -> tuple[Any, ...]:
    round_.refresh_from_db()
    attempts = list(
        Attempt.objects.filter(warmup=round_).order_by("id").values_list("pk", "card", "reason")
    )
    return (round_.answered, round_.asking_id, round_.item, round_.finished_at, attempts)


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS, level=st.sampled_from(["sixths", "full"]))
def test_a_round_keeps_its_invariants_whatever_the_pupil_sends(
    actions: list[tuple[str, Any, int]], level: str
) -> None:
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    (round_,) = services.warmup_recheck(
        teacher=teacher, classroom=classroom, students=[ada.pk], level=level
    )
    services.warmup_begin(student=ada, warmup_id=round_.pk)
    for kind, value, offset in actions:
        before = _state(round_)
        shown = round_.item
        try:
            if kind == "answer":
                options = list(shown["options"]) if isinstance(shown, dict) else []
                choice = options[value] if value < len(options) else "99/98"
                services.warmup_answer(
                    student=ada,
                    warmup_id=round_.pk,
                    item_number=round_.answered + 1 + offset,
                    choice=choice,
                )
                assert isinstance(shown, dict) and choice in shown["options"]
            else:
                services.warmup_reason(student=ada, warmup_id=round_.pk, reason=value)
        except ValidationError:
            assert _state(round_) == before
            continue
        answered, asking, item, finished, attempts = _state(round_)
        assert answered == len(attempts) <= services.MAX_ITEMS
        if kind == "answer":
            # "Why?" follows only the answers it informs (lessons.diagnosis.why): either the
            # round asks about this very answer, or it moved on to the next card (or ended).
            assert attempts[-1][1] == choice
            assert asking == attempts[-1][0] or (
                asking is None and (finished is not None or isinstance(item, dict))
            )
        else:
            assert asking is None and (finished is not None or isinstance(item, dict))
