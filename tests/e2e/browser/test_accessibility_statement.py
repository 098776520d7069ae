"""The accessibility statement's automated claims hold on its sample of pages, in Chromium.

Every criterion of lessons/notices/rgaa.toml marked conforming (or not applicable) that names
axe-core rules or page probes is re-checked here on each sampled page: a claim that stops
holding fails with the criterion's number. The data-protection pages and the statement itself
pass axe-core with no violation at all, in French and in English, and the footer leads there.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Page, ViewportSize, expect

from lessons.notices import rgaa
from lessons.notices.statement import status_label
from tests.e2e.browser.conftest import live_server_sign_in, outside_the_event_loop
from tests.e2e.browser.sample_pages import sample_pages
from tests.e2e.browser.statement_probes import PROBES, SPECIAL

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CLAIMED = (rgaa.Verdict.CONFORMING, rgaa.Verdict.NOT_APPLICABLE)
NARROW: ViewportSize = {"width": 320, "height": 640}
DATA_PROTECTION = ["privacy", "privacy_pupils", "processing_record", "data_flow", "accessibility"]


def claims() -> list[rgaa.Criterion]:
    """Return the criteria whose verdict an automated check backs."""
    return [
        c for c in rgaa.assessment().criteria if c.verdict in CLAIMED and (c.axe_rules or c.probes)
    ]


def _in_language(browser: Any, live_server: Any, language: str) -> Any:
    """Open a browser context that asks the live server for pages in `language`."""
    context = browser.new_context(locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context


def _axe(page: Page, rules: list[str]) -> list[dict[str, Any]]:
    options = {"runOnly": {"type": "rule", "values": rules}, "resultTypes": ["violations"]}
    violations: list[dict[str, Any]] = Axe().run(page, options=options).response["violations"]
    return violations


def _check_page(page: Page, language: str, found: dict[str, list[str]], where: str) -> None:
    """Run every claimed criterion's axe rules and probes on the open page."""
    criteria = claims()
    rules = sorted({rule for c in criteria for rule in c.axe_rules})
    broken = {v["id"]: [n["target"] for n in v["nodes"][:3]] for v in _axe(page, rules)}
    for criterion in criteria:
        for rule in criterion.axe_rules:
            if rule in broken:
                found[criterion.number].append(f"{where}: axe {rule} {broken[rule]}")
        for probe in criterion.probes:
            if probe in SPECIAL:
                continue
            for problem in page.evaluate(PROBES[probe]):
                found[criterion.number].append(f"{where}: {probe}: {problem}")
    lang = page.evaluate("document.documentElement.lang")
    if lang != language:
        found_for(criteria, "lang-matches", found, f"{where}: lang={lang!r}")
    page.set_viewport_size(NARROW)
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > NARROW["width"]:
        found_for(criteria, "reflow-320", found, f"{where}: {width} px wide at 320 px")


def found_for(
    criteria: list[rgaa.Criterion], probe: str, found: dict[str, list[str]], problem: str
) -> None:
    """File a problem under every criterion that names the probe."""
    for criterion in criteria:
        if probe in criterion.probes:
            found[criterion.number].append(problem)


@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_automated_claims_hold_on_every_sampled_page(
    browser: Any, live_server: Any, class_a: Any
) -> None:
    pages = outside_the_event_loop(lambda: sample_pages(class_a))
    assert sum(len(urls) for urls in pages.values()) == len(rgaa.assessment().sample)
    found: dict[str, list[str]] = defaultdict(list)
    titles: dict[str, list[str]] = defaultdict(list)
    for language in ("fr", "en"):
        for user, urls in pages.items():
            context = _in_language(browser, live_server, language)
            try:
                if user is not None:
                    live_server_sign_in(context, live_server, user)
                page = context.new_page()
                for url in urls:
                    page.set_viewport_size({"width": 1280, "height": 860})
                    page.goto(live_server.url + url)
                    page.wait_for_load_state("load")
                    where = f"{language} {page.url.removeprefix(live_server.url)}"
                    titles[language].append(page.title())
                    _check_page(page, language, found, where)
            finally:
                context.close()
    for language, seen in titles.items():
        if len(set(seen)) != len(seen):
            found_for(claims(), "titles-distinct", found, f"{language}: titles {seen}")
    assert dict(found) == {}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_data_protection_pages_have_no_axe_violation_at_all(
    browser: Any, live_server: Any, language: str
) -> None:
    context = _in_language(browser, live_server, language)
    problems = {}
    try:
        page = context.new_page()
        for name in DATA_PROTECTION:
            page.goto(live_server.url + reverse(name))
            assert page.evaluate("document.documentElement.lang") == language
            violations = Axe().run(page).response["violations"]
            if violations:
                problems[name] = [(v["id"], v["impact"]) for v in violations]
    finally:
        context.close()
    assert problems == {}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "heading", "privacy"),
    [
        ("fr", "Déclaration d’accessibilité", "Données personnelles"),
        ("en", "Accessibility statement", "Privacy notice"),
    ],
)
def test_the_footer_leads_to_the_statement_and_the_privacy_pages(
    browser: Any, live_server: Any, language: str, heading: str, privacy: str
) -> None:
    with translation.override(language):
        link = status_label()
    context = _in_language(browser, live_server, language)
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("home"))
        page.locator("footer").get_by_role("link", name=link).click()
        expect(page.locator("h1")).to_have_text(heading)
        assert page.url == live_server.url + reverse("accessibility")
        assert page.locator("[data-rate]").inner_text() == str(rgaa.tally().rate)
        # The privacy notice links its companions, each a page that answers.
        page.locator("footer").get_by_role("link", name=privacy).click()
        for name in ["privacy_pupils", "processing_record", "data_flow"]:
            expect(page.locator(f"main a[href='{reverse(name)}']").first).to_be_visible()
    finally:
        context.close()


BAD_PAGE = """<html><body>
<button>first</button><a href="#main">skip</a>
<img src="data:," alt="" title="logo"><iframe title="x"></iframe><video></video>
<table><tr><th>a</th></tr><tr><td>1</td></tr></table><font>old</font><p align="center">x</p>
<fieldset><input name="x" aria-label="x"></fieldset><div role="group"><input aria-label="y"></div>
<form><input name="username" aria-label="u"></form><a href="/" target="_blank">new</a>
<main id="main"></main></body></html>"""


def test_every_probe_finds_its_problem_on_a_bad_page(browser: Any) -> None:
    page = browser.new_page()
    try:
        page.set_content(BAD_PAGE)  # no doctype: quirks mode
        silent = [name for name, probe in PROBES.items() if not page.evaluate(probe)]
    finally:
        page.context.close()
    assert silent == []
