"""Production settings pass `check --deploy`; `make run`'s settings serve pages and CSS."""

from __future__ import annotations

import secrets
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.foundation.servers import BASE_DIR, BIN_DIR, child_env, free_port, manage


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
    env = child_env(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    server = subprocess.Popen(
        [str(BIN_DIR / "daphne"), "-b", "127.0.0.1", "-p", str(port), "unoclass.asgi:application"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _type, body = _get(f"{base}/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                assert time.monotonic() < deadline, "daphne did not answer within 60 s"
                time.sleep(0.3)
        assert status == 200
        assert b"unoclass" in body
        status, content_type, css = _get(f"{base}/static/css/app.css")
        assert status == 200
        assert content_type.startswith("text/css")
        assert b".skip-link" in css
    finally:
        server.terminate()
        server.wait(timeout=10)
