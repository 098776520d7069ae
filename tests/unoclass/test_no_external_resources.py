"""No page loads anything from another site: school networks may be offline or filtered.

The rule, for every page (every GET route of the authorisation matrix, as each of its five
actors, in French and in English; the error pages) and for every static file:

- Nothing the browser fetches by itself may come from another host: no `src`, `srcset`,
  `poster`, `data`, `action`/`formaction`, `href` of `<link>`/`<base>`/SVG `<use>`/`<image>`,
  `ping`, `url(...)` in a `style` attribute or a `<style>` block, `@import`, or refresh target
  naming another host. A URL is external when it has a host (`https://x`, `//x`) other than the
  page's own; relative URLs, the page's own host and `data:` URIs are fine.
- Scripts (inline and static JS) name no host in an http(s) or ws(s) URL: the pages build their
  WebSocket addresses from `location.host` (a bare "wss://" scheme joined to it is fine).
- Static CSS has no external `url(...)` or `@import`; static SVG has no external reference
  (the `xmlns` namespace names are names, not downloads).
- A link to another site in the text (the CNIL's address in the privacy notice, the Défenseur
  des droits in the accessibility statement) is allowed only as a plain `<a href>` / `<area
  href>` navigation link, which the browser follows only when the reader clicks it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import ACTORS, Route
from tests.e2e.security.test_access_matrix import ALL_ROUTES, _client_for

OWN_HOST = "testserver"
LANGUAGES = ("fr", "en")
NAVIGATION_TAGS = {"a", "area"}
# Attributes that make the browser fetch something, whatever the tag.
FETCHING_ATTRIBUTES = {"src", "srcset", "poster", "data", "action", "formaction", "background"}
# A scheme followed by a host; a bare "wss://" joined to location.host is the page's own host.
ABSOLUTE_IN_SCRIPT = re.compile(r"\b(?:https?|wss?)://[\w\[]", re.I)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", re.I)


def is_external(url: str) -> bool:
    """Tell whether a URL names a host other than the page's own."""
    url = url.strip()
    if url.lower().startswith("data:"):
        return False
    parts = urlsplit(url)
    return bool(parts.netloc) and parts.hostname != OWN_HOST


def external_in_css(text: str) -> list[str]:
    """Return the external URLs a piece of CSS would fetch."""
    found = []
    for match in CSS_URL.finditer(text):
        url = match.group(1) or match.group(2)
        if is_external(url):
            found.append(url)
    return found


class ResourceScanner(HTMLParser):
    """Collect every external URL a page would make the browser fetch by itself."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._inside: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        for name, value in values.items():
            if name == "href" or name == "xlink:href":
                if tag not in NAVIGATION_TAGS and is_external(value):
                    self.problems.append(f"<{tag} {name}={value!r}>")
            elif name in FETCHING_ATTRIBUTES or name == "ping":
                for url in _urls_of(name, value):
                    if is_external(url):
                        self.problems.append(f"<{tag} {name}={url!r}>")
            elif name == "style":
                self.problems += [f"<{tag} style url {u!r}>" for u in external_in_css(value)]
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            target = values.get("content", "").partition("url=")[2]
            if is_external(target):
                self.problems.append(f"<meta refresh {target!r}>")
        if tag in {"script", "style"}:
            self._inside = tag

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._inside = None

    def handle_endtag(self, tag: str) -> None:
        if tag == self._inside:
            self._inside = None

    def handle_data(self, data: str) -> None:
        if self._inside == "script":
            self.problems += [f"<script> {m!r}" for m in _absolute_urls(data)]
        elif self._inside == "style":
            self.problems += [f"<style> url {u!r}" for u in external_in_css(data)]


def _urls_of(attribute: str, value: str) -> list[str]:
    if attribute == "srcset":  # "a.png 1x, b.png 2x"
        return [candidate.split()[0] for candidate in value.split(",") if candidate.strip()]
    if attribute == "ping":  # space-separated URLs
        return value.split()
    return [value]


def _absolute_urls(script: str) -> list[str]:
    return [script[m.start() : m.start() + 60] for m in ABSOLUTE_IN_SCRIPT.finditer(script)]


def external_resources(html: str) -> list[str]:
    """Return every external resource a page would load (empty: the page is self-contained)."""
    scanner = ResourceScanner()
    scanner.feed(html)
    scanner.close()
    return scanner.problems


def test_the_scanner_finds_every_kind_of_external_load_and_allows_plain_links() -> None:
    planted = """
    <link rel="stylesheet" href="https://cdn.example.com/bulma.css">
    <link rel="preconnect" href="//fonts.googleapis.com">
    <script src="https://cdn.example.com/htmx.js"></script>
    <img src="http://tracker.example.com/pixel.gif" alt="">
    <img srcset="/static/a.png 1x, https://img.example.com/b.png 2x" alt="">
    <iframe src="https://www.youtube.com/embed/x"></iframe>
    <video poster="https://v.example.com/p.jpg"></video>
    <form action="https://forms.example.com/post"></form>
    <div style="background: url('https://img.example.com/bg.png')"></div>
    <style>@import url(https://fonts.googleapis.com/css?family=Roboto);</style>
    <script>fetch("https://api.example.com/collect")</script>
    <script>new WebSocket("wss://live.example.com/ws/")</script>
    <svg><use href="https://icons.example.com/sprite.svg#x"></use></svg>
    <a href="/x" ping="https://t.example.com/ping">x</a>
    <meta http-equiv="refresh" content="0; url=https://elsewhere.example.com/">
    """
    assert len(external_resources(planted)) == 15
    allowed = """
    <a href="https://www.cnil.fr/fr/plaintes">www.cnil.fr</a>
    <link rel="stylesheet" href="/static/css/app.css">
    <img src="data:image/png;base64,AAAA" alt="">
    <script src="http://testserver/static/js/play/main.js"></script>
    <script>const ws = new WebSocket(`${scheme}//${location.host}/ws/`);</script>
    <script>const scheme = secure ? "wss://" : "ws://"; go(`${scheme}${location.host}/`);</script>
    <div style="background: url(/static/img/logo.svg)"></div>
    """
    assert external_resources(allowed) == []


GET_ROUTES = [route for route in ALL_ROUTES if route.method == "get"]


@pytest.mark.django_db
@pytest.mark.parametrize("route", GET_ROUTES, ids=lambda route: route.id)
def test_no_page_loads_anything_from_another_site(
    route: Route, class_a: ClassWorld, class_b: ClassWorld
) -> None:
    url = reverse(route.name, kwargs=route.kwargs(class_a, class_b))
    for actor in ACTORS:
        for language in LANGUAGES:
            client = _client_for(actor, class_a, class_b)
            client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
            response = client.get(url, route.data(class_a, class_b))
            if not response.get("Content-Type", "").startswith("text/html"):
                continue  # a CSV or JSON download, or a redirect
            problems = external_resources(response.content.decode())
            assert problems == [], f"{url} as {actor} in {language}: {problems}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_links_to_other_sites_in_the_notices_are_plain_links(language: str) -> None:
    for name, address in [
        ("privacy", "https://www.cnil.fr/fr/plaintes"),
        ("accessibility", "https://formulaire.defenseurdesdroits.fr/"),
    ]:
        response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse(name))
        assert response["Content-Type"].startswith("text/html")
        page = response.content.decode()
        assert f'<a href="{address}">' in page
        assert external_resources(page) == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_error_pages_load_nothing_from_another_site(language: str, class_a: ClassWorld) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    not_found = client.get("/no-such-page/")
    assert not_found.status_code == 404
    assert external_resources(not_found.content.decode()) == []
    client.force_login(class_a.student.user)
    denied = client.get(reverse("classroom_create"))
    assert denied.status_code == 403
    assert external_resources(denied.content.decode()) == []
    server_error = (Path(settings.BASE_DIR) / "templates" / "500.html").read_text()
    assert external_resources(server_error) == []


def _static_files(suffix: str) -> list[Path]:
    files = sorted(p for d in settings.STATICFILES_DIRS for p in Path(d).rglob(f"*{suffix}"))
    assert files, f"no {suffix} file found: the scan would prove nothing"
    return files


@pytest.mark.parametrize("path", _static_files(".css"), ids=lambda p: p.name)
def test_static_css_imports_nothing_from_another_site(path: Path) -> None:
    assert external_in_css(path.read_text()) == []


@pytest.mark.parametrize("path", _static_files(".js"), ids=lambda p: p.name)
def test_static_js_names_no_absolute_url(path: Path) -> None:
    # The SVG namespace name, as createElementNS takes it, is an identifier: nothing is fetched.
    script = path.read_text().replace('"http://www.w3.org/2000/svg"', '""')
    assert _absolute_urls(script) == []


@pytest.mark.parametrize("path", _static_files(".svg"), ids=lambda p: p.name)
def test_static_svg_references_nothing_outside(path: Path) -> None:
    # xmlns="http://www.w3.org/2000/svg" names a namespace; nothing is downloaded from it.
    text = re.sub(r'\sxmlns(:\w+)?="[^"]*"', "", path.read_text())
    assert external_resources(text) == []
    assert external_in_css(text) == []


@pytest.mark.parametrize(
    "path",
    sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")),
    ids=lambda p: str(p.relative_to(Path(settings.BASE_DIR) / "templates")),
)
def test_templates_load_nothing_from_another_site(path: Path) -> None:
    # Belt and braces for page states no route of the matrix reaches (template tags removed).
    source = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", "", path.read_text(), flags=re.S)
    assert external_resources(source) == []
