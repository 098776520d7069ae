"""The denominators a wild card may name have one source, the engine's DENOMINATORS: the play page
carries that list to its script, and no other module writes the list again."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import driver
from games.engine.cards import DENOMINATORS
from tests.games.helpers import FRACTIONS_SETUP, make_table

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "games" / "engine" / "cards.py"
# The list written out: its six numbers in order, whatever the brackets and spaces around them.
WRITTEN = re.compile(r"\b" + r"\s*,\s*".join(str(d) for d in DENOMINATORS) + r"\b")


@pytest.fixture(autouse=True)
def _slow_bots(settings):  # type: ignore[no-untyped-def]
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


@pytest.mark.django_db
def test_the_play_page_carries_the_engines_denominators(class_a: Any) -> None:
    table = make_table([class_a.student.user, None], setup=FRACTIONS_SETUP)
    client = Client()
    client.force_login(class_a.student.user)
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    found = re.search(r'id="play-denominators"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    assert json.loads(found.group(1)) == list(DENOMINATORS)


def test_the_play_script_reads_the_list_from_the_page() -> None:
    script = (ROOT / "static" / "js" / "play" / "page.js").read_text(encoding="utf-8")
    assert 'getElementById("play-denominators")' in script


def test_no_other_module_writes_the_list_again() -> None:
    assert WRITTEN.search(SOURCE.read_text(encoding="utf-8"))  # the pattern finds the source
    copies = [
        str(path.relative_to(ROOT))
        for folder in ("games", "lessons", "static/js", "templates", "unoclass")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in {".py", ".js", ".html"}
        and path != SOURCE
        and WRITTEN.search(path.read_text(encoding="utf-8"))
    ]
    assert copies == []
