"""The attempt generator (scale benchmark) and the demo history write realistic attempts."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from lessons.demo.data import DEMO_SESSION_DAYS_AGO, demo_classroom_ensure, demo_history_ensure
from lessons.diagnosis import RULES_VERSION, attempt_evidence, classify, skill_tags
from lessons.models import Attempt, Classroom, ClassSession, MissedEquivalence, Student, User
from tests.support.factories import teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


def _assert_realistic(attempts: list[Attempt]) -> None:
    """Every attempt's tags, chance rates and skills are what the diagnosis package gives."""
    assert any(a.outcome == "wrong" for a in attempts)
    assert any(a.outcome != "wrong" for a in attempts)
    for attempt in attempts:
        assert attempt.reference_num is not None and attempt.reference_den is not None
        assert attempt.played_num is not None and attempt.played_den is not None
        reference = (attempt.reference_num, attempt.reference_den)
        played = (attempt.played_num, attempt.played_den)
        assert attempt.tags == classify(reference, played, attempt.claim)
        assert (attempt.outcome == "wrong") == bool(attempt.tags)
        evidence = attempt_evidence(
            reference, played, attempt.claim, attempt.hand,
            claim_asked=True,
        )  # fmt: skip
        assert attempt.p0 == pytest.approx({k: round(v, 4) for k, v in evidence.p0.items()})
        assert attempt.skills == skill_tags(reference, played)
        assert attempt.rules_version == RULES_VERSION
        assert f"{played[0]}/{played[1]}" in attempt.hand


def test_generator_writes_the_asked_counts() -> None:
    call_command(
        "generate_attempts", "--classes", "2", "--students", "3", "--attempts", "12",
        "--sessions", "3", "--days", "20", "--pool", "20", stdout=None,
    )  # fmt: skip
    assert Classroom.objects.count() == 2 and Student.objects.count() == 6
    assert ClassSession.objects.count() == 6
    assert Attempt.objects.count() == 2 * 3 * 3 * 4
    for classroom in Classroom.objects.all():
        assert set(Attempt.objects.filter(classroom=classroom).values_list(
            "student__classroom", flat=True)) == {classroom.pk}  # fmt: skip
    _assert_realistic(list(Attempt.objects.all()))
    # Generated students cannot sign in: they have no usable PIN or password.
    assert not any(user.has_usable_password() for user in User.objects.filter(role="student"))


@pytest.mark.parametrize("option", ["--classes", "--students", "--attempts", "--pool"])
def test_generator_refuses_bad_counts_and_writes_nothing(option: str) -> None:
    with pytest.raises(CommandError, match=option):
        call_command("generate_attempts", option, "0")
    assert not Classroom.objects.exists() and not Attempt.objects.exists()


def test_generator_refuses_an_oversized_class() -> None:
    with pytest.raises(CommandError, match="100"):
        call_command("generate_attempts", "--students", "101")
    assert not User.objects.exists()


def test_demo_history_is_idempotent_and_fills_every_dashboard() -> None:
    demo = demo_classroom_ensure()
    first = demo_history_ensure(demo)
    counts = (Attempt.objects.count(), MissedEquivalence.objects.count())
    second = demo_history_ensure(demo)
    assert len(first) == len(second) == len(DEMO_SESSION_DAYS_AGO)
    assert ClassSession.objects.filter(classroom=demo.classroom).count() == 3
    assert (Attempt.objects.count(), MissedEquivalence.objects.count()) == counts
    assert counts[0] > 1000
    _assert_realistic(list(Attempt.objects.all()[:300]))
    client = teacher_client(demo.teacher)
    classroom = demo.classroom
    text = page_text(client.get(reverse("dashboard_class", args=[classroom.pk])))
    # Different error profiles: some misconception is likely for someone (diagnose(): beyond
    # chance), so the page leads with who needs help with what; another is emerging.
    assert "st-likely" in text and "st-emerging" in text and 'class="panel group"' in text
    student = classroom.students.order_by("display_name")[1]
    for url in (
        reverse("dashboard_student", args=[classroom.pk, student.pk]),
        reverse("dashboard_session", args=[classroom.pk, second[-1].pk]),
    ):
        assert client.get(url).status_code == 200
