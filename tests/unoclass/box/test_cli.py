"""The `unoclass` command's refusals: clear, in the terminal's language, and nothing started."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.live import BASE_DIR
from unoclass.box import cli_words
from unoclass.box.cli import main
from unoclass.box.serving_lock import serving_lock


@pytest.fixture(autouse=True)
def _terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # main() sets LANGUAGE (argparse's gettext) and UNOCLASS_DATA: set first, so monkeypatch
    # removes them again after the test.
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "UNOCLASS_DATA"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    yield


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_the_terminal_s_language_is_english_only_when_it_says_english() -> None:
    assert cli_words.terminal_language({"LANG": "en_GB.UTF-8"}) == "en"
    assert cli_words.terminal_language({"LANGUAGE": "fr:en", "LANG": "en_US.UTF-8"}) == "fr"
    assert cli_words.terminal_language({"LANG": "de_DE.UTF-8"}) == "fr"
    assert cli_words.terminal_language({"LANG": "C.UTF-8"}) == "fr"
    assert cli_words.terminal_language({}) == "fr"


@pytest.mark.parametrize(
    ("argv", "french", "english"),
    [
        (["serve", "--port", "huit"], "huit n’est pas un port", "huit is not a port"),
        (["serve", "--port", "70000"], "70000 n’est pas un port", "70000 is not a port"),
        (["backup", "--keep-days", "0"], "n’est pas un nombre de jours", "is not a number of days"),
        (["restore"], "ces arguments sont obligatoires", "the following arguments are required"),
        (["serve", "--lann"], "arguments inconnus", "unrecognized arguments"),
        (["serve", "--bind", "192.168.1.20"], "--bind va avec --lan", "--bind goes with --lan"),
        (
            ["serve", "--lan", "--bind", "salle-12"],
            "salle-12 n’est pas une adresse IPv4",
            "salle-12 is not an IPv4 address",
        ),
    ],
)
def test_bad_arguments_are_said_in_the_terminal_s_language(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    french: str,
    english: str,
) -> None:
    status, said = _run(capsys, "--data", str(tmp_path), *argv)
    assert status == 2 and french in said and "Traceback" not in said
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    status, said = _run(capsys, "--data", str(tmp_path), *argv)
    assert status == 2 and english in said


def test_a_second_serve_on_the_same_data_folder_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with serving_lock(tmp_path):
        status, said = _run(capsys, "--data", str(tmp_path), "serve", "--port", "0")
    assert status == 1 and "Un autre unoclass serve utilise déjà" in said
    assert not (tmp_path / "unoclass.sqlite3").exists()


def test_a_port_in_use_is_said_with_the_way_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, said = _run(capsys, "--data", str(tmp_path), "serve", "--port", str(port))
    assert status == 1 and f"Impossible d’écouter sur le port {port}" in said and "--port" in said
    assert not (tmp_path / "unoclass.sqlite3").exists()


def _command(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["LANG"] = "fr_FR.UTF-8"
    return subprocess.run(
        [sys.executable, "-m", "unoclass", *argv],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )


def test_restore_of_a_file_that_is_no_backup_says_so_and_keeps_the_data(tmp_path: Path) -> None:
    given = tmp_path / "photo.jpg"
    given.write_bytes(b"\xff\xd8 not a database")
    done = _command("--data", str(tmp_path / "data"), "restore", str(given))
    assert done.returncode == 1
    assert "n’est pas une sauvegarde d’unoclass" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "unoclass.sqlite3").exists()


def test_check_says_the_box_s_state_in_plain_words(tmp_path: Path) -> None:
    done = _command("--data", str(tmp_path), "check")
    assert done.returncode == 0, done.stderr
    # The plain-http warnings once, as a fact of a classroom; no setting's name.
    assert "Normal pour une classe" in done.stdout
    assert "SECURE_" not in done.stdout and "security.W" not in done.stdout
    assert "Pas encore de sauvegarde" in done.stdout
    assert "Rien de grave." in done.stdout
