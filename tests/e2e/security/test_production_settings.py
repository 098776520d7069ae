"""In production (DEBUG off) the session and CSRF cookies are Secure and HttpOnly: read from
the settings and from the Set-Cookie headers of a real sign-in, in a child process."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from tests.support.live import child_env, manage

PROBE = """
import json
from django.conf import settings
from django.test import Client
from lessons.classrooms import services
services.teacher_create(username="prof", password="correct-horse-battery-42")
client = Client(HTTP_HOST="example.org")
response = client.post("/login/", {"username": "prof", "password": "correct-horse-battery-42"},
                       secure=True)
cookies = {name: {"secure": bool(c["secure"]), "httponly": bool(c["httponly"]),
                  "samesite": c["samesite"]} for name, c in response.cookies.items()}
print(json.dumps({
    "status": response.status_code,
    "cookies": cookies,
    "settings": {name: getattr(settings, name) for name in (
        "DEBUG", "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_SECURE",
        "CSRF_COOKIE_HTTPONLY", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS")},
}))
"""


def test_cookies_are_secure_and_httponly_in_production(tmp_path: Path) -> None:
    env = child_env(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    done = manage("shell", "-c", PROBE, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["settings"] == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": True,
        "SESSION_COOKIE_HTTPONLY": True,
        "CSRF_COOKIE_SECURE": True,
        "CSRF_COOKIE_HTTPONLY": True,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
    }
    assert found["status"] == 302  # signed in
    assert set(found["cookies"]) >= {"sessionid", "csrftoken"}
    for name, flags in found["cookies"].items():
        assert flags["secure"] and flags["httponly"], (name, flags)
