"""Services and helpers of the lessons app, called directly."""

from __future__ import annotations

import time

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.core.exceptions import ValidationError
from django.utils import translation

from lessons.classrooms import fresh_pins, selectors, services
from lessons.classrooms.pins import pin_generate, pin_hash, pin_matches
from lessons.models import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, User
from tests.conftest import ClassWorld
from tests.support.factories import make_classroom, make_teacher


def test_join_code_alphabet_has_no_look_alike_characters() -> None:
    assert not set("01258BILOSZ") & set(JOIN_CODE_ALPHABET)
    code = services.join_code_generate()
    assert len(code) == JOIN_CODE_LENGTH and set(code) <= set(JOIN_CODE_ALPHABET)


def test_join_code_normalise_accepts_how_students_type() -> None:
    assert services.join_code_normalise(" ab-cd 9x ") == "ABCD9X"


def test_roster_parse_cleans_spaces_and_keeps_order() -> None:
    text = "  Zoé  \r\n\n Jean   Paul\nÉlise\n"
    assert services.roster_parse(text=text) == ["Zoé", "Jean Paul", "Élise"]


def test_roster_parse_refuses_control_characters() -> None:
    with translation.override("en"):
        with pytest.raises(ValidationError) as caught:
            services.roster_parse(text="Ok\nBad\x07name")
        assert caught.value.messages == ["Line 2 contains characters that cannot be shown."]


def test_pins_are_four_digits_and_stored_hashed() -> None:
    pins = {pin_generate() for _ in range(200)}
    assert all(len(p) == 4 and p.isdigit() for p in pins)
    assert len(pins) > 100
    encoded = pin_hash("0420")
    assert "0420" not in encoded
    assert pin_matches("0420", encoded)
    assert not pin_matches("0421", encoded)
    assert not pin_matches("0420", "")


@pytest.mark.django_db
def test_classroom_codes_are_unique_and_only_teachers_create_classes() -> None:
    teacher = make_teacher()
    codes = {make_classroom(teacher=teacher).join_code for _ in range(30)}
    assert len(codes) == 30
    student_user = User.objects.create(username="kid", role=User.Role.STUDENT)
    with pytest.raises(ValidationError):
        services.classroom_create(teacher=student_user, name="X", grade="", language="fr")


@pytest.mark.django_db
def test_selectors_scope_by_teacher(class_a: ClassWorld, class_b: ClassWorld) -> None:
    mine = selectors.classrooms_for_teacher(teacher=class_a.teacher)
    assert [c.student_count for c in mine] == [2]  # type: ignore[attr-defined]  # annotated
    assert (
        selectors.classroom_for_teacher(teacher=class_b.teacher, classroom_id=class_a.classroom.pk)
        is None
    )
    assert (
        selectors.student_for_teacher(
            teacher=class_b.teacher, student_id=class_a.student.student.pk
        )
        is None
    )
    assert selectors.student_for_user(user=class_a.teacher) is None
    assert selectors.student_for_user(user=class_a.student.user) == class_a.student.student
    code = class_a.classroom.join_code.lower()
    assert selectors.classroom_by_join_code(code=code) == class_a.classroom


@pytest.mark.django_db
def test_reset_pin_unlocks_and_changes_the_hash(class_a: ClassWorld) -> None:
    student = class_a.student.student
    student.failed_attempts = 3
    student.save()
    old = student.pin_hash
    pin = services.student_reset_pin(student=student)
    student.refresh_from_db()
    assert student.pin_hash != old and pin_matches(pin, student.pin_hash)
    assert student.failed_attempts == 0 and student.locked_until is None


def test_fresh_pins_are_forgotten_after_an_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    session = SessionStore()

    class _Fake:
        pk = 7

    item = services.StudentWithPin(student=_Fake(), pin="4321")  # type: ignore[arg-type]
    fresh_pins.fresh_pins_remember(session=session, issued=[item])
    assert fresh_pins.fresh_pins_recall(session=session) == {7: "4321"}
    later = time.time() + fresh_pins.KEEP_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)  # the module fresh_pins reads
    assert fresh_pins.fresh_pins_recall(session=session) == {}
