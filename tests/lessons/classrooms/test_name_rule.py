"""One name rule (case, NFKC, confusables) on every path a name enters a class by: roster
paste, CSV import, rename, move into a class, a new year's class. Runs on SQLite, whose
`iexact` folds ASCII only (the bug: "élodie" beside "Élodie" was accepted)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons.classrooms.name_rule import name_identity, names_repeated
from lessons.classrooms.roster_csv import roster_file_read, roster_preview
from lessons.classrooms.services import roster_add, roster_parse
from lessons.models import Classroom, Student, User
from lessons.pupils.changes import student_move, student_rename
from lessons.school.class_years import classroom_new_year
from tests.conftest import ClassWorld
from tests.support.factories import make_classroom, make_student

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0430"
# (name in the class, a near-duplicate that must be refused beside it)
SAME_NAMES = [
    ("Élodie", "élodie"),
    ("Élodie", "ÉLODIE"),
    ("Lucas", f"Luc{CYRILLIC_A}s"),  # Cyrillic а
    ("Lucas", "Ｌｕｃａｓ"),  # fullwidth
    ("Paul", "\u0420aul"),  # Cyrillic Р
    ("Zoé", "Zoe\u0301"),  # e + combining accent
    ("Chloé", "CHLOÉ"),
    ("Hugo", "\u041dUGO"),  # Cyrillic Н: like H in capitals only
    ("Iris", "IRIS"),  # "I" is listed as drawn like "l": the case fold comes first for Latin
]
DIFFERENT_NAMES = [("Léa", "Lea"), ("Marnie", "Mamie"), ("Noé", "Noë"), ("Lucas", "Luca")]


@pytest.mark.parametrize(("first", "second"), SAME_NAMES)
def test_near_duplicates_share_one_identity(first: str, second: str) -> None:
    assert first != second
    assert name_identity(first) == name_identity(second)


@pytest.mark.parametrize(("first", "second"), DIFFERENT_NAMES)
def test_different_names_stay_different(first: str, second: str) -> None:
    assert name_identity(first) != name_identity(second)


def test_a_list_reports_each_repeat_once() -> None:
    assert names_repeated(["Lucas", f"Luc{CYRILLIC_A}s", "LUCAS", "Mia"]) == [f"Luc{CYRILLIC_A}s"]


def _class_with(name: str) -> Classroom:
    classroom = make_classroom(name="Classe N")
    make_student(classroom=classroom, display_name=name)
    return classroom


def _codes(error: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return [e.code or "" for e in error.value.error_list]


@pytest.mark.parametrize(("present", "typed"), SAME_NAMES)
def test_roster_paste_refuses_a_near_duplicate_of_a_pupil(present: str, typed: str) -> None:
    classroom = _class_with(present)
    with pytest.raises(ValidationError) as refused:
        roster_add(classroom=classroom, text=f"Mia\n{typed}")
    assert _codes(refused) == ["taken"]
    assert list(classroom.students.values_list("display_name", flat=True)) == [present]


@pytest.mark.parametrize(("present", "typed"), SAME_NAMES)
def test_roster_paste_refuses_near_duplicates_in_the_paste(present: str, typed: str) -> None:
    with pytest.raises(ValidationError) as refused:
        roster_parse(text=f"{present}\n{typed}")
    assert _codes(refused) == ["duplicate"]


@pytest.mark.parametrize(("present", "typed"), SAME_NAMES)
def test_csv_import_counts_a_near_duplicate_as_already_there(present: str, typed: str) -> None:
    classroom = _class_with(present)
    names = roster_file_read(data=f"Prénom\n{typed}\nMia\n".encode())
    preview = roster_preview(classroom=classroom, names=names)
    assert preview.new == ["Mia"]
    assert preview.unchanged == [present] and preview.missing == []


def test_csv_import_refuses_near_duplicates_in_the_file() -> None:
    with pytest.raises(ValidationError) as refused:
        roster_file_read(data=f"Prénom\nLucas\nLuc{CYRILLIC_A}s\n".encode())
    assert _codes(refused) == ["duplicate"]


def test_csv_import_tells_look_alike_first_names_apart_by_the_last_name() -> None:
    data = f"Prénom;Nom\nLucas;Martin\nLuc{CYRILLIC_A}s;Durand\n".encode()
    assert roster_file_read(data=data) == ["Lucas M.", f"Luc{CYRILLIC_A}s D."]


@pytest.mark.parametrize(("present", "typed"), SAME_NAMES)
def test_rename_refuses_a_near_duplicate(present: str, typed: str) -> None:
    classroom = _class_with(present)
    other = make_student(classroom=classroom, display_name="Mia").student
    with pytest.raises(ValidationError) as refused:
        student_rename(student=other, name=typed)
    assert refused.value.code == "taken"
    assert Student.objects.get(pk=other.pk).display_name == "Mia"


def test_rename_to_another_spelling_of_ones_own_name_is_allowed(class_a: ClassWorld) -> None:
    student = class_a.student.student
    student_rename(student=student, name=student.display_name.upper())
    assert Student.objects.get(pk=student.pk).display_name == "ANAÏSA"


@pytest.mark.parametrize(("present", "typed"), SAME_NAMES)
def test_move_refuses_a_near_duplicate_in_the_target(present: str, typed: str) -> None:
    target = _class_with(present)
    source = make_classroom(teacher=target.teacher, name="Classe M")
    moving = make_student(classroom=source, display_name=typed).student
    with pytest.raises(ValidationError) as refused:
        student_move(student=moving, to=target)
    assert refused.value.code == "taken"
    assert Student.objects.get(pk=moving.pk).classroom_id == source.pk


def test_new_year_refuses_a_list_with_near_duplicates_and_creates_nothing() -> None:
    # Names stored before the rule (by the old, ASCII-only check on SQLite).
    source = _class_with("Élodie")
    Student.objects.create(
        user=User.objects.create(username="student-legacy", role=User.Role.STUDENT),
        classroom=source,
        display_name="élodie",
        pin_hash="x",
    )
    Classroom.objects.filter(pk=source.pk).update(archived_at=timezone.now())
    source.refresh_from_db()
    before = Classroom.objects.count()
    with pytest.raises(ValidationError) as refused:
        classroom_new_year(source=source, by=source.teacher, name="Next", grade="CM2")
    assert _codes(refused) == ["duplicate"]
    assert Classroom.objects.count() == before


# Latin letters with their Cyrillic look-alikes (the swaps a copy-paste from another keyboard
# layout makes), and the accents French names carry.
LOOK_ALIKES = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у",
               "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "X": "Х", "H": "Н"}  # fmt: skip
LETTERS = "abcdefghijklmnopqrstuvwxyzéèêëïîôùûçœABCDEFGHIJKLMNOPQRSTUVWXYZÉÈÇ"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=LETTERS + " -", min_size=1, max_size=30), st.data())
def test_case_width_spacing_and_look_alikes_never_make_a_new_name(
    name: str, data: st.DataObject
) -> None:
    identity = name_identity(name)
    assert name_identity(name.upper()) == identity
    assert name_identity(name.lower()) == identity
    assert name_identity(f"  {name.replace(' ', '   ')} ") == identity
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    assert name_identity(wide) == identity
    swapped = "".join(
        LOOK_ALIKES[c] if c in LOOK_ALIKES and data.draw(st.booleans()) else c for c in name
    )
    assert name_identity(swapped) == identity
    assert names_repeated([name, swapped]) == [swapped]
