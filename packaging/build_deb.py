"""Build the school server's Debian package: `make deb` -> dist/unoclass_<version>_<arch>.deb.

The package holds the app's wheel and every dependency's wheel (from the package registry), the
systemd units, nginx's site, the environment's template and two commands; its postinst makes
the virtual environment in /opt/unoclass from those wheels, offline (packaging/debian/postinst).
nginx's site is docs/deploy.md's (section 6) for one daphne: the guide's block is the source,
so the package never drifts from the guide that tests/e2e/scale/test_deploy_guide.py runs.

Stdlib only; run by `make deb` with the app's environment (its pip builds the wheels).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE.parent
GUIDE = BASE / "docs" / "deploy.md"
# Debian 12's Python is the one the shipped wheels are built for (cp311).
DEPENDS = [
    "python3 (>= 3.11)",
    "python3 (<< 3.12)",
    "python3-venv",
    "adduser",
    "init-system-helpers",
    "nginx",
    "openssl",
    # WeasyPrint's PDF reports: Pango and a font (docs/deploy.md, section 1).
    "libpango-1.0-0",
    "libpangoft2-1.0-0",
    "fonts-dejavu-core",
    # The time zones (TIME_ZONE=Europe/Paris): a minimal Debian has none without it.
    "tzdata",
]
SOCKET = "/run/unoclass/daphne.sock"
STATIC = "/var/cache/unoclass/static/"
SITE = "etc/nginx/sites-available/unoclass"


def guide_block(name: str) -> str:
    """Return the block of docs/deploy.md marked `<!-- deploy-test: NAME -->`."""
    found = re.search(
        rf"<!-- deploy-test: {re.escape(name)} -->\n```\w*\n(.*?)\n```", GUIDE.read_text(), re.S
    )
    if not found:
        raise SystemExit(f"docs/deploy.md has no block marked deploy-test: {name}")
    return found.group(1)


def nginx_site() -> str:
    """Return the guide's nginx site for the package: one daphne, any host name, its paths."""
    site = guide_block("nginx")
    upstream = re.search(r"upstream unoclass \{\n(.*?)\n\}", site, re.S)
    if not upstream:
        raise SystemExit("docs/deploy.md's nginx site has no `upstream unoclass` block")
    changes = [
        (upstream.group(1), f"    server unix:{SOCKET};"),
        ("server_name uno.example-school.fr;", "server_name _;"),
        ("alias /srv/unoclass/app/staticfiles/;", f"alias {STATIC};"),
    ]
    for old, new in changes:
        if old not in site:
            raise SystemExit(f"docs/deploy.md's nginx site no longer has: {old}")
        site = site.replace(old, new)
    head = (
        "# unoclass on one school server: docs/deploy.md's site (section 6) for the package's\n"
        "# one daphne (unoclass.service). The certificate: unoclass-certificate.\n"
    )
    return head + site + "\n"


def version() -> str:
    """Return the app's version from pyproject.toml."""
    return str(tomllib.loads((BASE / "pyproject.toml").read_text())["project"]["version"])


def wheelhouse(target: Path, app_wheel: Path | None, scratch: Path) -> None:
    """Put the app's wheel and all its dependencies' wheels in `target`.

    pip runs on Debian's own python3, the one the package installs into: a dependency's markers
    are read for it (redis needs async-timeout below Python 3.11.3, and Debian 12 has 3.11.2).
    """
    debian_python = Path("/usr/bin/python3")
    found = subprocess.run(
        [str(debian_python), "-c", "import sys; print(sys.version_info[:2] == (3, 11))"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.stdout.strip() != "True":
        raise SystemExit("make deb needs Debian 12's /usr/bin/python3 (3.11) and python3-venv")
    venv = scratch / "build-venv"
    subprocess.run([str(debian_python), "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin/python"), "-m", "pip", "--disable-pip-version-check"]
    source = str(app_wheel) if app_wheel else str(BASE)
    subprocess.run([*pip, "wheel", "--quiet", "--wheel-dir", str(target), source], check=True)


def control(size_kib: int, arch: str) -> str:
    """Return the package's control file."""
    return (
        f"Package: unoclass\nVersion: {version()}\nArchitecture: {arch}\n"
        "Maintainer: unoclass developers <unoclass@localhost>\n"
        f"Installed-Size: {size_kib}\nDepends: {', '.join(DEPENDS)}\n"
        "Section: web\nPriority: optional\n"
        "Description: Uno Fractions and classic UNO for the classroom, on one school server\n"
        " Classroom card games on equal fractions, with misconception diagnosis, served by\n"
        " daphne behind nginx over HTTPS, on SQLite, from /opt/unoclass.\n"
    )


def lay_out(root: Path, app_wheel: Path | None) -> None:
    """Lay the package's files out under `root`, as they will be installed."""
    wheelhouse(root / "opt/unoclass/wheels", app_wheel, root.parent)
    units = root / "lib/systemd/system"
    units.mkdir(parents=True)
    for unit in sorted((HERE / "systemd").iterdir()):
        shutil.copy(unit, units / unit.name)
    sbin = root / "usr/sbin"
    sbin.mkdir(parents=True)
    for command in ("unoclass-manage", "unoclass-certificate"):
        shutil.copy(HERE / command, sbin / command)
        (sbin / command).chmod(0o755)
    share = root / "usr/share/unoclass"
    share.mkdir(parents=True)
    shutil.copy(HERE / "env", share / "env")
    (root / SITE).parent.mkdir(parents=True)
    (root / SITE).write_text(nginx_site())
    debian = root / "DEBIAN"
    debian.mkdir()
    for script in ("preinst", "postinst", "prerm", "postrm"):
        shutil.copy(HERE / "debian" / script, debian / script)
        (debian / script).chmod(0o755)
    (debian / "conffiles").write_text(f"/{SITE}\n")
    files = sorted(p for p in root.rglob("*") if p.is_file() and "DEBIAN" not in p.parts)
    (debian / "md5sums").write_text(
        "".join(
            f"{hashlib.md5(p.read_bytes()).hexdigest()}  {p.relative_to(root)}\n" for p in files
        )
    )
    arch = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()
    size = sum(p.stat().st_size for p in files) // 1024 + 1
    (debian / "control").write_text(control(size, arch))


def build(out_dir: Path, app_wheel: Path | None) -> Path:
    """Build the .deb into `out_dir`; return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="unoclass-deb-") as scratch:
        root = Path(scratch) / "root"
        lay_out(root, app_wheel)
        fields = (root / "DEBIAN/control").read_text()
        arch = re.search(r"^Architecture: (\S+)$", fields, re.M).group(1)  # type: ignore[union-attr]
        target = out_dir / f"unoclass_{version()}_{arch}.deb"
        subprocess.run(
            # The wheels are zip files already: xz took minutes to save a few per cent.
            ["dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "--build", str(root), str(target)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BASE / "dist", help="where the .deb goes")
    parser.add_argument("--wheel", type=Path, help="the app's wheel (default: built from here)")
    options = parser.parse_args()
    print(build(options.out, options.wheel))


if __name__ == "__main__":
    main()
