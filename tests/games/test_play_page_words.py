"""The play page carries a singular and a plural text for every count it writes (fr and en)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.games.helpers import make_table

# Count texts the page script picks by count: (singular key, plural key, French singular).
PAIRS = [
    ("cards_one", "cards_other", "1 carte"),
    ("points_one", "points", "1 point"),
    ("take_one", "take", "Prendre 1 carte"),
]


def _strings(page: str) -> dict[str, str]:
    return dict(re.findall(r'<span data-s="(\w+)">([^<]*)</span>', page))


@pytest.fixture
def page(class_a: ClassWorld) -> str:
    table = make_table([class_a.student.user, class_a.other_student.user])
    client = Client()
    client.force_login(class_a.student.user)
    client.cookies["django_language"] = "fr"
    return client.get(reverse("games:play", args=[table.pk])).content.decode()


def test_every_count_text_has_a_singular_and_a_plural(page: str) -> None:
    strings = _strings(page)
    for singular, other, french_one in PAIRS:
        assert singular in strings and other in strings, (singular, other)
        assert strings[singular] != strings[other]
        assert strings[singular].replace("%(count)s", "1").replace("%(score)s", "1") == french_one


def test_the_script_chooses_by_count_for_each_pair() -> None:
    folder = Path(settings.BASE_DIR) / "static" / "js" / "play"
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.js")))
    assert "function plural(" in script
    for singular, other, _french in PAIRS:
        assert re.search(rf"plural\([^;]*S\.{singular}, S\.{other}", script), singular


@pytest.mark.parametrize(
    ("options", "french"),
    [
        ({}, "Le paquet de cette table : Dénominateurs de 2 à 48"),
        ({"deck": "sixths"}, "Le paquet de cette table : Dénominateurs 2, 3 et 6."),
    ],
)
def test_the_help_names_the_deck_of_a_fractions_table(
    class_a: ClassWorld, options: dict[str, str], french: str
) -> None:
    table = make_table([class_a.student.user, class_a.other_student.user], options=options)
    client = Client()
    client.force_login(class_a.student.user)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    match = re.search(r'<li id="play-deck">([^<]*)</li>', page)
    assert match is not None and match.group(1).startswith(french), match


def test_a_classic_table_names_no_deck_level(class_a: ClassWorld) -> None:
    table = make_table([class_a.student.user, None], ruleset="classic")
    client = Client()
    client.force_login(class_a.student.user)
    assert (
        'id="play-deck"' not in client.get(reverse("games:play", args=[table.pk])).content.decode()
    )
