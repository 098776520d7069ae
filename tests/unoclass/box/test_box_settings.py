"""The box's settings (unoclass/settings_box.py): DEBUG off whatever the shell says, SQLite in
the data folder, the secret key generated once and kept, the hosts the command serves."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from tests.support.live import BASE_DIR
from unoclass.box.data_folder import secret_key

READ = """
import json
import django
django.setup()
from django.conf import settings
print(json.dumps({
    "debug": settings.DEBUG,
    "secret": settings.SECRET_KEY,
    "database": str(settings.DATABASES["default"]["NAME"]),
    "engine": settings.DATABASES["default"]["ENGINE"],
    "init": settings.DATABASES["default"]["OPTIONS"]["init_command"],
    "hosts": settings.ALLOWED_HOSTS,
    "origins": settings.CSRF_TRUSTED_ORIGINS,
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "pupil_url": settings.BOX_PUPIL_URL,
    "signup": settings.TEACHER_SIGNUP,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
}))
"""


def _settings(folder: Path, **env: str) -> dict[str, object]:
    environment = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}},
        "DJANGO_SETTINGS_MODULE": "unoclass.settings_box",
        "UNOCLASS_DATA": str(folder),
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", READ],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_box_settings_ignore_a_developer_s_debug_and_database(tmp_path: Path) -> None:
    found = _settings(
        tmp_path,
        DEBUG="1",
        DATABASE_URL="postgres://nobody@localhost/elsewhere",
        REDIS_URL="redis://localhost:1/0",
        ALLOWED_HOSTS="192.168.1.20,127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS="http://192.168.1.20:8000",
        UNOCLASS_PUPIL_URL="http://192.168.1.20:8000/join/",
    )
    assert found["debug"] is False
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["database"] == str(tmp_path / "unoclass.sqlite3")
    assert "journal_mode=WAL" in str(found["init"])
    assert found["layer"] == "games.realtime.process_layer.ProcessChannelLayer"
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["hosts"] == ["192.168.1.20", "127.0.0.1", "localhost"]
    assert found["origins"] == ["http://192.168.1.20:8000"]
    assert found["pupil_url"] == "http://192.168.1.20:8000/join/"
    # Plain http on a classroom's Wi-Fi; only an invited teacher signs up.
    assert found["ssl_redirect"] is False
    assert found["signup"] == "invitation"


def test_the_secret_key_is_made_once_and_kept_in_the_data_folder(tmp_path: Path) -> None:
    first = _settings(tmp_path)
    again = _settings(tmp_path)
    assert first["secret"] == again["secret"] and len(str(first["secret"])) >= 50
    kept = tmp_path / "secret_key"
    assert kept.read_text().strip() == first["secret"]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert _settings(tmp_path / "other")["secret"] != first["secret"]


def test_a_damaged_secret_file_is_replaced_by_a_new_key(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("short\n")
    key = secret_key(tmp_path)
    assert len(key) >= 50 and secret_key(tmp_path) == key
