"""The browser package's fixtures: one daphne (tests/support/live.py) and one Playwright.

Every module of this package uses these `playwright` and `browser` fixtures: two Playwright
sync loops in one package break each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    ViewportSize,
    expect,
    sync_playwright,
)

from tests.e2e.browser.pages import PlayPage
from tests.support.live import Server, serve

__all__ = [
    "DESKTOP",
    "PHONE",
    "SETTINGS",
    "Server",
    "accessibility_problems",
    "launched_chromium",
    "live_server_sign_in",
    "outside_the_event_loop",
    "package_playwright",
    "quick_server",
    "serious_violations",
    "serve",
    "signed_in",
]

SETTINGS = "tests.e2e.browser.settings_browser"
T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
# The whole suite may share two cores with these tests: give the page time to answer.
expect.set_options(timeout=15_000)
PHONE: ViewportSize = {"width": 390, "height": 844}
# Robots that play at once, and a short pause between rounds: the tests wait on states.
QUICK_BOTS = {"GAMES_BOT_DELAY": "0.05", "GAMES_ROUND_PAUSE": "0.2"}


@contextmanager
def quick_server(directory: Path, **env_values: str) -> Iterator[Server]:
    """Serve the app from `directory` with the browser settings and quick bots."""
    with serve(directory, settings_module=SETTINGS, **{**QUICK_BOTS, **env_values}) as live:
        yield live


@contextmanager
def package_playwright() -> Iterator[Playwright]:
    """Start Playwright (sync API) for one package of tests.

    Package scope: its event loop must be gone before the asyncio tests of other packages run.
    While it runs, this thread counts as async for Django: the modules that build their data
    in process (live_server, factories) may still call the ORM (DJANGO_ALLOW_ASYNC_UNSAFE,
    which the daphne processes never inherit: see tests.support.live.child_env).
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as driver:
            yield driver


@contextmanager
def launched_chromium(playwright: Playwright, *args: str) -> Iterator[Browser]:
    """Launch Debian's chromium, headless (never a downloaded browser), with `args` added."""
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *args]
    )
    try:
        yield launched
    finally:
        launched.close()


def package_fixtures(name: str, *chromium_args: str) -> tuple[Any, Any, Any]:
    """Return a package's `server`, `playwright` and `browser` fixtures, one of each for the
    package: the app with quick bots, Playwright, and chromium launched with `chromium_args`."""

    @pytest.fixture(scope="package", name="server")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
        with quick_server(tmp_path_factory.mktemp(name)) as live:
            yield live

    @pytest.fixture(scope="package", name="playwright")
    def playwright() -> Iterator[Playwright]:
        with package_playwright() as driver:
            yield driver

    @pytest.fixture(scope="package", name="browser")
    def browser(playwright: Playwright) -> Iterator[Browser]:
        with launched_chromium(playwright, *chromium_args) as launched:
            yield launched

    return server, playwright, browser


server, playwright, browser = package_fixtures("browser")


def signed_in(
    browser: Browser,
    server: Server,
    session: str,
    *,
    lang: str = "fr",
    viewport: ViewportSize | None = None,
    **options: Any,
) -> BrowserContext:
    """Open a browser context that carries a signed-in session and a language cookie."""
    context = browser.new_context(viewport=viewport or DESKTOP, locale=lang, **options)
    context.add_cookies(
        [
            {"name": "sessionid", "value": session, "url": server.url},
            {"name": "django_language", "value": lang, "url": server.url},
        ]
    )
    return context


@pytest.fixture
def table_page(server: Server, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Give an opener of a world's table on a phone, as its first student, at its first state.

    `opener(world, lang="fr", **options)`: `options` go to the browser context (is_mobile,
    reduced_motion…). Every context it opened is closed at the test's end.
    """
    contexts: list[BrowserContext] = []

    def opener(world: dict[str, Any], *, lang: str = "fr", **options: Any) -> Page:
        session = world["students"][0]["session"]
        context = signed_in(browser, server, session, lang=lang, viewport=PHONE, **options)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        return page

    yield opener
    for context in contexts:
        context.close()


def live_server_sign_in(context: BrowserContext, live_server: Any, user: Any) -> None:
    """Sign a browser context in as `user` on pytest-django's live server (in-process data)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def serious_violations(page: Page) -> list[str]:
    """Run axe-core on the page; describe its serious and critical violations."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    violations = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in violations
        if v["impact"] in {"serious", "critical"}
    ]


def accessibility_problems(
    browser: Browser, live_server: Any, pages: dict[Any, list[str]]
) -> dict[str, list[str]]:
    """Run axe-core on each user's pages (None: a visitor), on a phone and a wide screen, in
    French; return the serious violations by page, user and width."""
    problems: dict[str, list[str]] = {}
    for user, urls in pages.items():
        wide: ViewportSize = {"width": 1920, "height": 1080}
        for viewport in (PHONE, wide):
            context = browser.new_context(viewport=viewport, locale="fr-FR")
            try:
                if user is not None:
                    live_server_sign_in(context, live_server, user)
                page = context.new_page()
                for url in urls:
                    page.goto(live_server.url + url)
                    found = serious_violations(page)
                    if found:
                        problems[f"{url} as {user or 'visitor'} at {viewport['width']}px"] = found
            finally:
                context.close()
    return problems


def outside_the_event_loop(build: Callable[[], T]) -> T:
    """Run `build` (in-process data through the services) in a worker thread; return its result.

    Playwright's sync loop lives in the test thread, where async_to_sync (the services'
    broadcasts) refuses to run.
    """

    def run() -> T:
        from django.db import connection

        try:
            return build()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result(timeout=120)
