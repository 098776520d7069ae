"""The Content-Security-Policy and the language cookie's flags (issue 32, point 13)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.sessions.services import session_join, session_start
from tests.conftest import ClassWorld

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# The static error pages render with no template tag and no stylesheet (they are shown while
# the server fails): their one body style is the only inline style the policy allows.
ERROR_PAGES = {"500.html", "503.html"}


def _policy(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
def test_every_page_gets_a_policy_without_inline_scripts(class_a: ClassWorld) -> None:
    visitor, teacher, pupil = Client(), Client(), Client()
    teacher.force_login(class_a.teacher)
    pupil.force_login(class_a.student.user)
    pages = [
        (visitor, reverse("home")),
        (visitor, reverse("login")),
        (visitor, reverse("privacy")),
        (teacher, reverse("classroom_detail", args=[class_a.classroom.pk])),
        (pupil, reverse("home")),
        (visitor, "/no-such-page/"),
    ]
    for client, url in pages:
        policy = _policy(client.get(url))
        assert policy["default-src"] == ["'self'"], url
        script = policy["script-src"]
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, url
        # A nonce is added only where a page uses one (django-csp draws it lazily).
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
        assert "'unsafe-inline'" not in policy["style-src"], url


def _inline_scripts(source: str) -> list[str]:
    """Return the opening tags of the scripts in `source` that run and carry no src."""
    found = []
    for tag in re.findall(r"<script\b[^>]*>", source):
        if "src=" in tag or 'type="application/json"' in tag:
            continue
        found.append(tag)
    return found


def test_no_template_runs_inline_code_without_the_nonce() -> None:
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        source = path.read_text(encoding="utf-8")
        for tag in _inline_scripts(source):
            if 'nonce="{{ request.csp_nonce }}"' not in tag:
                problems.append(f"{path.relative_to(TEMPLATES)}: {tag}")
        # A <style> element runs under style-src: the nonce too (the PDF's template is read by
        # WeasyPrint, never by a browser).
        if path.name != "report_pdf.html":
            for tag in re.findall(r"<style\b[^>]*>", source):
                if 'nonce="{{ request.csp_nonce }}"' not in tag:
                    problems.append(f"{path.relative_to(TEMPLATES)}: {tag}")
        # An inline handler (onclick=…) would need 'unsafe-inline' or 'unsafe-hashes'.
        for handler in re.findall(r"<[^>]*\son[a-z]+\s*=", source):
            problems.append(f"{path.relative_to(TEMPLATES)}: {handler[:60]}")
        if path.name not in ERROR_PAGES and re.search(r"\sstyle\s*=", source):
            problems.append(f"{path.relative_to(TEMPLATES)}: a style attribute")
    assert problems == []


def test_the_error_pages_style_is_the_one_the_policy_allows() -> None:
    policy: dict[str, Any] = settings.CONTENT_SECURITY_POLICY
    allowed: list[str] = policy["DIRECTIVES"]["style-src"]
    for name in sorted(ERROR_PAGES):
        styles = re.findall(r'style="([^"]*)"', (TEMPLATES / name).read_text(encoding="utf-8"))
        for style in styles:
            digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in allowed, (name, "update ERROR_PAGE_STYLE_HASH")


@pytest.mark.django_db
def test_the_waiting_pages_script_carries_its_responses_own_nonce(class_a: ClassWorld) -> None:
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    session_join(session=session, student=class_a.student.student)
    client = Client()
    client.force_login(class_a.student.user)
    nonces = set()
    for _ in range(3):
        response = client.get(reverse("session_play", args=[session.pk]))
        assert response.status_code == 200 and b"waiting-check" in response.content
        script = _policy(response)["script-src"]
        nonce = next(v for v in script if v.startswith("'nonce-"))[len("'nonce-") : -1]
        assert f'<script nonce="{nonce}">' in response.content.decode()
        nonces.add(nonce)
    assert len(nonces) == 3


@pytest.mark.django_db
@pytest.mark.parametrize("secure", [True, False])
def test_the_language_cookie_is_http_only_same_site_and_secure_with_the_session(
    settings: Settings,
    secure: bool,
) -> None:
    settings.LANGUAGE_COOKIE_SECURE = secure
    response = Client().post(reverse("set_language"), {"language": "en", "next": "/"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert bool(cookie["secure"]) is secure


def test_the_language_cookie_follows_the_session_cookie_in_production() -> None:
    assert settings.LANGUAGE_COOKIE_SECURE == settings.SESSION_COOKIE_SECURE
