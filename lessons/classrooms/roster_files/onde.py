"""Read ONDE's CSVExtraction.csv: a whole école, `;`-separated, in Windows-1252.

Its headings name the columns ("Nom élève", "Prénom élève", "Date naissance", "INE",
" Cycle" with a leading space, "Niveau", "Libellé classe"...); only the names, the class label
and a leaving date are read. Lines before the headings, empty lines and footer lines (a count,
the extraction's date: no first name) are passed over. A file that was not Windows-1252 nor
UTF-8, or whose accents were garbled by a conversion ("Ã©" for "é"), is refused with words
that say so: its names would be wrong.

The shape followed is the one public importers of this export read (Pix's ONDE import format:
those headings, ISO-8859-1 or UTF-8; SACoche's ONDE import: the whole school in one file),
since the ministry publishes no specification of the file.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import name_clean
from lessons.classrooms.roster_csv import (
    CSV_BINARY,
    CSV_CELL_TOO_LONG,
    CSV_EMPTY,
    CSV_TOO_BIG,
    heading_key,
)
from lessons.classrooms.roster_files.pupils import (
    SCHOOL_MAX_PUPILS,
    SCHOOL_TOO_MANY,
    SchoolPupil,
    SchoolRead,
)

ONDE_MAX_BYTES = 4 * 1024 * 1024
# The headings are looked for in the first lines only: a file with none there is not ONDE.
HEADING_SEARCH_LINES = 20

ONDE_ENCODING = _(
    "The file's accents cannot be read: it is neither in ONDE's encoding (Windows-1252) nor "
    "in UTF-8. Export the list from ONDE again and choose it as it is, without opening it in "
    "a spreadsheet."
)
ONDE_GARBLED = _(
    "The file's accents are garbled (“%(sample)s”): it was converted from one encoding to "
    "another. Export the list from ONDE again and choose it as it is, without opening it in a "
    "spreadsheet."
)
ONDE_NOT_ONDE = _(
    "This is not an ONDE export: no “Nom élève”, “Prénom élève” and “Libellé classe” "
    "headings in its first lines. In ONDE, export the list of pupils (CSVExtraction.csv)."
)
ONDE_NO_PUPILS = _("The ONDE export has headings but no pupil.")

FIRST_HEADINGS = {"prenomeleve", "prenom", "prenom1"}
LAST_HEADINGS = {"nomeleve", "nom", "nomdefamille", "nomdefamilleeleve"}
USAGE_HEADINGS = {"nomdusageeleve", "nomdusage", "nomusage", "nomusageeleve"}
CLASS_HEADINGS = {"libelleclasse", "classe"}
LEFT_HEADINGS = {"dateradiation", "datederadiation", "datesortie", "datedesortie"}
# UTF-8 read as Windows-1252 and saved again: "é" became "Ã©", "è" "Ã¨", "É" "Ã‰".
_GARBLED = re.compile("[ÃÂ][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192"
                      "\u02c6\u02dc\u2013-\u203a\u20ac\u2122]")  # fmt: skip


def _decode(data: bytes) -> str:
    """Return the file's text (UTF-8, with or without BOM, or Windows-1252), or refuse it."""
    if not data.strip():
        raise ValidationError(CSV_EMPTY, code="empty")
    if len(data) > ONDE_MAX_BYTES:
        raise ValidationError(CSV_TOO_BIG, code="too_big", params={"limit": ONDE_MAX_BYTES // 1024})
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValidationError(ONDE_ENCODING, code="encoding")  # UTF-16
    if b"\x00" in data:
        raise ValidationError(CSV_BINARY, code="binary")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as error:  # bytes Windows-1252 leaves undefined
            raise ValidationError(ONDE_ENCODING, code="encoding") from error
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t\r\n" for ch in text):
        raise ValidationError(ONDE_ENCODING, code="encoding")
    garbled = _GARBLED.search(text)
    if garbled:
        raise ValidationError(
            ONDE_GARBLED, code="garbled", params={"sample": text[garbled.start() : garbled.end()]}
        )
    return text


def _delimiter(line: str) -> str:
    counts = {sep: line.count(sep) for sep in (";", "\t", ",")}
    return max(counts, key=lambda sep: counts[sep])


def _find(keys: list[str], names: set[str]) -> int | None:
    return next((i for i, k in enumerate(keys) if k in names), None)


def _heading_line(lines: list[str]) -> tuple[int, str, list[str]] | None:
    """Return the index, separator and keys of the headings line, if one of the first is."""
    seen = 0
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        seen += 1
        if seen > HEADING_SEARCH_LINES:
            return None
        sep = _delimiter(line)
        keys = [heading_key(cell) for cell in next(csv.reader([line], delimiter=sep))]
        if all(_find(keys, names) is not None for names in (FIRST_HEADINGS, LAST_HEADINGS)) and (
            _find(keys, CLASS_HEADINGS) is not None
        ):
            return index, sep, keys
    return None


def looks_like_onde(data: bytes) -> bool:
    """Tell whether a file's first lines hold ONDE's headings (whatever its encoding)."""
    head = [data[:8192].decode(encoding, errors="replace") for encoding in ("utf-8-sig", "cp1252")]
    # A garbled file's headings are garbled too ("Nom Ã©lÃ¨ve"): mended, they tell it is ONDE,
    # and onde_read then says what happened to its accents.
    head.append(_mended(head[0]))
    return any(_heading_line(text.splitlines()) is not None for text in head)


def _mended(text: str) -> str:
    """Return text whose UTF-8 was read as Windows-1252 as it was, as far as it can be."""
    return text.encode("cp1252", errors="replace").decode("utf-8", errors="replace")


def onde_read(data: bytes) -> SchoolRead:
    """Return the pupils of an ONDE export still at school, or refuse the file."""
    text = _decode(data)
    try:
        return _pupils(text.splitlines())
    except csv.Error as error:
        # The csv module refuses a cell over its field size limit (131,072 characters).
        raise ValidationError(CSV_CELL_TOO_LONG, code="cell_too_long") from error


def _pupils(lines: list[str]) -> SchoolRead:
    found = _heading_line(lines)
    if found is None:
        raise ValidationError(ONDE_NOT_ONDE, code="not_onde")
    index, sep, keys = found
    first, last, classe = (_find(keys, n) for n in (FIRST_HEADINGS, LAST_HEADINGS, CLASS_HEADINGS))
    usage, left_at = _find(keys, USAGE_HEADINGS), _find(keys, LEFT_HEADINGS)
    pupils: list[SchoolPupil] = []
    left = 0
    # A pupil's line reaches the name and class columns; a footer line stops short.
    reach = max(i for i in (first, last, classe) if i is not None) + 1
    for cells in csv.reader(io.StringIO("\n".join(lines[index + 1 :])), delimiter=sep):

        def cell(at: int | None, cells: list[str] = cells) -> str:
            return name_clean(cells[at]) if at is not None and at < len(cells) else ""

        if len(cells) < reach or not cell(first) or [heading_key(c) for c in cells] == keys:
            continue  # an empty line, a footer (short, or no first name), the headings again
        if cell(left_at):
            left += 1
            continue
        if len(pupils) >= SCHOOL_MAX_PUPILS:
            raise ValidationError(
                SCHOOL_TOO_MANY, code="too_many", params={"limit": SCHOOL_MAX_PUPILS}
            )
        pupils.append(
            SchoolPupil(first=cell(first), last=cell(usage) or cell(last), classe=cell(classe))
        )
    if not pupils:
        raise ValidationError(ONDE_NO_PUPILS, code="no_rows")
    return SchoolRead(kind="onde", pupils=pupils, left=left)
