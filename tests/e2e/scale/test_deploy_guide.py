"""docs/deploy.md, followed in a temporary root (issue 14, point 6).

The guide's blocks marked `<!-- deploy-test: NAME -->` are run as written, with three kinds of
changes only: paths under /etc, /run/unoclass and the static files move into the root, `sudo`
(and `-u unoclass`) is dropped, and the `unoclass` group is root's. The environment file is the
guide's, with the secret filled in and the machine's own database and Redis. nginx runs with the
guide's site on loopback ports (`-p` the root); requests go through it over HTTPS, checked
against the local CA the guide makes.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.client
import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy_guide import guide_blocks
from tests.support.live import BASE_DIR, LiveApp
from tests.support.servers import RedisServer, free_port, require_binary
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow

HOST = "uno.example-school.fr"


class Root:
    """The temporary root the guide's paths move into."""

    def __init__(self, path: Path) -> None:
        self.path = path
        for directory in ("etc", "run/unoclass", "srv/unoclass/app", "tmp", "logs"):
            (path / directory).mkdir(parents=True, exist_ok=True)

    def moved(self, text: str) -> str:
        """Move the guide's paths under the root; drop sudo; the unoclass group is root's."""
        root = str(self.path)
        moves = {
            "/srv/unoclass/app/staticfiles/": f"{root}/srv/unoclass/app/staticfiles/",
            "/srv/unoclass/app": str(BASE_DIR),
            "/etc/": f"{root}/etc/",
            "/run/unoclass/": f"{root}/run/unoclass/",
            "sudo -E -u unoclass ": "",
            "sudo -u unoclass ": "",
            "sudo ": "",
            "-g unoclass": "-g root",
        }
        # One pass, longest first: a moved path is never moved again.
        pattern = "|".join(re.escape(old) for old in sorted(moves, key=len, reverse=True))
        text = re.sub(pattern, lambda match: moves[match.group(0)], text)
        return text

    def run(self, script: str, env: dict[str, str] | None = None) -> str:
        """Run a shell block (moved) with bash -e; return its output."""
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", self.moved(script)],
            cwd=self.path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{script}\n---\n{done.stdout}\n{done.stderr}"
        return done.stdout + done.stderr


def _limit_files(limit: int) -> None:
    """Set the process's open-file limit as the unit's LimitNOFILE does (up to the hard one)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def read_env(path: Path) -> dict[str, str]:
    """Read an environment file as systemd's EnvironmentFile does (KEY=VALUE lines)."""
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


class _Https(http.client.HTTPSConnection):
    """HTTPS to the loopback port, checking the certificate for the guide's host name."""

    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        self.sock = self._context.wrap_socket(raw, server_hostname=HOST)  # type: ignore[attr-defined]


def https_get(
    port: int, ca: Path, path: str, headers: dict[str, str] | None = None, *, raw: bool = False
) -> Any:
    """GET through nginx; return (status, headers, body: text, or bytes when `raw`)."""
    context = ssl.create_default_context(cafile=str(ca))
    connection = _Https(HOST, port, context=context, timeout=20)
    try:
        connection.request("GET", path, headers={"Host": f"{HOST}:{port}", **(headers or {})})
        response = connection.getresponse()
        body = response.read()
        return response.status, dict(response.getheaders()), body if raw else body.decode()
    finally:
        connection.close()


def first_stream_event(port: int, ca: Path, path: str, headers: dict[str, str]) -> Any:
    """Open an event stream through nginx; return the first event's data, the stream open."""
    context = ssl.create_default_context(cafile=str(ca))
    connection = _Https(HOST, port, context=context, timeout=20)
    try:
        connection.request("GET", path, headers={"Host": f"{HOST}:{port}", **headers})
        response = connection.getresponse()
        assert response.status == 200, response.read()[-2000:]
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        for _ in range(200):  # each read waits at most the connection's 20 s timeout
            line = response.readline().decode()
            if line.startswith("data: "):
                return json.loads(line.removeprefix("data: "))
        raise AssertionError("no event in the stream's first 200 lines")
    finally:
        connection.close()


def wss_first_frame(
    port: int, ca: Path, path: str, origin: str, cookie: str
) -> dict[str, Any] | int:
    """Open a socket through nginx with this Origin; return its first frame, or the refusal's
    HTTP status (the handshake answered without 101)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    context = ssl.create_default_context(cafile=str(ca))
    raw = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        with connect(
            f"wss://{HOST}:{port}{path}",
            sock=raw,
            ssl=context,
            server_hostname=HOST,
            origin=Origin(origin),
            additional_headers={"Cookie": cookie},
            proxy=None,
            open_timeout=20,
        ) as sock:
            return json.loads(sock.recv(timeout=20))  # type: ignore[no-any-return]
    except InvalidStatus as refused:
        return int(refused.response.status_code)
    finally:
        raw.close()


def _accepts(sock_path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.connect(str(sock_path))
        except OSError:
            return False
    return True


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes the test starts (each in its own session), killed with their children.

    nginx's workers outlive a killed master: the whole process group goes.
    """
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def test_the_deploy_guide_runs(tmp_path: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    nginx = require_binary(shutil.which("nginx") or "/usr/sbin/nginx", "nginx")
    blocks = guide_blocks()
    assert set(blocks) >= {"env-file", "env", "prepare", "unit", "tls", "nginx"}, set(blocks)
    root = Root(tmp_path / "root")
    redis = RedisServer()
    try:
        redis.start()
        # 3. The environment file: created as the guide says, filled with its content.
        root.run(blocks["env-file"])
        env_file = root.path / "etc/unoclass/env"
        assert oct(env_file.stat().st_mode & 0o777) == "0o640"
        https_port, http_port = free_port(), free_port()
        content = blocks["env"].replace(
            re.search(r"<output of: .*>", blocks["env"]).group(0),  # type: ignore[union-attr]
            secrets.token_urlsafe(50),
        )
        # The machine's own database and Redis; the static files in the root.
        content += (
            f"\nDATABASE_URL=sqlite:///{root.path}/db.sqlite3\nREDIS_URL={redis.url}\n"
            f"STATIC_ROOT={root.path}/srv/unoclass/app/staticfiles\n"
            f"CSRF_TRUSTED_ORIGINS=https://{HOST}:{https_port}\n"
        )
        env_file.write_text(content)
        env = read_env(env_file)
        assert env["DEBUG"] == "0" and env["TIME_ZONE"] and env["TEACHER_SIGNUP"] == "invitation"
        base_env = {"PATH": os.environ["PATH"], "HOME": str(root.path), "LANG": "C.UTF-8"}

        # 4. Database, translations, static files, checks.
        output = root.run(blocks["prepare"], env=base_env)
        assert "System check identified no issues" in output, output

        # 6. The local certificate authority, offline.
        root.run(blocks["tls"], env=base_env)
        ca = root.path / "etc/unoclass/tls/ca.crt"
        assert (root.path / "etc/unoclass/tls/server.key").stat().st_mode & 0o077 == 0

        # 5. Two daphne processes, from the unit's ExecStart, in its working directory.
        unit = blocks["unit"]
        assert "Wants=postgresql.service redis-server.service" in unit
        assert "Requires=" not in unit.replace("# Wants, not Requires", "")
        exec_start = re.search(r"^ExecStart=(.*)$", unit, flags=re.M).group(1)  # type: ignore[union-attr]
        assert "--proxy-headers" not in exec_start
        # Each open link holds a file descriptor: the unit lifts systemd's default 1024, and
        # the processes below run under its limit (as far as this machine's hard limit goes).
        nofile = int(re.search(r"^LimitNOFILE=(\d+)$", unit, flags=re.M).group(1))  # type: ignore[union-attr]
        assert nofile >= 16384
        app = LiveApp(
            {**env, "DJANGO_SETTINGS_MODULE": "unoclass.settings"},
            test_defaults=False,
            directory=root.path / "live",
        )
        world = app.world(students=["Léa Martin", "Hugo Bernard"], ruleset="fractions", seed=3)
        for index in (1, 2):
            command = root.moved(exec_start.replace("%i", str(index))).split()
            log = open(root.path / f"logs/daphne-{index}.log", "wb")  # noqa: SIM115
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=BASE_DIR,
                    env=app.env,
                    stderr=log,
                    stdout=log,
                    start_new_session=True,
                    preexec_fn=functools.partial(_limit_files, nofile),
                )
            )
            sock = root.path / f"run/unoclass/daphne-{index}.sock"
            wait_until(functools.partial(_accepts, sock), 30, f"daphne {index} on {sock}")

        # 6. nginx with the guide's site, on loopback ports, inside the root.
        site = root.moved(blocks["nginx"])
        assert site.count("X-Forwarded-For $remote_addr;") == 3
        # The fallback's streams: never buffered, kept open (the app's own X-Accel-Buffering
        # would hide a missing line from the request below).
        stream_location = site[site.index("/stream/$ {") : site.index("location / {")]
        for line in ("proxy_buffering off;", "proxy_read_timeout 1h;", "proxy_http_version 1.1;"):
            assert line in stream_location, line
        assert "$proxy_add_x_forwarded_for" not in site and "Host $host;" not in site
        site = site.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
        site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
        conf = root.path / "etc/nginx"
        (conf / "sites-available").mkdir(parents=True)
        (conf / "sites-enabled").mkdir()
        (conf / "sites-available/unoclass").write_text(site)
        (conf / "sites-enabled/unoclass").symlink_to(conf / "sites-available/unoclass")
        temp = root.path / "tmp"
        (conf / "nginx.conf").write_text(
            f"""user root;
worker_processes 1;
pid {root.path}/nginx.pid;
error_log {root.path}/logs/nginx-error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {root.path}/logs/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {conf}/sites-enabled/*;
}}
"""
        )
        nginx_args = [nginx, "-p", f"{root.path}/", "-c", str(conf / "nginx.conf")]
        checked = subprocess.run(
            [*nginx_args, "-t"], capture_output=True, text=True, timeout=60, check=False
        )
        assert checked.returncode == 0, checked.stderr
        assert "test is successful" in checked.stderr
        processes.append(
            subprocess.Popen(
                [*nginx_args, "-g", "daemon off;"],
                stdout=subprocess.DEVNULL,
                stderr=open(root.path / "logs/nginx.log", "wb"),  # noqa: SIM115
                start_new_session=True,
            )
        )
        wait_until(lambda: _port_open(https_port), 30, "nginx to listen")

        # A request through nginx reaches daphne (TLS checked against the local CA).
        status, _headers, body = https_get(https_port, ca, "/healthz")
        assert status == 200, body
        assert json.loads(body)["status"] == "ok"
        # nginx serves the collected static files itself.
        static = https_get(https_port, ca, "/static/js/play/render.js")
        assert static[0] == 200, (root.path / "logs/nginx-error.log").read_text()[-2000:]
        assert "Content-Encoding" not in static[1]
        # Compressed for a browser that accepts it, through a school's proxy too (Via): the
        # .gz collectstatic wrote, the same file once unpacked (docs/performance.md).
        through_proxy = {"Accept-Encoding": "gzip", "Via": "1.1 proxy.school (squid/5.7)"}
        packed = https_get(https_port, ca, "/static/js/play/render.js", through_proxy, raw=True)
        assert packed[1].get("Content-Encoding") == "gzip", packed[1]
        assert packed[1].get("Vary") == "Accept-Encoding"
        assert gzip.decompress(packed[2]).decode() == static[2]
        assert len(packed[2]) < len(static[2].encode()) / 2
        # The port survives: the login cards print the address pupils must type.
        cookie = {"Cookie": f"sessionid={world['teacher_session']}"}
        cards = f"/classrooms/{world['classroom']}/cards/"
        status, _headers, body = https_get(https_port, ca, cards, cookie)
        assert status == 200, body[-2000:]
        assert f"https://{HOST}:{https_port}/join/" in body
        # A spoofed X-Forwarded-For does not change the counted address: every wrong class
        # code (from no cookie) counts in the cookieless bucket of the one address nginx saw.
        limit = int(
            app.script(
                "from lessons.classrooms.sign_in_limit import RULES; import json; "
                "print(json.dumps(RULES['code'].device_limit))"
            )
        )
        for n in range(limit):
            spoofed = {"X-Forwarded-For": f"198.51.100.{n % 250}"}
            assert https_get(https_port, ca, f"/join/QQQ{n:03d}/", spoofed)[0] == 404
        code = world["join_code"]
        fresh = {"X-Forwarded-For": "203.0.113.77"}
        assert https_get(https_port, ca, f"/join/{code}/", fresh)[0] == 403
        # The fallback's event stream passes the guide's stream location at once: its first
        # event, the seat's state, arrives while the response is still open.
        seat = f"sessionid={world['students'][0]['session']}"
        student = {"Cookie": seat}
        first = first_stream_event(https_port, ca, f"/tables/{world['table']}/stream/", student)
        assert first["type"] == "state" and first["view"]["seat"] == 0
        # The socket's Origin behind nginx's TLS: the site's own (https, this host and port)
        # opens the pupil's seat; another scheme or port is refused at the handshake, as a
        # POST's is (issue 32 §7: the host alone let http://host or https://host:9443 in).
        table_path = f"/ws/table/{world['table']}/"
        own = wss_first_frame(https_port, ca, table_path, f"https://{HOST}:{https_port}", seat)
        assert isinstance(own, dict) and own["type"] == "state" and own["view"]["seat"] == 0
        for other in (f"http://{HOST}:{https_port}", f"https://{HOST}:9443", f"https://{HOST}"):
            assert wss_first_frame(https_port, ca, table_path, other, seat) == 403, other
        for index in (1, 2):
            text = (root.path / f"logs/daphne-{index}.log").read_text(errors="replace")
            assert "Traceback" not in text, text[-3000:]
    finally:
        redis.close()


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def test_the_guide_marks_the_blocks_the_test_runs() -> None:
    """Every marked block still exists: a renamed marker fails here, not silently."""
    blocks = guide_blocks()
    for name in ("env-file", "env", "prepare", "unit", "tls", "nginx"):
        assert blocks.get(name), name
    assert time.time() > 0
