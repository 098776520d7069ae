"""The privacy notice and the accessibility statement: public, in both languages, honest, linked
from every page's footer."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games.models import Seat, TableEvent
from games.services import SeatSpec, table_create
from lessons.classrooms.forms import TeacherSignUpForm
from lessons.models import Attempt, Classroom, Student, User, WarmupRound
from lessons.notices.retention import Retention
from tests.conftest import ClassWorld
from tests.support.responses import page_text

# (url name, a sentence in English, the same sentence in French)
NOTICES = [
    ("privacy", "Who is responsible", "Qui est responsable"),
    ("privacy_pupils", "What unoclass knows about you", "Ce qu’unoclass sait de toi"),
    ("processing_record", "Clause for a host", "Clause pour un hébergeur"),
    ("data_flow", "What travels", "Ce qui circule"),
    ("accessibility", "Known limits", "Limites connues"),
]
# The pages for pupils and for the school's data protection officer.
COMPANIONS = ["privacy_pupils", "processing_record", "data_flow"]


def _get(url: str, language: str, user: User | None = None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return page_text(response)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "english", "french"), NOTICES)
def test_notice_is_public_and_in_both_languages(name: str, english: str, french: str) -> None:
    url = reverse(name)
    for language, expected, absent in [("fr", french, english), ("en", english, french)]:
        text = _get(url, language)
        assert f'<html lang="{language}">' in text
        assert expected in text
        assert absent not in text


@pytest.mark.django_db
@pytest.mark.parametrize("name", [name for name, _, _ in NOTICES])
def test_notice_refuses_post_and_answers_head(name: str) -> None:
    client = Client()
    assert client.post(reverse(name), {"anything": "x"}).status_code == 405
    assert client.put(reverse(name)).status_code == 405
    assert client.head(reverse(name)).status_code == 200


@pytest.mark.django_db
def test_privacy_notice_says_what_to_do_when_nothing_is_erased_automatically() -> None:
    with mock.patch("lessons.notices.views.retention_in_force", return_value=None):
        text = _get(reverse("privacy"), "en")
        fr = _get(reverse("privacy"), "fr")
    assert "Today unoclass erases nothing automatically" in text
    assert "within three months once an account ends" in text
    assert "n’efface rien automatiquement" in fr


@pytest.mark.django_db
def test_privacy_notice_states_the_retention_once_one_is_in_force() -> None:
    with mock.patch("lessons.notices.views.retention_in_force", return_value=Retention(months=3)):
        text = _get(reverse("privacy"), "en")
        french = _get(reverse("privacy"), "fr")
    assert "plays automatically 3 months after their class is archived" in text
    assert "erases nothing automatically" not in text
    assert "d’un élève 3 mois après l’archivage" in french


@pytest.mark.django_db
def test_privacy_notice_gives_the_session_length_from_the_settings(settings: Settings) -> None:
    settings.SESSION_COOKIE_AGE = 3 * 24 * 60 * 60
    assert "A sign-in session lasts at most 3 days" in _get(reverse("privacy"), "en")


@pytest.mark.django_db
def test_privacy_notice_links_the_pages_for_pupils_and_for_the_data_protection_officer() -> None:
    for language in ("fr", "en"):
        text = _get(reverse("privacy"), language)
        for name in COMPANIONS:
            assert f'href="{reverse(name)}"' in text, (language, name)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("months", "english", "french"),
    [
        (1, "erased 1 month later", "effacé 1 mois plus tard"),
        (7, "erased 7 months later", "effacé 7 mois plus tard"),
    ],
)
def test_pupils_notice_says_the_retention_in_force_in_a_childs_words(
    months: int, english: str, french: str
) -> None:
    with mock.patch(
        "lessons.notices.views.retention_in_force", return_value=Retention(months=months)
    ):
        assert english in _get(reverse("privacy_pupils"), "en")
        assert french in _get(reverse("privacy_pupils"), "fr")


@pytest.mark.django_db
def test_pupils_notice_says_when_the_games_are_kept_without_the_name() -> None:
    kept = Retention(months=3, keep_pseudonymised=True)
    with mock.patch("lessons.notices.views.retention_in_force", return_value=kept):
        assert "keep the games without your name" in _get(reverse("privacy_pupils"), "en")
    with mock.patch("lessons.notices.views.retention_in_force", return_value=Retention(3)):
        assert "without your name" not in _get(reverse("privacy_pupils"), "en")


@pytest.mark.django_db
def test_record_and_data_flow_give_this_servers_own_periods(settings: Settings) -> None:
    # The officer signs what the server applies: the figures follow the settings and policy.
    settings.SESSION_COOKIE_AGE = 3 * 24 * 60 * 60
    with mock.patch("lessons.notices.views.retention_in_force", return_value=Retention(5)):
        record = _get(reverse("processing_record"), "en")
        flow = _get(reverse("data_flow"), "en")
        record_fr = _get(reverse("processing_record"), "fr")
    assert "erased automatically 5 months after their class is archived" in record
    assert "A sign-in session: 3 days at most." in record
    assert "Failed sign-in counts: 24 hours." in record  # a lock's strikes: a day
    assert "A report's PDF in the server's cache: 7 days at most." in record
    assert "30 days after their last ENT sign-in" in record and "30 days after" in flow
    assert "5 months after the class is archived" in flow and "3 days at most" in flow
    assert "24 hours at most" in flow and "7 days at most; emptied when a pupil is erased" in flow
    for cookie in ("365 days", "180 days", "the token: 364 days"):
        assert cookie in flow, cookie  # the device's, the pupil device's, the CSRF cookie's
    assert "14 days in the deploy guide" in flow and "keeps no copy of a CSV export" in flow
    assert "effacées automatiquement 5 mois après l’archivage" in record_fr
    with mock.patch("lessons.notices.views.retention_in_force", return_value=None):
        assert "this server erases nothing automatically" in _get(
            reverse("processing_record"), "en"
        )
        assert "until the school has them deleted" in _get(reverse("data_flow"), "en")


@pytest.mark.django_db
def test_privacy_notice_gives_the_sign_in_limits_own_period(settings: Settings) -> None:
    settings.CSRF_COOKIE_AGE = 2 * 24 * 60 * 60
    text = _get(reverse("privacy"), "en")
    french = _get(reverse("privacy"), "fr")
    flow = _get(reverse("data_flow"), "en")
    assert "Failed sign-ins are counted for 24 hours at most." in text
    assert "15 minutes" not in text
    assert "comptées 24\xa0heures au plus" in french or "comptées 24 heures au plus" in french
    assert "marks the device as a pupil's for 180 days" in text.replace("&#x27;", "'")
    assert "the token: 2 days" in flow


@pytest.mark.django_db
def test_record_lists_no_data_the_product_does_not_take() -> None:
    # The import of a school's file (ONDE, SIECLE) must never add these: the record says so.
    text = _get(reverse("processing_record"), "en")
    assert "No e-mail address, no date of birth, no photo, no INE" in text


@pytest.mark.django_db
def test_privacy_notice_links_the_cnil_only_as_a_plain_link() -> None:
    text = _get(reverse("privacy"), "fr")
    assert '<a href="https://www.cnil.fr/fr/plaintes">www.cnil.fr</a>' in text


@pytest.mark.django_db
def test_accessibility_statement_declares_its_status_and_how_to_report() -> None:
    text = _get(reverse("accessibility"), "fr")
    assert "RGAA 4.1" in text and "WCAG 2.1" in text
    assert "partiellement conforme" in text
    assert "Signaler un problème" in text
    assert '<a href="https://formulaire.defenseurdesdroits.fr/">' in text


# Every stored field the privacy notice accounts for. A new field on these models is new
# personal data: describe it in templates/notices/privacy.html, then add it here.
DESCRIBED_FIELDS = {
    # first_name, last_name and email are Django's columns: no form of ours ever fills them.
    User: {
        "id", "password", "last_login", "is_superuser", "username", "first_name", "last_name",
        "email", "is_staff", "is_active", "date_joined", "role",
    },
    Seat: {
        "id", "table", "index", "user", "bot", "bot_profile", "bot_takeover", "name", "last_seen",
    },
    TableEvent: {
        "id", "table", "seq", "state_id", "seat", "actor", "user", "action", "result", "created_at",
    },
    Student: {
        "id", "user", "classroom", "display_name", "pin_hash", "failed_attempts", "locked_until",
        "pseudonymised_at",
    },
    Classroom: {
        "id", "teacher", "name", "grade", "language", "join_code", "created_at", "archived_at",
        "previous", "purged_at",
    },
    Attempt: {
        "id", "classroom", "student", "session", "table", "created_at", "reference_num",
        "reference_den", "named_denominator", "played_num", "played_den", "card", "claim",
        "claim_source", "outcome", "tags", "p0", "opportunities", "skills", "hand",
        "response_ms", "rules_version", "turn", "reason", "drew", "source", "warmup",
        "pictures",
    },
    WarmupRound: {
        "id", "classroom", "student", "kind", "session", "assignment", "level", "seed",
        "due_on", "created_by", "created_at", "item", "asking", "answered", "finished_at",
        "stopped",
    },
}  # fmt: skip


@pytest.mark.parametrize("model", list(DESCRIBED_FIELDS), ids=lambda m: m.__name__)
def test_privacy_notice_accounts_for_every_stored_field(model: type[Model]) -> None:
    stored = {field.name for field in model._meta.concrete_fields}
    added, gone = stored - DESCRIBED_FIELDS[model], DESCRIBED_FIELDS[model] - stored
    assert not added and not gone, (
        f"{model.__name__}: fields added {sorted(added)}, removed {sorted(gone)}. Say in "
        "templates/notices/privacy.html what they hold (both .po files), then update "
        "DESCRIBED_FIELDS."
    )


def test_sign_up_asks_no_e_mail_address_as_the_notice_says() -> None:
    assert "email" not in TeacherSignUpForm().fields


@pytest.mark.django_db
def test_every_page_footer_links_both_notices(class_a: ClassWorld) -> None:
    seats = [
        SeatSpec(name=login.student.display_name, user_id=login.user.pk)
        for login in (class_a.student, class_a.other_student)
    ]
    table = table_create(ruleset="fractions", seats=seats, seed=3)
    pages = [
        (None, reverse("home")),
        (None, reverse("join")),
        (None, reverse("login")),
        (None, reverse("privacy")),
        (class_a.teacher, reverse("classroom_detail", args=[class_a.classroom.pk])),
        (class_a.student.user, reverse("games:play", args=[table.pk])),
    ]
    for user, url in pages:
        for language, privacy, accessibility in [
            ("fr", "Données personnelles", "Accessibilité\u202f: partiellement conforme"),
            ("en", "Privacy notice", "Accessibility: partially compliant"),
        ]:
            text = _get(url, language, user)
            footer = text[text.index('<footer class="site-footer">') :]
            assert f'<a href="{reverse("privacy")}">{privacy}</a>' in footer, url
            assert f'<a href="{reverse("accessibility")}">{accessibility}</a>' in footer, url


def test_the_static_error_page_links_both_notices_at_their_real_addresses() -> None:
    # 500.html is plain HTML (no template tags may fail while the server is failing).
    source = (Path(settings.BASE_DIR) / "templates" / "500.html").read_text()
    links = set(re.findall(r'href="([^"]+)"', source))
    assert {reverse("privacy"), reverse("accessibility")} <= links
