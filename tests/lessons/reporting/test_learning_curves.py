"""Learning curves from stored attempts: the class dashboard and the school page (issue 31 §9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from lessons.diagnosis.learning_curve import (
    TREND_ALPHA,
    TREND_DOWN,
    TREND_FLAT,
    TREND_MIN_PUPILS,
    TREND_TOO_LITTLE,
)
from lessons.models import Student, User
from lessons.reporting import words
from lessons.reporting.learning import class_curves, school_curves
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt
from tests.support.factories import make_student, make_teacher, signed_in_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db

# On 1/2, 2/3 is M1's trap (1 and 2 each plus 1) and 3/6 the right card.
HAND = ("2/3", "3/6", "1/6")


def meet_the_trap(student: Student, taken: list[bool]) -> None:
    """Store one game play on 1/2 per encounter: the trap (taken) or the right card."""
    start = timezone.now() - timedelta(hours=2)
    for number, take in enumerate(taken):
        played = (2, 3) if take else (3, 6)
        log_attempt(student, (1, 2), played, at=start + timedelta(minutes=number), hand=HAND)


def falling_class(world: ClassWorld, pupils: int = 6) -> None:
    """Give the class `pupils` pupils who take M1's trap twice, then never again."""
    children = [world.student.student, world.other_student.student]
    for n in range(pupils - 2):
        children.append(
            make_student(classroom=world.classroom, display_name=f"Élève{n}", pin="1111").student
        )
    for child in children:
        meet_the_trap(child, [True, True] + [False] * 8)


def test_a_class_whose_trap_taking_falls_reads_down(class_a: ClassWorld) -> None:
    falling_class(class_a)
    (curve,) = [c for c in class_curves(class_a.classroom) if c.rule == "M1"]
    assert curve.pupils == 6
    assert [(p.pupils, p.taken) for p in curve.points[:3]] == [(6, 6), (6, 6), (6, 0)]
    assert curve.trend == TREND_DOWN


def test_too_few_pupils_read_not_enough_data_and_a_steady_habit_steady(
    class_a: ClassWorld,
) -> None:
    meet_the_trap(class_a.student.student, [True, True, False, False])
    (curve,) = [c for c in class_curves(class_a.classroom) if c.rule == "M1"]
    assert curve.trend == TREND_TOO_LITTLE
    for n in range(6):
        child = make_student(classroom=class_a.classroom, display_name=f"S{n}", pin="1111")
        meet_the_trap(child.student, [n % 2 == i % 2 for i in range(10)])
    (curve,) = [c for c in class_curves(class_a.classroom) if c.rule == "M1"]
    assert curve.trend == TREND_FLAT


def test_the_class_dashboard_shows_the_curve_and_its_reading(class_a: ClassWorld) -> None:
    falling_class(class_a)
    client = signed_in_client(class_a.teacher, "fr")
    page = page_text(
        client.get(reverse("dashboard_class", kwargs={"classroom_id": class_a.classroom.pk}))
    )
    assert "Courbes d’apprentissage" in page
    assert "baisse" in page
    assert "(6/6)" in page and "(0/6)" in page
    english = signed_in_client(class_a.teacher, "en")
    page = page_text(
        english.get(reverse("dashboard_class", kwargs={"classroom_id": class_a.classroom.pk}))
    )
    assert "Learning curves" in page and "going down" in page


def test_an_empty_class_says_no_trap_was_taken(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "en")
    page = page_text(
        client.get(reverse("dashboard_class", kwargs={"classroom_id": class_a.classroom.pk}))
    )
    assert "No trap taken yet in the evidence window." in page


def test_the_school_page_pools_the_classes_without_names(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    falling_class(class_a, pupils=3)
    meet_the_trap(class_b.student.student, [True, True] + [False] * 8)
    meet_the_trap(class_b.other_student.student, [True, True] + [False] * 8)
    (curve,) = [c for c in school_curves() if c.rule == "M1"]
    assert curve.pupils == 5 and curve.trend == TREND_DOWN
    admin = make_teacher(username="direction")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    admin.refresh_from_db()
    page = page_text(signed_in_client(admin, "fr").get(reverse("school_admin")))
    assert "Courbes d’apprentissage" in page and "baisse" in page
    assert class_a.student.student.display_name not in page


def test_the_public_page_says_what_practice_is_measured_to_do_and_reads_the_test_level(
    client: Client,
) -> None:
    page = page_text(client.get(reverse("diagnosis"), HTTP_ACCEPT_LANGUAGE="en"))
    with translation.override("en"):
        level = words.percent(TREND_ALPHA, 0)
    assert "Aimed practice and learning curves" in page
    assert "We do not say they make the mistake go away faster" in page
    assert f"one-sided level {level}" in page
    assert f"while fewer than {TREND_MIN_PUPILS} pupils" in page
