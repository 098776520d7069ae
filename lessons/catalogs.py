"""Compile a .po catalogue to .mo with polib, French typography applied (no Django).

`manage.py compiletranslations` and the wheel's build (setup.py) both compile through here, so
an installed wheel carries the same .mo files as a checkout.
"""

from __future__ import annotations

from pathlib import Path

import polib

from lessons.typography import french_typography


def _french_typography(catalog: polib.POFile) -> None:
    """Give every French translation its narrow no-break spaces and apostrophes."""
    for entry in catalog:
        entry.msgstr = french_typography(entry.msgstr)
        for index, text in entry.msgstr_plural.items():
            entry.msgstr_plural[index] = french_typography(text)


def compile_catalog(po_path: Path, mo_path: Path | None = None) -> tuple[Path, int, int]:
    """Write the .mo of `po_path` (beside it unless `mo_path`); return it and the counts.

    The counts are the translated and untranslated entries. A French catalogue (locale/fr/)
    gets French typography. Raises OSError or ValueError for a file polib cannot read.
    """
    catalog = polib.pofile(str(po_path))
    if po_path.parent.parent.name == "fr":
        _french_typography(catalog)
    target = mo_path or po_path.with_suffix(".mo")
    catalog.save_as_mofile(str(target))
    return target, len(catalog.translated_entries()), len(catalog.untranslated_entries())
