"""The RGAA self-assessment (lessons/notices/rgaa.toml) is whole, and the statement page, the
footer and the static error page say what its table counts."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from lessons.notices import rgaa
from lessons.notices.statement import status_label
from tests.e2e.browser.statement_probes import PROBES, SPECIAL

# RGAA 4.1: how many criteria each of the 13 themes has (106 in all).
THEME_SIZES = {
    1: 9,
    2: 2,
    3: 3,
    4: 13,
    5: 8,
    6: 2,
    7: 5,
    8: 10,
    9: 4,
    10: 14,
    11: 13,
    12: 11,
    13: 12,
}
ROOT = Path(settings.BASE_DIR)


def test_the_table_has_every_criterion_of_every_theme_once() -> None:
    criteria = rgaa.assessment().criteria
    assert len(criteria) == rgaa.CRITERION_COUNT == sum(THEME_SIZES.values())
    assert sorted(rgaa.assessment().themes) == list(THEME_SIZES)
    numbers = [c.number for c in criteria]
    expected = [f"{theme}.{n}" for theme, size in THEME_SIZES.items() for n in range(1, size + 1)]
    assert numbers == expected


def test_every_row_says_why_in_both_languages_and_how_it_was_checked() -> None:
    for c in rgaa.assessment().criteria:
        assert c.title_fr and c.title_en and c.reason_fr and c.reason_en, c.number
        assert c.title_fr != c.title_en and c.reason_fr != c.reason_en, c.number
        # Nothing unchecked is claimed; an automated verdict names what re-checks it.
        assert (c.verdict is rgaa.Verdict.NOT_ASSESSED) == (c.how is rgaa.How.NONE), c.number
        if c.how is rgaa.How.AUTOMATED:
            assert c.axe_rules or c.probes, c.number
        if c.how is rgaa.How.TEST:
            assert c.tests, c.number
        for probe in c.probes:
            assert probe in PROBES or probe in SPECIAL, (c.number, probe)
        for test in c.tests:
            assert (ROOT / test.split(" ")[0]).is_file(), (c.number, test)


def test_no_script_opens_a_window_by_itself() -> None:
    # Criterion 13.2's probe sees links and forms; scripts are read here.
    scripts = sorted((ROOT / "static" / "js").rglob("*.js"))
    assert scripts
    assert [p.name for p in scripts if "window.open" in p.read_text()] == []


@pytest.mark.parametrize(
    ("counts", "rate", "status"),
    [
        ((10, 0, 5, 0), 100, "full"),
        ((10, 0, 5, 1), 100, "partial"),  # a criterion not assessed is not claimed
        ((2, 1, 0, 0), 66, "partial"),  # rounded down
        ((1, 1, 0, 0), 50, "partial"),
        ((49, 51, 0, 0), 49, "none"),
        ((0, 0, 3, 0), 0, "none"),
    ],
)
def test_the_rate_and_status_follow_the_rgaa_rule(
    counts: tuple[int, int, int, int], rate: int, status: str
) -> None:
    tally = rgaa.Tally(*counts)
    assert (tally.rate, tally.status) == (rate, status)


def _statement(language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("accessibility"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_statement_counts_its_own_table(language: str) -> None:
    text = _statement(language)
    rows = Counter(re.findall(r'<tr data-criterion="[\d.]+" data-verdict="(\w+)"', text))
    assert sum(rows.values()) == rgaa.CRITERION_COUNT
    stated = {v: int(n) for v, n in re.findall(r'<span data-count="(\w+)">(\d+)</span>', text)}
    assert stated == {verdict: rows[verdict] for verdict in ("C", "NC", "NA", "NT")}
    rate = int(re.search(r"<span data-rate>(\d+)</span>", text).group(1))  # type: ignore[union-attr]
    assert rate == 100 * rows["C"] // (rows["C"] + rows["NC"])
    assert rate == rgaa.tally().rate


@pytest.mark.django_db
def test_the_statement_lists_what_is_not_accessible_and_not_assessed_and_the_sample() -> None:
    for language in ("fr", "en"):
        text = _statement(language)
        for c in rgaa.assessment().criteria:
            reason = c.reason_fr if language == "fr" else c.reason_en
            if c.verdict in (rgaa.Verdict.NOT_CONFORMING, rgaa.Verdict.NOT_ASSESSED):
                escaped = reason.replace("'", "&#x27;").replace('"', "&quot;")
                assert f'<span class="rgaa__number">{c.number}</span> — {escaped}' in text
        for fr, en, address in rgaa.assessment().sample:
            name = (fr if language == "fr" else en).replace("'", "&#x27;")
            assert f"<li>{name} (<code>{address}</code>)</li>" in text
    assert "3 décembre 2026" in _statement("fr")
    assert "axe-core 4.12" in _statement("en")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_footer_states_the_status_the_table_gives(language: str) -> None:
    with translation.override(language):
        label = status_label()
    text = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("home")).content.decode()
    footer = text[text.index('<footer class="site-footer">') :]
    assert f'<a href="{reverse("accessibility")}">{label}</a>' in footer
    assert "not compliant" not in footer and "non conforme" not in footer


def test_the_static_error_page_states_the_same_status() -> None:
    source = (ROOT / "templates" / "500.html").read_text()
    with translation.override("fr"):
        french = status_label().replace("\u202f", " ")
    with translation.override("en"):
        english = status_label()
    assert f'{french} · <span lang="en">{english}</span>' in source
