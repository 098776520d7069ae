"""The wheel, installed outside the checkout, serves a class over the "Wi-Fi" (issue 34).

`make dist`'s build (sdist, then the wheel from it) is installed into a fresh virtual
environment of a temporary folder; `unoclass serve --lan` listens on 127.0.0.2, another host's
address as far as the app knows (ALLOWED_HOSTS and the trusted origins come from it). The first
teacher signs up through the printed set-up link, the QR code on their home decodes (Debian's
zbarimg) to the printed pupils' address, a pupil joins the demo class in chromium through that
address, and `backup` then `restore` give the same class back.

About 1-2 minutes (the install): it runs only with UNOCLASS_WHEEL_TEST=1, as `make test-wheel`
(docs/testing.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import launched_chromium, package_playwright
from tests.support.box import BoxServe, build_wheel, installed, unoclass
from tests.support.live import BASE_DIR

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("UNOCLASS_WHEEL_TEST") != "1",
        reason="builds and installs the wheel (1-2 min): make test-wheel",
    ),
    pytest.mark.slow,
    pytest.mark.browser,
    # Set-up included: the build and the install from the package index take most of it.
    pytest.mark.timeout(900),
]
ADDRESS = "127.0.0.2"
PASSWORD = "une-phrase-de-passe-longue-42"
CLASS_AS_JSON = """
import json
from lessons.models import Classroom
print(json.dumps([
    [room.name, room.join_code, sorted(s.display_name for s in room.students.all())]
    for room in Classroom.objects.order_by("pk")
]))
"""


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    assert not root.resolve().is_relative_to(BASE_DIR)
    return installed(build_wheel(root / "dist"), root / "venv")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with package_playwright() as driver, launched_chromium(driver) as launched:
        yield launched


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _classes(bin_dir: Path, data: Path) -> list[list[object]]:
    out = _ok(unoclass(bin_dir, data, "shell", "-c", CLASS_AS_JSON))
    return list(json.loads(out.strip().splitlines()[-1]))


def _decoded(png: Path) -> str:
    done = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_installed_wheel_serves_a_class_on_the_lan(
    bin_dir: Path, browser: Browser, tmp_path: Path
) -> None:
    # The command runs the installed copy, with its own templates and translations.
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import unoclass.share as s; print(s.SHARE_DIR)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert "site-packages" in where and not Path(where).is_relative_to(BASE_DIR)
    data = tmp_path / "donnees"

    with BoxServe(bin_dir, data, "--lan", "--bind", ADDRESS, "--port", "0") as served:
        said = served.output()
        assert "Les élèves du même Wi-Fi peuvent maintenant rejoindre unoclass" in said
        pupil_url = served.pupil_url()
        assert pupil_url.startswith(f"http://{ADDRESS}:")
        link = served.setup_link()
        assert link is not None and link.startswith(f"http://{ADDRESS}:")
        # Nothing listens on the ordinary loopback address: only the address served.
        assert f"http://{ADDRESS}:" in served.teacher_url

        teacher = browser.new_context(locale="fr-FR").new_page()
        teacher.goto(link)
        teacher.fill("#id_username", "mme-martin")
        teacher.fill("#id_password1", PASSWORD)
        teacher.fill("#id_password2", PASSWORD)
        teacher.get_by_role("button", name="Créer mon compte").click()
        expect(teacher.get_by_role("heading", name="Nouvelle classe")).to_be_visible()
        teacher.goto(served.teacher_url)
        code = teacher.locator("#pupil-qr")
        expect(code).to_be_visible()
        expect(teacher.locator("#pupil-address")).to_contain_text(pupil_url)
        code.screenshot(path=str(tmp_path / "qr.png"))
        assert _decoded(tmp_path / "qr.png") == pupil_url
        # The set-up link works once.
        again = browser.new_context().new_page()
        denied = again.goto(link)
        assert denied is not None and denied.status == 403
        # A page that reads a data file of the package (the accessibility verdicts) serves.
        statement = again.goto(served.teacher_url + "accessibility/")
        assert statement is not None and statement.status == 200

        # Django's commands under `unoclass`, beside the running server.
        demo = _ok(unoclass(bin_dir, data, "demo"))
        join_code = re.search(r"join code: (\w+)", demo).group(1)  # type: ignore[union-attr]
        name, pin = re.search(r"^  (\S+) +(\d{4})$", demo, re.M).groups()  # type: ignore[union-attr]

        pupil = browser.new_context(locale="fr-FR").new_page()
        pupil.goto(pupil_url)
        pupil.fill("#id_code", join_code)
        pupil.get_by_role("button", name="Suivant").click()
        pupil.get_by_role("link", name=name, exact=True).click()
        pupil.fill("#id_pin", pin)
        pupil.get_by_role("button", name="Se connecter").click()
        expect(pupil.locator("body")).to_contain_text(name)
        assert pupil.url.startswith(f"http://{ADDRESS}:")
        assert "/join/" not in pupil.url

        backup = _ok(unoclass(bin_dir, data, "backup", "--keep-days", "3"))
        assert "Sauvegarde écrite" in backup
        refused = unoclass(bin_dir, data, "restore", str(next((data / "backups").iterdir())))
        assert refused.returncode == 1 and "Arrêtez d’abord unoclass serve" in refused.stderr

    before = _classes(bin_dir, data)
    assert [row[:2] for row in before] == [["CM2 Les Tilleuls", join_code]]
    (copy,) = (data / "backups").glob("unoclass-*.sqlite3")
    # The class is lost (a new school year wiped too much, a disk replaced...).
    for leftover in data.glob("unoclass.sqlite3*"):
        leftover.unlink()
    _ok(unoclass(bin_dir, data, "migrate"))
    assert _classes(bin_dir, data) == []
    restored = _ok(unoclass(bin_dir, data, "restore", str(copy)))
    assert "Restauré depuis" in restored
    assert _classes(bin_dir, data) == before
    # The restored class serves again: its pupils are listed behind its code.
    with BoxServe(bin_dir, data, "--port", "0") as again_served:
        pupil = browser.new_context(locale="fr-FR").new_page()
        pupil.goto(f"{again_served.teacher_url}join/{join_code}/")
        expect(pupil.get_by_role("link", name=name, exact=True)).to_be_visible()
