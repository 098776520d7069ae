"""The teacher's spreadsheet names the class and its pupils and speaks the class's language;
the machine CSV for research stays pseudonymous and in codes (issue 21, point 6)."""

from __future__ import annotations

import csv
import io

import pytest

from lessons.diagnosis import REASON_LABELS, RULE_IDS, STATUS_LABELS
from lessons.reporting.exports import STUDENT_HEADER, pseudonym
from tests.conftest import ClassWorld
from tests.lessons.reporting.test_exports import _download, _play_a_class

pytestmark = pytest.mark.django_db

CODES = {"proficient", "not_possible", "same_top", "added_same", "equal", "wrong", "inferred"}


def _rows(data: bytes, delimiter: str) -> list[dict[str, str]]:
    text = data.decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = next(reader)
    return [dict(zip(header, row, strict=True)) for row in reader]


def test_the_spreadsheet_names_the_pupils_in_the_class_language(class_a: ClassWorld) -> None:
    _play_a_class(class_a)
    anais = class_a.student.student
    students = _rows(_download(class_a, "export_students", **{"for": "spreadsheet"}), ";")
    names = {row["élève"] for row in students}
    assert anais.display_name in names and class_a.other_student.student.display_name in names
    assert pseudonym("student", anais.pk) not in names
    assert {row["classe"] for row in students} == {class_a.classroom.name}
    words = {value for row in students for value in row.values()}
    assert not words & CODES  # no English code left: proficient, not_possible…
    statuses = {row[f"statut {rule}"] for row in students for rule in RULE_IDS}
    assert statuses <= {labels["fr"] for labels in STATUS_LABELS.values()}
    attempts = _rows(_download(class_a, "export_attempts", **{"for": "spreadsheet"}), ";")
    assert {row["élève"] for row in attempts} >= {anais.display_name}
    assert REASON_LABELS["added_same"]["fr"] in {row["raison donnée"] for row in attempts}
    assert not {value for row in attempts for value in row.values()} & CODES


def test_the_machine_csv_stays_pseudonymous_and_in_codes(class_a: ClassWorld) -> None:
    _play_a_class(class_a)
    data = _download(class_a, "export_students")
    text = data.decode()
    assert class_a.student.student.display_name not in text
    assert class_a.classroom.name not in text
    rows = _rows(data, ",")
    assert len(rows[0]) == len(STUDENT_HEADER)
    assert {row["class_id"] for row in rows} == {pseudonym("class", class_a.classroom.pk)}
    attempts = _download(class_a, "export_attempts").decode()
    assert "added_same" in attempts and class_a.student.student.display_name not in attempts
