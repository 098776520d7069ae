"""The accessibility statement says what the play table's browser tests check (issue 30).

Each claim of its "What is tested" list about the game table names the browser test that
backs it: the claim must be on the page in French and in English, and the test must exist
(a test removed or renamed makes the statement's claim unbacked, and this test fail).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.responses import page_text

BROWSER = Path(__file__).resolve().parents[2] / "e2e" / "browser"
# (French words of the claim, English words, the file and the test that checks it)
CLAIMS = [
    (
        "sur un écran de téléphone, de tablette et de tableau blanc, au tour du joueur, au tour"
        " d’un autre et en fin de partie",
        "on a phone, a tablet and a whiteboard screen, on the player's turn, on another's turn"
        " and at the end of the game",
        "test_play_layouts.py",
        ["test_my_turn_at_each_size", "test_another_turn_and_game_over_at_each_size"],
    ),
    (
        "Chaque carte d’une main de 15 est une cible d’au moins 24 pixels sur 24",
        "Every card of a hand of 15 is a target of at least 24 by 24 pixels",
        "test_play_layouts.py",
        ["test_my_turn_at_each_size"],
    ),
    (
        "Rien ne bouge quand l’appareil demande moins d’animations",
        "Nothing moves when the device asks for reduced motion",
        "test_play_motion_sound.py",
        ["test_a_played_card_flies_only_when_motion_is_allowed"],
    ),
    (
        "l’enseignant peut couper le son d’une séance",
        "the teacher can mute a session",
        "test_play_motion_sound.py",
        ["test_a_muted_session_never_sounds"],
    ),
    (
        "Une partie entière est jouée au clavier seul",
        "A whole game is played with the keyboard only",
        "test_play.py",
        ["test_four_students_play_uno_fractions_to_the_end"],
    ),
    (
        "Une partie entière est aussi jouée au toucher seul sur un téléphone",
        "A whole game is also played by taps alone on a phone",
        "test_play_by_taps.py",
        ["test_a_whole_game_by_taps_alone"],
    ),
    (
        "en français et en anglais, avec et sans réduction des animations",
        "in French and in English, and with and without reduced motion",
        "test_play_layouts.py",
        ["test_my_turn_at_each_size", "test_another_turn_and_game_over_at_each_size"],
    ),
]


def _statement(language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("accessibility"))
    assert response.status_code == 200
    return " ".join(page_text(response).split())


def _tests_in(name: str) -> set[str]:
    tree = ast.parse((BROWSER / name).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.django_db
def test_each_claim_about_the_table_is_said_and_backed_by_its_browser_test() -> None:
    french, english = _statement("fr"), _statement("en")
    for fr, en, name, tests in CLAIMS:
        assert fr in french, fr
        assert en in english, en
        missing = set(tests) - _tests_in(name)
        assert not missing, (name, missing)
