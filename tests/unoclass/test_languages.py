"""French and English: every page in both languages, complete catalogs, no stray literal text."""

from __future__ import annotations

import gettext
import io
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.support.responses import page_text

LOCALE = Path(settings.BASE_DIR) / "locale"
TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _classroom(a: ClassWorld) -> list[Any]:
    return [a.classroom.pk]


# (url name, who asks, reverse args, a string in English, the same string in French)
PAGES: list[tuple[str, str, Callable[[ClassWorld], list[Any]], str, str]] = [
    ("home", "anonymous", lambda a: [], "I am a student", "Je suis élève"),
    ("home", "teacher", lambda a: [], "New class", "Nouvelle classe"),
    ("home", "student", lambda a: [], "Practice", "Entraînement"),
    ("signup", "anonymous", lambda a: [], "Create my account", "Créer mon compte"),
    ("login", "anonymous", lambda a: [], "No account yet?", "Pas encore de compte ?"),
    ("password_change", "teacher", lambda a: [], "Change my password", "Changer mon mot de passe"),
    (
        "password_change_done",
        "teacher",
        lambda a: [],
        "Your new password is active.",
        "Votre nouveau mot de passe est actif.",
    ),
    ("classroom_create", "teacher", lambda a: [], "Create the class", "Créer la classe"),
    ("classroom_detail", "teacher", _classroom, "Add students", "Ajouter des élèves"),
    ("classroom_roster", "teacher", _classroom, "Add these students", "Ajouter ces élèves"),
    ("classroom_cards", "teacher", _classroom, "Hide the PINs", "Masquer les codes"),
    ("join", "anonymous", lambda a: [], "Join my class", "Rejoindre ma classe"),
    (
        "join_name",
        "anonymous",
        lambda a: [a.classroom.join_code],
        "Pick your name",
        "Choisis ton prénom",
    ),
    (
        "join_pin",
        "anonymous",
        lambda a: [a.classroom.join_code, a.student.student.pk],
        "Type the 4 digits on your login card.",
        "Tape les 4 chiffres écrits sur ta carte de connexion.",
    ),
]


def _client(who: str, world: ClassWorld) -> Client:
    client = Client()
    if who == "teacher":
        client.force_login(world.teacher)
    elif who == "student":
        client.force_login(world.student.user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "who", "args", "english", "french"), PAGES, ids=[f"{p[0]}-{p[1]}" for p in PAGES]
)
def test_language_switcher_translates_every_page(
    class_a: ClassWorld,
    name: str,
    who: str,
    args: Callable[[ClassWorld], list[Any]],
    english: str,
    french: str,
) -> None:
    client = _client(who, class_a)
    url = reverse(name, args=args(class_a))
    for language, expected, absent in [("en", english, french), ("fr", french, english)]:
        response = client.post(
            reverse("set_language"), {"language": language, "next": url}, follow=True
        )
        assert response.status_code == 200
        assert response.redirect_chain[-1][0] == url
        text = page_text(response)
        assert f'<html lang="{language}">' in text
        assert expected in text
        assert absent not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"), [("en", "Page not found"), ("fr", "Page introuvable")]
)
def test_error_pages_are_translated(language: str, expected: str, class_a: ClassWorld) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert expected in page_text(client.get("/no-such-page/"))
    client.force_login(class_a.student.user)
    denied = client.get(reverse("classroom_create"))
    assert denied.status_code == 403
    assert {"en": "Access denied", "fr": "Accès refusé"}[language] in page_text(denied)


def test_french_catalog_is_complete_and_placeholders_match() -> None:
    catalog = polib.pofile(str(LOCALE / "fr" / "LC_MESSAGES" / "django.po"))
    assert catalog.percent_translated() == 100
    assert not catalog.fuzzy_entries()
    placeholder = re.compile(r"%\(\w+\)[sd]")
    for entry in catalog:
        # French has English's two forms (one for 0 and 1, one beyond): the first follows the
        # msgid, the second msgid_plural; a singular may leave its count out ("the last one").
        pairs = (
            [(entry.msgstr_plural[0], entry.msgid), (entry.msgstr_plural[1], entry.msgid_plural)]
            if entry.msgid_plural
            else [(entry.msgstr, entry.msgid)]
        )
        for text, source in pairs:
            assert sorted(set(placeholder.findall(text))) == sorted(
                set(placeholder.findall(source))
            ), entry.msgid


def test_english_catalog_lists_the_same_source_strings() -> None:
    french = {e.msgid for e in polib.pofile(str(LOCALE / "fr" / "LC_MESSAGES" / "django.po"))}
    english = {e.msgid for e in polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po"))}
    assert french == english


def test_compiletranslations_builds_mo_files_that_gettext_reads(tmp_path: Path) -> None:
    shutil.copytree(LOCALE, tmp_path / "locale")
    for mo in (tmp_path / "locale").rglob("*.mo"):
        mo.unlink()
    call_command("compiletranslations", locale_dir=tmp_path / "locale", stdout=io.StringIO())
    french = gettext.translation("django", tmp_path / "locale", languages=["fr"])
    assert french.gettext("Join my class") == "Rejoindre ma classe"
    assert (
        french.ngettext(
            "Wrong PIN. %(left)d try left before a 5-minute pause.",
            "Wrong PIN. %(left)d tries left before a 5-minute pause.",
            2,
        )
        == "Code faux. Encore %(left)d essais avant une pause de 5 minutes."
    )
    assert (tmp_path / "locale" / "en" / "LC_MESSAGES" / "django.mo").exists()


def test_compiletranslations_fails_clearly_without_catalogs(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No .po file"):
        call_command("compiletranslations", locale_dir=tmp_path)


# Words that are the same in every language (the product's name).
UNTRANSLATED_ALLOWED = {"unoclass"}


def _literal_text(source: str) -> list[str]:
    source = re.sub(r"{%\s*blocktranslate.*?endblocktranslate\s*%}", " ", source, flags=re.S)
    # CSS class names given through blocks are not text.
    source = re.sub(r"{%\s*block \w+_class\s*%}.*?{%\s*endblock\s*%}", " ", source)
    source = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", " ", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", " ", source, flags=re.S)
    source = re.sub(r"<[^>]*>", " ", source, flags=re.S)
    words = re.findall(r"[^\W\d_]{2,}", source)
    return [w for w in words if w not in UNTRANSLATED_ALLOWED]


@pytest.mark.parametrize(
    "template",
    sorted(
        p
        for p in TEMPLATES.rglob("*.html")
        if "games" not in p.relative_to(TEMPLATES).parts and p.name != "500.html"
    ),
    ids=lambda p: str(p.relative_to(TEMPLATES)),
)
def test_templates_have_no_literal_text_outside_translate_tags(template: Path) -> None:
    assert _literal_text(template.read_text()) == []


def test_compiletranslations_never_touches_installed_packages() -> None:
    from lessons.management.commands.compiletranslations import _project_locale_dirs

    base = Path(settings.BASE_DIR).resolve()
    for directory in _project_locale_dirs():
        relative = directory.resolve().relative_to(base)
        assert not relative.parts[0].startswith(".")
        assert "site-packages" not in relative.parts
