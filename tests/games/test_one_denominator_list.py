"""The denominators a wild card may name have one source, the engine's list for the table's deck
(games.engine.cards.deck_denominators: the sheet's DENOMINATORS cut to the deck level): the play
page carries that list to its script, and no other module writes the sheet's list again."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver
from games.engine.cards import DENOMINATORS, FRACTION_DECK_LEVELS
from tests.games.helpers import FRACTIONS_SETUP, make_table

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "games" / "engine" / "cards.py"
# The list written out: its six numbers in order, whatever the brackets and spaces around them.
WRITTEN = re.compile(r"\b" + r"\s*,\s*".join(str(d) for d in DENOMINATORS) + r"\b")


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


# What each deck level's chooser offers (issue 30 §1.2): only the denominators its cards have.
LEVEL_CHOICES = {
    "sixths": [2, 3, 6],
    "twelfths": [2, 3, 6, 12],
    "improper": [2, 3, 6, 12],
    "full": list(DENOMINATORS),
}


def _page_denominators(user: Any, table: Any) -> Any:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    found = re.search(r'id="play-denominators"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_play_page_carries_the_engines_denominators(class_a: Any) -> None:
    table = make_table([class_a.student.user, None], setup=FRACTIONS_SETUP)
    assert _page_denominators(class_a.student.user, table) == list(DENOMINATORS)


@pytest.mark.django_db
@pytest.mark.parametrize("level", FRACTION_DECK_LEVELS)
def test_the_play_page_offers_only_the_decks_denominators(class_a: Any, level: str) -> None:
    table = make_table([class_a.student.user, None], options={"deck": level})
    assert _page_denominators(class_a.student.user, table) == LEVEL_CHOICES[level]


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
