"""A school year in Debian's chromium: a class list imported from a CSV file, then a new year.

The teacher imports a Windows-1252, `;`-separated export ("Nom;Prénom"), checks the preview
(new, unchanged and missing students), confirms with the keyboard only; a binary file is refused
with a translated message and changes nothing; then the class is archived and next year's class
is started from it (the present students, a new class code, new PINs).
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import Server, serious_violations, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A school information system's export: Windows-1252, `;`, last name first. Two Lucas: the
# initial of their last name tells them apart. Léa and Zoé are in the class already; Hugo is
# in the class but not in the file.
EXPORT = (
    "Nom;Prénom;Date de naissance\r\n"
    "Petit;Zoé;03/02/2014\r\n"
    "Durand;Éloïse;12/05/2014\r\n"
    "Moreau;Lucas;01/09/2014\r\n"
    "Martin;Léa;22/11/2014\r\n"
    "Bernard;Lucas;15/01/2014\r\n"
    "Roux;Chloé;30/06/2014\r\n"
)
PRESENT = ["Zoé", "Léa", "Hugo"]
# French order: accents do not send Éloïse after Zoé (code-point order would).
AFTER_IMPORT = ["Chloé", "Éloïse", "Hugo", "Léa", "Lucas B.", "Lucas M.", "Zoé"]
BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\xff\xfe"
NOT_TEXT = {
    "fr": "Ce n’est pas un fichier texte. Exportez la liste depuis votre tableur en CSV.",
    "en": "This is not a text file. Export the list from your spreadsheet as CSV.",
}


def _stored(server: Server, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Read rows of the served database (read-only)."""
    uri = f"file:{server.app.db_path}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=10) as db:
        return list(db.execute(sql, args).fetchall())


def _roster(server: Server, classroom: int) -> list[str]:
    """Return the stored names of a class's present students, sorted (code points)."""
    rows = _stored(
        server,
        "SELECT display_name FROM lessons_student"
        " WHERE classroom_id = ? AND pseudonymised_at IS NULL ORDER BY display_name",
        classroom,
    )
    return [str(row[0]) for row in rows]


def _texts(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


def _roster_on_page(page: Page) -> list[str]:
    return _texts(page, "table.roster tbody th")


def _focus_by_tab(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until the element matching `selector` has the focus (at most `limit` times)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} never got the focus after {limit} Tab presses")


def test_csv_import_preview_then_confirm_by_keyboard(server: Server, browser: Browser) -> None:
    world = server.world(students=PRESENT, table=False)
    classroom = world["classroom"]
    context = signed_in(browser, server, world["teacher_session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/classrooms/{classroom}/")
        page.get_by_role("link", name="Importer une liste de classe").click()
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/import/")
        data = EXPORT.encode("cp1252")
        with pytest.raises(UnicodeDecodeError):
            data.decode("utf-8")  # the file really is Windows-1252, not UTF-8
        page.get_by_label("Liste de la classe (fichier CSV)").set_input_files(
            {"name": "export-siecle.csv", "mimeType": "text/csv", "buffer": data}
        )
        page.get_by_role("button", name="Aperçu").click()

        expect(page.locator("h1")).to_have_text("Vérifiez la liste de la classe")
        expect(page.locator("#new-heading")).to_contain_text("4")
        assert sorted(_texts(page, '[data-list="new"] li')) == sorted(
            ["Éloïse", "Lucas M.", "Lucas B.", "Chloé"]
        )
        assert _texts(page, '[data-list="unchanged"] li') == ["Léa", "Zoé"]
        assert _texts(page, '[data-list="missing"] li') == ["Hugo"]
        assert "Ã" not in page.inner_text("main")  # no UTF-8 read as Latin-1, or the reverse
        assert serious_violations(page) == []
        assert _roster(server, classroom) == sorted(PRESENT)  # the preview changes nothing

        # The keyboard only: Tab to the confirm button, Enter.
        _focus_by_tab(page, "form[action$='/import/confirm/'] button[type=submit]")
        page.keyboard.press("Enter")
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/cards/")
        expect(page.locator(".messages")).to_contain_text("4 élèves ajoutés")

        page.goto(f"{server.url}/classrooms/{classroom}/")
        expect(page.locator("table.roster tbody tr")).to_have_count(len(AFTER_IMPORT))
        assert _roster_on_page(page) == AFTER_IMPORT
        assert _roster(server, classroom) == sorted(AFTER_IMPORT)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_binary_file_is_refused_and_changes_nothing(
    server: Server, browser: Browser, lang: str
) -> None:
    world = server.world(students=PRESENT, table=False)
    classroom = world["classroom"]
    context = signed_in(browser, server, world["teacher_session"], lang=lang)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/classrooms/{classroom}/import/")
        page.locator("input[type=file]").set_input_files(
            {"name": "liste.csv", "mimeType": "text/csv", "buffer": BINARY}
        )
        page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
        expect(page.locator(".field--error [role=alert]")).to_have_text(NOT_TEXT[lang])
        expect(page).to_have_url(f"{server.url}/classrooms/{classroom}/import/")
        assert page.locator("[data-list]").count() == 0  # no preview
        # Nothing pending either: confirming now adds nobody.
        page.goto(f"{server.url}/classrooms/{classroom}/")
        assert _roster_on_page(page) == ["Hugo", "Léa", "Zoé"]
        assert _roster(server, classroom) == sorted(PRESENT)
    finally:
        context.close()


def _pins_on_cards(page: Page) -> dict[str, str]:
    cards = page.locator(".login-card")
    pins: dict[str, str] = {}
    for index in range(cards.count()):
        card = cards.nth(index)
        name = card.locator(".login-card__name").inner_text().strip()
        pin = card.locator("dd.code").nth(1).inner_text().strip()
        pins[name] = pin
    return pins


def test_archive_then_start_a_new_school_year(server: Server, browser: Browser) -> None:
    world = server.world(students=PRESENT, table=False)
    old = world["classroom"]
    old_pins = {s["name"]: s["pin"] for s in world["students"]}
    hugo = next(s["id"] for s in world["students"] if s["name"] == "Hugo")
    context = signed_in(browser, server, world["teacher_session"])
    try:
        page = context.new_page()
        # Hugo left during the year: removed, his plays kept under a pseudonym.
        page.goto(f"{server.url}/students/{hugo}/")
        page.locator("input[name=mode][value=pseudonymise]").check()
        page.locator("form[action$='/remove/'] button[type=submit]").click()
        expect(page).to_have_url(f"{server.url}/classrooms/{old}/")
        assert _roster_on_page(page) == ["Léa", "Zoé"]

        page.goto(f"{server.url}/")
        expect(page.locator(f"a[href='/classrooms/{old}/']")).to_have_count(1)
        page.goto(f"{server.url}/classrooms/{old}/")
        page.get_by_role("button", name="Archiver cette classe").click()
        expect(page).to_have_url(f"{server.url}/classrooms/archived/")
        expect(page.locator(".messages")).to_have_text(
            "La classe est archivée. Ses tableaux de bord restent consultables."
        )
        expect(page.locator(f".tile a[href='/classrooms/{old}/']")).to_have_count(1)
        page.goto(f"{server.url}/")
        expect(page.locator("h1")).to_have_text("Mes classes")
        expect(page.locator(f"a[href='/classrooms/{old}/']")).to_have_count(0)

        # Read-only: the class page offers no roster change; the dashboard still opens.
        page.goto(f"{server.url}/classrooms/{old}/")
        expect(page.locator(".notice[role=status]")).to_contain_text("lecture seule")
        for href in ("roster/", "import/", "cards/"):
            expect(page.locator(f"a[href='/classrooms/{old}/{href}']")).to_have_count(0)
        expect(page.locator("form[action*='/reset-pin/']")).to_have_count(0)
        expect(page.locator(f"form[action='/classrooms/{old}/archive/']")).to_have_count(0)
        assert _roster_on_page(page) == ["Léa", "Zoé"]
        response = page.goto(f"{server.url}/classrooms/{old}/dashboard/")
        assert response is not None and response.status == 200
        page.goto(f"{server.url}/classrooms/{old}/import/")  # refused, back to the class
        expect(page).to_have_url(f"{server.url}/classrooms/{old}/")

        # Next year's class, from the archived list.
        page.goto(f"{server.url}/classrooms/archived/")
        page.get_by_role("link", name="Commencer une nouvelle année scolaire").click()
        expect(page).to_have_url(f"{server.url}/classrooms/{old}/new-year/")
        assert _texts(page, "ul.names li") == ["Léa", "Zoé"]
        page.get_by_role("button", name="Créer la nouvelle classe").click()
        expect(page).to_have_url(re.compile(rf"{re.escape(server.url)}/classrooms/\d+/cards/$"))
        new = int(page.url.rstrip("/").split("/")[-2])
        assert new != old
        new_pins = _pins_on_cards(page)
        assert sorted(new_pins) == ["Léa", "Zoé"]
        assert all(re.fullmatch(r"\d{4}", pin) for pin in new_pins.values()), new_pins
        assert new_pins != {name: old_pins[name] for name in new_pins}
        new_code = page.locator(".login-card dd.code").first.inner_text().strip()
        assert new_code and new_code != world["join_code"]

        # The stored class: the same present students, a new code, the PINs shown are theirs.
        ((code, previous, archived),) = _stored(
            server,
            "SELECT join_code, previous_id, archived_at FROM lessons_classroom WHERE id = ?",
            new,
        )
        assert (code, previous, archived) == (new_code, old, None)
        assert _roster(server, new) == ["Léa", "Zoé"]
        assert _roster(server, old) == ["Léa", "Zoé"]  # the archived class keeps its students
        checks = server.app.script(
            "import json\n"
            "from lessons.classrooms.pins import pin_matches\n"
            "from lessons.models import Student\n"
            f"pins = {json.dumps(new_pins)}\n"
            f"students = Student.objects.filter(classroom_id={new})\n"
            "print(json.dumps({s.display_name: pin_matches(pins[s.display_name], s.pin_hash)"
            " for s in students}))\n"
        )
        assert checks == {"Léa": True, "Zoé": True}

        page.goto(f"{server.url}/")
        expect(page.locator(f"a[href='/classrooms/{new}/']")).to_have_count(1)
        expect(page.locator(f"a[href='/classrooms/{old}/']")).to_have_count(0)
    finally:
        context.close()
