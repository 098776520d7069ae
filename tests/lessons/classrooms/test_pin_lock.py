"""The PIN lock falls at exactly the fifth wrong PIN in a row, whoever sends them.

The count lives on the student (not in a browser's session or per address): each wrong PIN here
comes from a new client on a new address, as on a class's shared tablets.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from lessons.classrooms import services
from lessons.classrooms.services import LOCK_AFTER_FAILURES, student_sign_in_check
from lessons.models import Student
from tests.conftest import ClassWorld

pytestmark = pytest.mark.django_db


def _try(world: ClassWorld, pin: str, address: str) -> str:
    """Send one PIN from `address`; return "ok" or the refusal's code."""
    try:
        student_sign_in_check(
            classroom=world.classroom,
            student_id=world.student.student.pk,
            pin=pin,
            address=address,
        )
    except ValidationError as refusal:
        return str(refusal.code)
    return "ok"


def _wrong(world: ClassWorld) -> str:
    return "0000" if world.student.pin != "0000" else "1111"


def _locked(world: ClassWorld) -> bool:
    return Student.objects.get(pk=world.student.student.pk).is_locked()


def test_the_lock_counts_five(class_a: ClassWorld) -> None:
    assert LOCK_AFTER_FAILURES == 5


@pytest.mark.parametrize("wrong", range(1, LOCK_AFTER_FAILURES))
def test_fewer_than_five_wrong_pins_do_not_lock(class_a: ClassWorld, wrong: int) -> None:
    codes = [_try(class_a, _wrong(class_a), f"10.0.0.{n}") for n in range(wrong)]
    assert codes == ["wrong_pin"] * wrong
    assert not _locked(class_a)
    assert _try(class_a, class_a.student.pin, "10.0.1.1") == "ok"


def test_the_fifth_wrong_pin_locks_even_from_five_addresses(class_a: ClassWorld) -> None:
    codes = [_try(class_a, _wrong(class_a), f"10.0.0.{n}") for n in range(5)]
    assert codes == ["wrong_pin"] * 4 + ["locked"]
    assert _locked(class_a)
    # Locked: the right PIN, from yet another address, is refused too.
    assert _try(class_a, class_a.student.pin, "10.0.1.1") == "locked"


def test_a_right_pin_starts_the_count_again(class_a: ClassWorld) -> None:
    # Five wrong PINs lock only in a row: four, a right one, then four more never lock.
    for _round in range(2):
        codes = [_try(class_a, _wrong(class_a), f"10.0.0.{n}") for n in range(4)]
        assert codes == ["wrong_pin"] * 4
        assert _try(class_a, class_a.student.pin, "10.0.1.1") == "ok"
    assert not _locked(class_a)
    assert [_try(class_a, _wrong(class_a), "10.0.2.1") for _ in range(5)][-1] == "locked"


def test_an_unlocked_student_gets_five_more_tries(class_a: ClassWorld) -> None:
    for _ in range(5):
        _try(class_a, _wrong(class_a), "10.0.0.1")
    services.student_unlock(student=Student.objects.get(pk=class_a.student.student.pk))
    codes = [_try(class_a, _wrong(class_a), "10.0.3.1") for _ in range(5)]
    assert codes == ["wrong_pin"] * 4 + ["locked"]
