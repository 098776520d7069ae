"""Start django-cas-server as its own process: its own settings module (written here into a
temporary directory), its own SQLite database, the test users, and one service pattern that
allows the app's callback on loopback, with single sign-out posted to the service URL.

It runs from `.venv-cas` (`make cas-venv`: django-cas-server 3.1.0 with the Django it supports),
never from the app's environment. A missing `.venv-cas` fails the test with the command to run.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
import requests

from tests.support.cas.users import PASSWORD, USERS
from tests.support.servers import free_port, wait_for_port
from tests.support.waiting import WaitTimeout

BASE_DIR = Path(__file__).resolve().parents[3]
# UNOCLASS_CAS_VENV: another place for the environment (a worktree sharing one checkout's).
CAS_PYTHON = Path(os.environ.get("UNOCLASS_CAS_VENV") or BASE_DIR / ".venv-cas") / "bin" / "python"
# Any app callback on loopback: the tests' daphne picks its port, the test client is "testserver".
# Each sign-in's service URL carries its state (lessons/ent/states.py): the callback is a prefix.
SERVICE_PATTERN = (
    r"^https?://(127\.0\.0\.1|localhost|testserver)(:[0-9]+)?/ent/[0-9]+/callback/"
    r"(\?state=[A-Za-z0-9_-]+)?$"
)
HTTP_TIMEOUT = 20

SETTINGS = """
import json
SECRET_KEY = "cas-test-server-only-0123456789abcdefghijklmnopqrstuvwxyz"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "cas_server",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "cas_urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": %(db)r}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
STATIC_URL = "/static/"
USE_TZ = True
# Cookies ignore ports: on 127.0.0.1 beside the app, the CAS server's cookies need names of
# their own, or each server would overwrite the other's session (a real ENT is another host).
SESSION_COOKIE_NAME = "cas_sessionid"
CSRF_COOKIE_NAME = "cas_csrftoken"
# Nothing from another site: the login page's CSS/JS would come from a CDN.
CAS_COMPONENT_URLS = {name: "/static/none" for name in (
    "bootstrap3_css", "bootstrap3_js", "html5shiv", "respond",
    "bootstrap4_css", "bootstrap4_js", "jquery")}
CAS_AUTH_CLASS = "auth_users.TestUsers"
CAS_SHOW_POWERED = False
CAS_NEW_VERSION_HTML_WARNING = False
CAS_NEW_VERSION_EMAIL_WARNING = False
UNOCLASS_CAS_PASSWORD = %(password)r
UNOCLASS_CAS_USERS = json.loads(%(users)r)
"""

URLS = """
from django.urls import include, path
urlpatterns = [path("cas/", include("cas_server.urls", namespace="cas_server"))]
"""

SETUP = """
from cas_server.models import ReplaceAttributName, ServicePattern
pattern = ServicePattern.objects.create(
    pos=1, name="unoclass", pattern=%(pattern)r, single_log_out=True
)
ReplaceAttributName.objects.create(name="*", service_pattern=pattern)
print("ok")
"""


@dataclass
class CasServer:
    """A running CAS server: its base URL (…/cas/) and how to sign in at its form."""

    url: str
    directory: Path
    process: subprocess.Popen[bytes]

    def log(self) -> str:
        """Return what the server wrote (requests, SLO posts, errors)."""
        path = self.directory / "cas.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def sign_in(
        self, session: requests.Session, service: str, username: str, password: str = PASSWORD
    ) -> str:
        """Sign in at the CAS server's own form for `service`; return the redirect to it.

        A real login: the form's hidden fields (login ticket, CSRF) come from the page.
        The returned URL is the service URL with the ticket the server issued.
        """
        login = urljoin(self.url, "login")
        page = session.get(login, params={"service": service}, timeout=HTTP_TIMEOUT)
        page.raise_for_status()
        fields = {
            html.unescape(name): html.unescape(value)
            for name, value in re.findall(
                r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page.text
            )
        }
        fields.update(username=username, password=password)
        answer = session.post(page.url, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
        location = answer.headers.get("Location", "")
        if answer.status_code != 302 or not location.startswith(service):
            raise AssertionError(
                f"the CAS server did not sign {username} in ({answer.status_code}):"
                f" {answer.text[-2000:]}"
            )
        return location

    def sign_out(self, session: requests.Session) -> None:
        """Sign out at the CAS server: it posts a logoutRequest to each service signed in."""
        session.get(urljoin(self.url, "logout"), timeout=HTTP_TIMEOUT).raise_for_status()


def ticket_of(callback_url: str) -> str:
    """Return the ticket in a service URL the CAS server redirected to."""
    return parse_qs(urlparse(callback_url).query)["ticket"][0]


def _run(args: list[str], directory: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(CAS_PYTHON), *args],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the CAS server's {args[:3]} failed:\n{done.stderr[-4000:]}")
    return done.stdout


@contextmanager
def cas_server(directory: Path) -> Iterator[CasServer]:
    """Run django-cas-server on a free loopback port until the block ends."""
    if not CAS_PYTHON.exists():
        pytest.fail(f"{CAS_PYTHON} is missing: run `make cas-venv` (the tests' own CAS server)")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cas_settings.py").write_text(
        SETTINGS
        % {
            "db": str(directory / "cas.sqlite3"),
            "password": PASSWORD,
            "users": json.dumps(USERS),
        }
    )
    (directory / "cas_urls.py").write_text(URLS)
    shutil.copy(Path(__file__).with_name("auth_users.py"), directory / "auth_users.py")
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(directory),
        "DJANGO_SETTINGS_MODULE": "cas_settings",
        "PYTHONUNBUFFERED": "1",
    }
    _run(["-m", "django", "migrate", "--noinput"], directory, env)
    _run(["-m", "django", "shell", "-c", SETUP % {"pattern": SERVICE_PATTERN}], directory, env)
    port = free_port()
    log = open(directory / "cas.log", "ab")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [str(CAS_PYTHON), "-m", "django", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=directory,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = CasServer(url=f"http://127.0.0.1:{port}/cas/", directory=directory, process=process)
    try:
        try:
            wait_for_port(port, process, 60)
        except (RuntimeError, WaitTimeout) as exc:
            raise RuntimeError(f"the CAS server did not start: {exc}\n{server.log()}") from exc
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log.close()
