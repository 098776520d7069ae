"""Production settings pass `check --deploy`; `make run`'s settings serve pages and CSS."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.live import LiveApp, child_env, manage


def test_check_deploy_with_production_variables_is_clean() -> None:
    env = child_env(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(48), ALLOWED_HOSTS="example.org")
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off() -> None:
    result = manage("check", env=child_env(DEBUG="0", ALLOWED_HOSTS="example.org"))
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@pytest.mark.slow
def test_daphne_serves_home_and_static_css_with_make_run_settings(tmp_path: Path) -> None:
    # `make run`'s environment: DEBUG=1 and nothing else (no test defaults).
    app = LiveApp({"DEBUG": "1"}, test_defaults=False, directory=tmp_path)
    try:
        app.migrate()
        base = app.start().http  # returns once daphne accepts connections
        status, _type, body = _get(f"{base}/")
        assert status == 200
        assert b"unoclass" in body
        status, content_type, css = _get(f"{base}/static/css/app.css")
        assert status == 200
        assert content_type.startswith("text/css")
        assert b".skip-link" in css
    finally:
        app.close()


_PRINT_DB_OPTIONS = (
    "import json; from django.conf import settings; "
    "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
)


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        (None, {"server_side_binding": True, "prepare_threshold": 5}),
        ("1", {"server_side_binding": True, "prepare_threshold": 5}),
        ("0", {}),
    ],
)
def test_postgresql_connections_prepare_statements_unless_turned_off(
    flag: str | None, expected: dict[str, object]
) -> None:
    # The real prepared statements are checked on PostgreSQL by tests/e2e/scale/postgres_probe.py.
    extra = {"DB_PREPARED_STATEMENTS": flag} if flag is not None else {}
    env = child_env(DEBUG="1", DATABASE_URL="postgres://unoclass@127.0.0.1:5432/unoclass", **extra)
    if flag is None:
        env.pop("DB_PREPARED_STATEMENTS", None)
    result = manage("shell", "-c", _PRINT_DB_OPTIONS, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == expected


def test_sqlite_keeps_its_own_options_whatever_the_flag() -> None:
    env = child_env(DEBUG="1", DB_PREPARED_STATEMENTS="1")
    result = manage("shell", "-c", _PRINT_DB_OPTIONS, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["transaction_mode"] == "IMMEDIATE"
