"""The one CSV writer of the app: every export's cells, defused against spreadsheet formulas.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or a
line break before one) as a formula: a pupil named `=HYPERLINK("https://…","Voir")` becomes a
link in the teacher's sheet, `@SUM(…)` a computation, and worse with DDE. Every cell that
starts so is written with a leading `'`, which every spreadsheet shows as text (OWASP's "CSV
injection" advice); the rest of the text is kept as it is.

A plain number is data, not a formula: `-1`, `-0.5` or the French `-0,5` (a sign, digits, one
decimal mark, nothing else) stay as they are, so that the teacher's spreadsheet still reads
them as numbers. Anything more (`-1+2`, `-2/3`, `+33 6…`, `-1e5`) is text with a quote.

The class's exports (lessons.reporting.exports) and the pupil's own (lessons.school
.student_export) write through here; tests/lessons/test_csv_writer.py fails if another module
writes CSV itself.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator
from typing import Final

# What a spreadsheet may take for the start of a formula.
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "\n")
# A number a spreadsheet reads as a number (see the module): never defused.
_PLAIN_NUMBER: Final = re.compile(r"-?\d+(?:[.,]\d+)?")


def defused(value: object) -> str:
    """Return a cell's text as a spreadsheet should show it: never a formula (None: empty)."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return f"'{text}"
    return text


class _Echo:
    """A file-like object whose write() returns the line, for streaming CSV."""

    def write(self, value: str) -> str:
        return value


def csv_lines(rows: Iterable[Iterable[object]], *, delimiter: str = ",") -> Iterator[str]:
    """Yield each row as one CSV line (with its line end), every cell defused."""
    writer = csv.writer(_Echo(), delimiter=delimiter)
    for row in rows:
        yield writer.writerow([defused(value) for value in row])


def csv_text(rows: Iterable[Iterable[object]], *, delimiter: str = ",") -> str:
    """Return the rows as one CSV text (see csv_lines)."""
    return "".join(csv_lines(rows, delimiter=delimiter))
