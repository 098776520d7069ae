"""docs/data-protection.md gives the code's own default periods and the pages' real addresses.

The served pages read their figures from the settings (tests/lessons/notices/test_notices.py);
the document a school's officer reads before installing is checked here against the same code,
so that a changed default cannot leave it saying another figure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import global_settings, settings
from django.urls import reverse

from lessons.classrooms.login_limit import FAILURE_WINDOW_SECONDS
from lessons.classrooms.sign_in_limit import COOKIE_SECONDS
from lessons.ent.states import STATE_SECONDS
from lessons.evidence.loading import STATUS_CACHE_SECONDS
from lessons.home.landing import STUDENT_DEVICE_SECONDS
from lessons.models import ENT_SEEN_RETENTION_DAYS
from lessons.printing.printing import CACHE_SECONDS
from unoclass import settings as defaults

DOC = Path(settings.BASE_DIR) / "docs" / "data-protection.md"
DAY, HOUR = 24 * 3600, 3600
MONTHS_FR = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
             "septembre", "octobre", "novembre", "décembre"]  # fmt: skip
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]  # fmt: skip


def _halves() -> tuple[str, str]:
    text = DOC.read_text(encoding="utf-8")
    french, english = text.split("# Data protection and accessibility (English)")
    return french, english


def test_the_document_is_french_first_then_english() -> None:
    french, english = _halves()
    assert "Fiche de registre des traitements (RGPD, article 30)" in french
    assert "Record of processing (GDPR article 30)" in english
    for title in (
        "Clause pour un hébergeur",
        "Fiche des flux de données",
        "Notice pour les élèves",
    ):
        assert title in french
    assert "« tu »" in french and "Tu peux demander" in french


@pytest.mark.parametrize(
    ("french", "english"),
    [
        (
            f"**{defaults.PUPIL_DATA_RETENTION_MONTHS} mois**",
            f"**{defaults.PUPIL_DATA_RETENTION_MONTHS} months**",
        ),
        (
            f"**{global_settings.SESSION_COOKIE_AGE // DAY} jours**",
            f"**{global_settings.SESSION_COOKIE_AGE // DAY} days**",
        ),
        (
            f"**{FAILURE_WINDOW_SECONDS // HOUR} heures**",
            f"**{FAILURE_WINDOW_SECONDS // HOUR} hours**",
        ),
        (f"**{ENT_SEEN_RETENTION_DAYS} jours**", f"**{ENT_SEEN_RETENTION_DAYS} days**"),
        (f"**{CACHE_SECONDS // DAY} jours**", f"**{CACHE_SECONDS // DAY} days**"),
        (f"| {COOKIE_SECONDS // DAY} jours |", f"(browser, {COOKIE_SECONDS // DAY} days)"),
        (
            f"| {STUDENT_DEVICE_SECONDS // DAY} jours |",
            f"(browser, {STUDENT_DEVICE_SECONDS // DAY} days)",
        ),
        (
            f"jeton : {global_settings.CSRF_COOKIE_AGE // DAY} jours",
            f"token {global_settings.CSRF_COOKIE_AGE // DAY} days",
        ),
        (
            f"| {STATUS_CACHE_SECONDS // HOUR} heures |",
            f"(cache, {STATUS_CACHE_SECONDS // HOUR} hours)",
        ),
        (f"| {STATE_SECONDS // 60} minutes au plus |", f"(session, {STATE_SECONDS // 60} minutes)"),
    ],
)
def test_the_document_gives_the_code_s_default(french: str, english: str) -> None:
    french_half, english_half = _halves()
    assert french in french_half
    assert english in english_half


def test_the_document_gives_the_school_year_end() -> None:
    month, day = (int(part) for part in str(defaults.SCHOOL_YEAR_END).split("-"))
    french, english = _halves()
    assert f"**{day} {MONTHS_FR[month - 1]}**" in french
    assert f"**{day} {MONTHS_EN[month - 1]}**" in english


def test_the_document_names_the_pages_at_their_real_addresses() -> None:
    text = DOC.read_text(encoding="utf-8")
    addresses = set(re.findall(r"`(/[a-z/-]*)`", text))
    names = ["privacy", "privacy_pupils", "processing_record", "data_flow", "accessibility"]
    assert {reverse(name) for name in names} <= addresses
