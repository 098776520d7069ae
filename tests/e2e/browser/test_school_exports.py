"""The school's own exports in Debian's chromium, through the real upload form.

An ONDE CSVExtraction.csv of a whole école (8 classes, Windows-1252, `;`, " Cycle" with its
leading space, homonyms, a pupil who left, a footer): the teacher picks CM1 A among the 8
classes (each shown with its count), checks the preview, confirms; the class then has its
pupils as first name + initial, and no text column of any table of the served database holds
an INE, a date of birth or a last name of the file. A SIECLE ExportXML_ElevesSansAdresses.zip
goes the same way; a garbled file is refused in French and changes nothing.
"""

from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.support.school_exports import (
    CLASS_COUNTS,
    CLASS_ORDER,
    CM1_A_NAMES,
    COLLEGE,
    SCHOOL,
    onde_csv,
    siecle_zip,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PRESENT = ["Hugo", "Léa"]
FILE_LABEL = "Liste de la classe (fichier CSV)"
NNBSP = "\u202f"


def _connect(server: Server) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{server.app.db_path}?mode=ro", uri=True, timeout=10)


def _roster(server: Server, classroom: int) -> list[str]:
    with _connect(server) as db:
        rows = db.execute(
            "SELECT display_name FROM lessons_student WHERE classroom_id = ? ORDER BY display_name",
            (classroom,),
        ).fetchall()
    return [str(row[0]) for row in rows]


def _stored_anywhere(server: Server, needles: list[str]) -> dict[str, list[str]]:
    """Return, for each needle found, the 'table.column' of the served database holding it."""
    found: dict[str, list[str]] = {}
    with _connect(server) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
            for column in columns:
                values = db.execute(f'SELECT "{column}" FROM "{table}"').fetchall()
                texts = [v[0] for v in values if isinstance(v[0], str | bytes)]
                for needle in needles:
                    if any(
                        needle in (t if isinstance(t, str) else t.decode("utf-8", "replace"))
                        for t in texts
                    ):
                        found.setdefault(needle, []).append(f"{table}.{column}")
    return found


def _texts(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


def _choose(page: Page, server: Server, classroom: int, name: str, data: bytes) -> None:
    page.goto(f"{server.url}/classrooms/{classroom}/import/")
    page.get_by_label(FILE_LABEL).set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data}
    )
    page.get_by_role("button", name="Aperçu").click()


def test_onde_pick_one_class_of_eight_preview_confirm(server: Server, browser: Browser) -> None:
    world = server.world(students=PRESENT, table=False)
    classroom = world["classroom"]
    context = signed_in(browser, server, world["teacher_session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/classrooms/{classroom}/import/")
        assert serious_violations(page) == []
        data = onde_csv()
        with pytest.raises(UnicodeDecodeError):
            data.decode("utf-8")  # the file really is Windows-1252
        _choose(page, server, classroom, "CSVExtraction.csv", data)

        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/import/classes/")
        expect(page.locator("h1")).to_have_text("Choisissez les classes à importer")
        expect(page.locator("main")).to_contain_text(
            "L’export ONDE compte 26 élèves dans 8 classes."
        )
        expect(page.locator("[data-left]")).to_have_text(
            "1 élève parti de l’école n’est pas listé."
        )
        boxes = page.locator("input[type=checkbox][name=classes]")
        expect(boxes).to_have_count(8)
        labels = _texts(page, "fieldset.field--choices .field__check label")
        assert labels == [f"{label} ({CLASS_COUNTS[label]} élèves)" for label in CLASS_ORDER]
        assert serious_violations(page) == []
        assert _roster(server, classroom) == sorted(PRESENT)  # nothing added yet

        page.get_by_label("CM1 A (4 élèves)").check()
        page.get_by_role("button", name="Aperçu").click()
        expect(page.locator("h1")).to_have_text("Vérifiez la liste de la classe")
        assert _texts(page, '[data-list="new"] li') == CM1_A_NAMES
        assert _texts(page, '[data-list="missing"] li') == ["Hugo", "Léa"]
        assert "Ã" not in page.inner_text("main")
        assert _roster(server, classroom) == sorted(PRESENT)

        page.get_by_role("button", name="Ajouter les nouveaux élèves").click()
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/cards/")
        expect(page.locator(".messages")).to_contain_text("4 élèves ajoutés")
        assert _roster(server, classroom) == sorted(PRESENT + CM1_A_NAMES)

        # The search sees what is stored (a name of the file), then finds none of the rest.
        assert _stored_anywhere(server, ["Lucas Ma."]) == {
            "Lucas Ma.": ["lessons_student.display_name"]
        }
        secrets = [p.ine for p in SCHOOL] + [p.born for p in SCHOOL]
        secrets += ["MARTIN", "MOREAU", "DUPONT", "GIRARD", "PETITJEAN", "Jules", "Noah"]
        assert _stored_anywhere(server, secrets) == {}
    finally:
        context.close()


def test_siecle_zip_pick_a_division(server: Server, browser: Browser) -> None:
    world = server.world(students=PRESENT, table=False)
    classroom = world["classroom"]
    context = signed_in(browser, server, world["teacher_session"], lang="en")
    try:
        page = context.new_page()
        page.goto(f"{server.url}/classrooms/{classroom}/import/")
        page.get_by_label("Class list (CSV file)").set_input_files(
            {
                "name": "ExportXML_ElevesSansAdresses.zip",
                "mimeType": "application/zip",
                "buffer": siecle_zip(),
            }  # fmt: skip
        )
        page.get_by_role("button", name="Preview").click()
        expect(page.locator("h1")).to_have_text("Choose the classes to import")
        expect(page.locator("main")).to_contain_text(
            "The SIECLE export lists 6 pupils in 3 classes."
        )
        page.get_by_label("6B (3 pupils)").check()
        page.get_by_role("button", name="Preview").click()
        assert _texts(page, '[data-list="new"] li') == ["Lina R.", "Éloïse R.", "Ethan R."]
        page.get_by_role("button", name="Add the new students").click()
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/cards/")
        assert _roster(server, classroom) == sorted([*PRESENT, "Lina R.", "Éloïse R.", "Ethan R."])
        secrets = [p.ine for p in COLLEGE] + [p.born for p in COLLEGE] + ["RICHARD", "ROBERT"]
        assert _stored_anywhere(server, secrets) == {}
    finally:
        context.close()


def test_a_garbled_onde_file_is_refused_in_french(server: Server, browser: Browser) -> None:
    world = server.world(students=PRESENT, table=False)
    classroom = world["classroom"]
    context = signed_in(browser, server, world["teacher_session"])
    try:
        page = context.new_page()
        # Opened in a spreadsheet as Windows-1252 and saved as UTF-8: "é" became "Ã©".
        garbled = onde_csv(encoding="utf-8").decode("cp1252").encode("utf-8")
        _choose(page, server, classroom, "CSVExtraction.csv", garbled)
        expect(page.locator(".field--error [role=alert]")).to_have_text(
            f"Les accents du fichier sont abîmés («{NNBSP}Ã©{NNBSP}»){NNBSP}: il a été converti "
            "d’un encodage à un autre. Exportez de nouveau la liste depuis ONDE et choisissez le "
            "fichier tel quel, sans l’ouvrir dans un tableur."
        )
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/import/")
        assert _roster(server, classroom) == sorted(PRESENT)
    finally:
        context.close()
