"""Read a roster from a CSV file (a school information system's export) and preview its changes.

The file may be UTF-8 (with or without BOM) or Windows-1252/Latin-1, separated by `;`, `,` or a
tab. The name columns are found by their heading ("Prénom", "Nom", "First name", "Élève"...).
Only first names are kept (the data the game needs); when two pupils share a first name, the
initial of their last name tells them apart ("Lucas M."). An optional ENT id column
("identifiant ENT", "ent_id") links each pupil to their ENT account on import. Every refusal is
a ValidationError with a translated message, and reading a file changes nothing.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import (
    TOO_LONG,
    UNPRINTABLE,
    name_clean,
    name_fault,
    name_identity,
    names_repeated,
    names_taken,
)
from lessons.classrooms.names import name_key
from lessons.classrooms.services import CLASSROOM_MAX_STUDENTS
from lessons.models import DISPLAY_NAME_MAX_LENGTH, ENT_EXTERNAL_ID_MAX_LENGTH, Classroom

ROSTER_FILE_MAX_BYTES = 256 * 1024
ROSTER_FILE_MAX_ROWS = 500

CSV_EMPTY = _("The file is empty.")
CSV_TOO_BIG = _("The file is too big (at most %(limit)d kB).")
CSV_BINARY = _("This is not a text file. Export the list from your spreadsheet as CSV.")
CSV_ENCODING = _(
    "The file's encoding is not recognised. Save it as “CSV UTF-8” or “CSV (Windows)”."
)
CSV_NO_ROWS = _("The file has a heading line but no pupil.")
CSV_TOO_MANY_ROWS = _("The file has %(count)d rows: a class list has at most %(limit)d.")
CSV_NO_NAME_COLUMN = _(
    "No name column found (the file's headings are: %(found)s). "
    "Name a column “Prénom” (or “Nom” and “Prénom”)."
)
CSV_CELL_TOO_LONG = _(
    "A cell of the file is far too long to be a name: is this the class list, saved as CSV?"
)
CSV_ROW_TOO_LONG = _("Row %(row)d: the name is longer than %(limit)d characters.")
CSV_ROW_UNPRINTABLE = _("Row %(row)d contains characters that cannot be shown.")
CSV_DUPLICATE = _("“%(name)s” appears more than once in the file.")
CSV_ROW_ENT_ID = _(
    "Row %(row)d: “%(id)s” is not an ENT id (at most %(limit)d characters, no spaces)."
)
CSV_ENT_ID_TWICE = _("The ENT id “%(id)s” is given to more than one pupil in the file.")
CSV_CLASS_FULL = _(
    "A class holds at most %(limit)d students: it has %(existing)d, the file adds %(count)d."
)

# Headings after heading_key(): accents, case, spaces and punctuation ignored.
FIRST_NAME_HEADINGS = {"prenom", "prenoms", "prenomeleve", "prenomdeleleve", "firstname",
                       "givenname", "forename", "first"}  # fmt: skip
LAST_NAME_HEADINGS = {"nom", "nomdefamille", "nomeleve", "nomdeleleve", "lastname",
                      "surname", "familyname", "last"}  # fmt: skip
FULL_NAME_HEADINGS = {"eleve", "eleves", "nomprenom", "nometprenom", "nomcomplet", "name",
                      "fullname", "student", "studentname", "pupil"}  # fmt: skip
ENT_ID_HEADINGS = {"ent", "entid", "ident", "identifiantent", "identent", "externalid",
                   "ido"}  # fmt: skip


def ent_id_fault(external_id: str) -> bool:
    """Return whether a text cannot be an ENT id (empty, too long, spaces or unprintable)."""
    return (
        not external_id
        or len(external_id) > ENT_EXTERNAL_ID_MAX_LENGTH
        or not external_id.isprintable()
        or any(char.isspace() for char in external_id)
    )


def heading_key(heading: str) -> str:
    """Return a column heading with accents, case, spaces and punctuation taken out."""
    decomposed = unicodedata.normalize("NFKD", heading.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())


def _decode(data: bytes) -> str:
    """Return the file's text, or refuse a binary or unreadable file."""
    if not data.strip():
        raise ValidationError(CSV_EMPTY, code="empty")
    if len(data) > ROSTER_FILE_MAX_BYTES:
        raise ValidationError(
            CSV_TOO_BIG, code="too_big", params={"limit": ROSTER_FILE_MAX_BYTES // 1024}
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValidationError(CSV_ENCODING, code="encoding")  # UTF-16: ask for UTF-8
    if b"\x00" in data:
        raise ValidationError(CSV_BINARY, code="binary")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as error:
            raise ValidationError(CSV_ENCODING, code="encoding") from error
    controls = sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\r\n")
    if controls:
        raise ValidationError(CSV_BINARY, code="binary")
    if not text.strip():
        raise ValidationError(CSV_EMPTY, code="empty")
    return text


def _delimiter(first_line: str) -> str:
    counts = {sep: first_line.count(sep) for sep in (";", ",", "\t")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ";"


@dataclass(frozen=True)
class _Row:
    number: int
    first: str
    last: str
    ent_id: str = ""


def _rows(text: str) -> list[_Row]:
    try:
        return _rows_read(text)
    except csv.Error as error:
        # The csv module refuses a cell over its field size limit (131,072 characters).
        raise ValidationError(CSV_CELL_TOO_LONG, code="cell_too_long") from error


@dataclass(frozen=True)
class _Columns:
    first: int
    last: int | None
    ent: int | None


def _columns(headings: list[str]) -> _Columns:
    """Return where the name columns (and an ENT id column) are, or refuse the file."""
    keys = [heading_key(h) for h in headings]

    def find(names: set[str]) -> int | None:
        return next((i for i, k in enumerate(keys) if k in names), None)

    first, last, full = (
        find(FIRST_NAME_HEADINGS),
        find(LAST_NAME_HEADINGS),
        find(FULL_NAME_HEADINGS),
    )
    if first is None:
        # A lone "Nom" column holds whole names, like an "Élève" column.
        first, last = (full, None) if full is not None else (last, None)
    if first is None:
        found = ", ".join(h.strip() for h in headings if h.strip()) or "—"
        raise ValidationError(CSV_NO_NAME_COLUMN, code="no_name_column", params={"found": found})
    return _Columns(first=first, last=last, ent=find(ENT_ID_HEADINGS))


def _rows_read(text: str) -> list[_Row]:
    lines = text.splitlines()
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(lines[0]))
    columns = _columns(next(reader))
    rows: list[_Row] = []
    for number, cells in enumerate(reader, start=2):
        if len(rows) >= ROSTER_FILE_MAX_ROWS:
            raise ValidationError(
                CSV_TOO_MANY_ROWS,
                code="too_many_rows",
                params={"count": len(lines) - 1, "limit": ROSTER_FILE_MAX_ROWS},
            )

        def cell(index: int | None, cells: list[str] = cells) -> str:
            return cells[index] if index is not None and index < len(cells) else ""

        if name_clean(cell(columns.first)):
            rows.append(
                _Row(
                    number=number,
                    first=name_clean(cell(columns.first)),
                    last=name_clean(cell(columns.last)),
                    # An id is kept as written (ent_id_fault refuses one with spaces inside).
                    ent_id=cell(columns.ent).strip(),
                )
            )
    if not rows:
        raise ValidationError(CSV_NO_ROWS, code="no_rows")
    return rows


def _display_names(rows: list[_Row]) -> list[tuple[int, str]]:
    """Return first names, with a last-name initial where two pupils share one (row order)."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[name_identity(row.first)] = counts.get(name_identity(row.first), 0) + 1
    named: list[tuple[int, str]] = []
    for row in rows:
        name = row.first
        if counts[name_identity(row.first)] > 1 and row.last:
            name = f"{row.first} {row.last[0].upper()}."
        named.append((row.number, name))
    return named


@dataclass(frozen=True)
class RosterEntry:
    """One pupil of a class list file: the display name and, if the file has one, an ENT id."""

    name: str
    ent_id: str


def roster_file_read(*, data: bytes) -> list[str]:
    """Return the display names a roster file gives, or raise every problem found."""
    return [entry.name for entry in roster_file_entries(data=data)]


def _ent_id_errors(rows: list[_Row]) -> list[ValidationError]:
    errors: list[ValidationError] = []
    seen: set[str] = set()
    for row in rows:
        if not row.ent_id:
            continue
        if ent_id_fault(row.ent_id):
            errors.append(
                ValidationError(
                    CSV_ROW_ENT_ID,
                    code="bad_ent_id",
                    params={
                        "row": row.number,
                        "id": row.ent_id[:40],
                        "limit": ENT_EXTERNAL_ID_MAX_LENGTH,
                    },
                )
            )
        elif row.ent_id in seen:
            errors.append(
                ValidationError(CSV_ENT_ID_TWICE, code="ent_id_twice", params={"id": row.ent_id})
            )
        seen.add(row.ent_id)
    return errors


def roster_file_entries(*, data: bytes) -> list[RosterEntry]:
    """Return the pupils a roster file gives (names and ENT ids), or raise every problem found."""
    rows = _rows(_decode(data))
    named = _display_names(rows)
    errors: list[ValidationError] = []
    for number, name in named:
        fault = name_fault(name)
        if fault == TOO_LONG:
            errors.append(
                ValidationError(
                    CSV_ROW_TOO_LONG,
                    code="too_long",
                    params={"row": number, "limit": DISPLAY_NAME_MAX_LENGTH},
                )
            )
        elif fault == UNPRINTABLE:
            errors.append(
                ValidationError(CSV_ROW_UNPRINTABLE, code="unprintable", params={"row": number})
            )
    errors += [
        ValidationError(CSV_DUPLICATE, code="duplicate", params={"name": name})
        for name in names_repeated(name for _number, name in named)
    ]
    errors += _ent_id_errors(rows)
    if errors:
        raise ValidationError(errors)
    return [
        RosterEntry(name=name, ent_id=row.ent_id)
        for (_number, name), row in zip(named, rows, strict=True)
    ]


@dataclass(frozen=True)
class RosterPreview:
    """What confirming an import would do: add `new`, keep `unchanged`, leave `missing` be."""

    new: list[str]
    unchanged: list[str]
    missing: list[str]


def roster_preview(*, classroom: Classroom, names: list[str]) -> RosterPreview:
    """Compare a file's names with the class's students, or refuse a file that overfills it."""
    present = sorted(
        classroom.students.filter(pseudonymised_at__isnull=True).values_list(
            "display_name", flat=True
        ),
        key=name_key,
    )
    # Removed pupils' names count too: confirming adds through roster_add_names, which
    # refuses any name of the class (names_taken).
    taken = set(names_taken(classroom, names))
    file_keys = {name_identity(name) for name in names}
    new = [name for name in names if name not in taken]
    everyone = classroom.students.count()
    if everyone + len(new) > CLASSROOM_MAX_STUDENTS:
        raise ValidationError(
            CSV_CLASS_FULL,
            code="class_full",
            params={"limit": CLASSROOM_MAX_STUDENTS, "existing": everyone, "count": len(new)},
        )
    return RosterPreview(
        new=new,
        unchanged=[name for name in present if name_identity(name) in file_keys],
        missing=[name for name in present if name_identity(name) not in file_keys],
    )
