"""The .deb's files agree with each other and with the deploy guide (quick: in `make test`).

test_deb.py proves the package in a Debian root, but only under `make test-deb`; these catch,
in seconds, an edit on one side that the other does not follow: a socket path, the static
folder, the guide's nginx block the package's site is made from.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.live import BASE_DIR

PACKAGING = BASE_DIR / "packaging"


def build_deb() -> ModuleType:
    """Load packaging/build_deb.py (a script, not a package: `packaging` is PyPI's name)."""
    spec = importlib.util.spec_from_file_location("build_deb", PACKAGING / "build_deb.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def exec_start(unit: str) -> str:
    text = (PACKAGING / "systemd" / unit).read_text()
    return re.search(r"^ExecStart=(.*)$", text, re.M).group(1)  # type: ignore[union-attr]


def template_env() -> dict[str, str]:
    lines = (PACKAGING / "env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def test_the_site_reaches_the_units_daphne_and_serves_the_collected_files() -> None:
    site = build_deb().nginx_site()
    upstream = re.search(r"upstream unoclass \{\n(.*?)\n\}", site, re.S).group(1)  # type: ignore[union-attr]
    servers = re.findall(r"server unix:(\S+);", upstream)
    socket = re.search(r"-u (\S+)", exec_start("unoclass.service")).group(1)  # type: ignore[union-attr]
    assert servers == [socket]
    alias = re.search(r"location /static/ \{\n\s*alias (\S+);", site).group(1)  # type: ignore[union-attr]
    assert alias.rstrip("/") == template_env()["STATIC_ROOT"]
    # The guide's site otherwise: TLS at the certificate unoclass-certificate makes, the
    # live links' locations, nginx's own hop as the client's address.
    certificate = (PACKAGING / "unoclass-certificate").read_text()
    assert "ssl_certificate     /etc/unoclass/tls/server.crt;" in site
    assert "TLS=/etc/unoclass/tls" in certificate and "out server.crt.new" in certificate
    assert "server_name _;" in site and "example-school" not in site
    assert site.count("X-Forwarded-For $remote_addr;") == 3
    assert "proxy_set_header Upgrade $http_upgrade;" in site


def test_a_guide_without_the_site_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    module = build_deb()
    monkeypatch.setattr(module, "guide_block", lambda name: "server { listen 80; }")
    with pytest.raises(SystemExit, match="upstream unoclass"):
        module.nginx_site()


def test_the_units_run_the_installed_app_with_the_data_folders_settings() -> None:
    env = template_env()
    assert env["DATABASE_URL"] == "sqlite:////var/lib/unoclass/db.sqlite3"
    assert env["DEBUG"] == "0" and "REDIS_URL" not in env  # one process: in-memory layer
    for unit in ("unoclass.service", "unoclass-backup.service", "unoclass-purge.service"):
        text = (PACKAGING / "systemd" / unit).read_text()
        assert "EnvironmentFile=/etc/unoclass/env" in text, unit
        assert "EnvironmentFile=/var/lib/unoclass/secret.env" in text, unit
        assert "User=unoclass" in text, unit
        assert "/opt/unoclass/venv/bin/" in exec_start(unit), unit
    assert "backup_db" in exec_start("unoclass-backup.service")
    # The postinst enables what the package ships: a unit left out never starts.
    postinst = (PACKAGING / "debian/postinst").read_text()
    enabled = re.search(r'^UNITS="(.*)"$', postinst, re.M).group(1).split()  # type: ignore[union-attr]
    shipped = {p.name for p in (PACKAGING / "systemd").iterdir()}
    started = {u for u in shipped if u.endswith(".timer")} | {"unoclass.service"}
    assert set(enabled) == started
    for script in ("prerm", "postrm"):
        text = (PACKAGING / "debian" / script).read_text()
        assert f'UNITS="{" ".join(enabled)}"' in text, script


@pytest.mark.parametrize(
    "script",
    [
        "debian/preinst",
        "debian/postinst",
        "debian/prerm",
        "debian/postrm",
        "unoclass-manage",
        "unoclass-certificate",
    ],
)
def test_the_shell_scripts_parse(script: str) -> None:
    path: Path = PACKAGING / script
    assert path.stat().st_mode & 0o111, f"{script} is not executable"
    done = subprocess.run(["sh", "-n", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
