"""What stands between a school's browsers and unoclass, for the network tests: real proxies.

- `Squid`: Debian's squid as the browser's forward proxy, in Debian's default configuration
  (`DEFAULT_SQUID_CONF`, changed only where a test must run it unprivileged in a temporary
  directory). Like the académies' Squid-based filters, it refuses a `CONNECT` to any port but
  443 and does not forward `Upgrade`: a `ws://` socket through it cannot open.
- `Nginx`: the deploy guide's nginx site (docs/deploy.md) in front of daphne, plain HTTP on a
  loopback port, optionally WITHOUT the `Upgrade`/`Connection` headers (as a site copied from
  an old guide, or a proxy in between that drops them): the socket's handshake fails there.
- `CuttingProxy`: a TCP proxy that cuts every connection a fixed time after it opened
  (tests/support/cutting_proxy.py), as a filter's session timer does.

Each runs as its own process (its own process group: helpers and workers go with it), on a free
loopback port, with a deadline on its start; `close` kills it and removes its files. A missing
binary fails the test, naming the Debian package (tests/support/servers.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Self

from tests.support.deploy_guide import guide_blocks
from tests.support.live import BASE_DIR
from tests.support.servers import free_port, require_binary, wait_for_port
from tests.support.waiting import wait_until

SQUID_USER = "proxy"  # Debian's cache_effective_user: squid started as root runs as it

# Debian 12's /etc/squid/squid.conf (squid 5.7) without its comments, with
# /etc/squid/conf.d/debian.conf (its one setting, `logfile_rotate 0`) in place of the include.
# The access rules are the default's, untouched: localhost may use the proxy, CONNECT only to
# port 443 (`http_access deny CONNECT !SSL_ports`), no `Upgrade` forwarded (squid's default:
# no `http_upgrade_request_protocols` line). tests/e2e/network/test_socket_through_proxies.py
# checks that every line of the installed default is here (a new squid's default would show).
DEFAULT_SQUID_CONF = """\
acl localnet src 0.0.0.1-0.255.255.255	# RFC 1122 "this" network (LAN)
acl localnet src 10.0.0.0/8		# RFC 1918 local private network (LAN)
acl localnet src 100.64.0.0/10		# RFC 6598 shared address space (CGN)
acl localnet src 169.254.0.0/16 	# RFC 3927 link-local (directly plugged) machines
acl localnet src 172.16.0.0/12		# RFC 1918 local private network (LAN)
acl localnet src 192.168.0.0/16		# RFC 1918 local private network (LAN)
acl localnet src fc00::/7       	# RFC 4193 local private network range
acl localnet src fe80::/10      	# RFC 4291 link-local (directly plugged) machines
acl SSL_ports port 443
acl Safe_ports port 80		# http
acl Safe_ports port 21		# ftp
acl Safe_ports port 443		# https
acl Safe_ports port 70		# gopher
acl Safe_ports port 210		# wais
acl Safe_ports port 1025-65535	# unregistered ports
acl Safe_ports port 280		# http-mgmt
acl Safe_ports port 488		# gss-http
acl Safe_ports port 591		# filemaker
acl Safe_ports port 777		# multiling http
http_access deny !Safe_ports
http_access deny CONNECT !SSL_ports
http_access allow localhost manager
http_access deny manager
logfile_rotate 0
http_access allow localhost
http_access deny all
http_port 3128
coredump_dir /var/spool/squid
refresh_pattern ^ftp:		1440	20%	10080
refresh_pattern ^gopher:	1440	0%	1440
refresh_pattern -i (/cgi-bin/|\\?) 0	0%	0
refresh_pattern .		0	20%	4320
"""


def squid_conf(port: int, directory: Path) -> str:
    """Return the default configuration, changed only to run in `directory` on `port`.

    The lines that differ from Debian's default, and why:
    - `http_port 127.0.0.1:PORT` instead of `http_port 3128`: a free loopback port (several
      test runs may share the machine; nothing else should reach it);
    - `coredump_dir`, and the added `pid_filename`, `access_log`, `cache_log`: in the temporary
      directory instead of /var/spool/squid, /run and /var/log/squid (root's, shared with a
      system squid);
    - the added `netdb_filename none`: the default keeps it in /var/spool/squid too.
    Nothing else: the same ACLs, no cache_dir (the default caches in memory only).
    """
    conf = DEFAULT_SQUID_CONF.replace("http_port 3128", f"http_port 127.0.0.1:{port}")
    conf = conf.replace("coredump_dir /var/spool/squid", f"coredump_dir {directory}")
    return conf + (
        f"pid_filename {directory}/squid.pid\n"
        f"access_log stdio:{directory}/access.log\n"
        f"cache_log {directory}/cache.log\n"
        "netdb_filename none\n"
    )


class _Process:
    """A server process on a loopback `port`, in its own process group, its output in a file
    of its directory `dir`; a context manager: started on entry, closed on exit.

    A subclass says what to run (`_command`) and may check its configuration first (`_check`).
    """

    dir: Path
    port: int
    log_name: str
    cwd: Path | None = None  # None: its own directory
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Return the process's address: a proxy setting, or the base address of the site."""
        return f"http://127.0.0.1:{self.port}"

    def _check(self) -> None:
        """Check the configuration before the start (nothing to check by default)."""

    def _command(self) -> list[str]:
        """Return the command that runs the server in the foreground."""
        raise NotImplementedError

    def start(self) -> None:
        """Check the configuration, start the process and wait until it accepts."""
        self._check()
        log = open(self.dir / self.log_name, "ab")  # noqa: SIM115 (the child holds it; closed here)
        try:
            process = subprocess.Popen(
                self._command(),
                cwd=self.cwd or self.dir,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        self.process = process
        try:
            wait_for_port(self.port, process, 30)
        except Exception:
            self.close()
            raise

    def _lines(self, name: str) -> list[str]:
        """Return the lines of one of the process's files (none before it is written)."""
        path = self.dir / name
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    def stop(self) -> None:
        """Kill the whole process group at once (SIGKILL: nothing of it is worth keeping)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def close(self) -> None:
        """Stop the process and remove its directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_config(command: list[str]) -> None:
    """Run a server's configuration check; fail with its complaint."""
    checked = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stderr[-3000:]


class Squid(_Process):
    """Debian's squid in its default configuration on a loopback port (`url`)."""

    log_name = "squid.out"

    def __init__(self) -> None:
        self.binary = require_binary(shutil.which("squid") or "/usr/sbin/squid", "squid")
        self.dir = Path(tempfile.mkdtemp(prefix="unoclass-squid-"))
        self.port = free_port()
        # A service name of its own: squid names its shared memory segments after it.
        self.name = f"unoclass{self.port}"
        if os.geteuid() == 0:  # squid started as root drops to `proxy`, which writes the logs
            shutil.chown(self.dir, user=SQUID_USER, group=SQUID_USER)
        (self.dir / "squid.conf").write_text(squid_conf(self.port, self.dir))

    def _check(self) -> None:
        _check_config([self.binary, "-k", "parse", "-f", str(self.dir / "squid.conf")])

    def _command(self) -> list[str]:
        # In the foreground (-N: no daemon).
        return [self.binary, "-N", "-n", self.name, "-f", str(self.dir / "squid.conf")]

    def access_log(self) -> list[str]:
        """Return the access log's lines (squid's native format: time, …, result, method, URL)."""
        return self._lines("access.log")

    def requests(self, result: str = "", method: str = "") -> list[str]:
        """Return the logged requests whose result (`TCP_DENIED`…) and method match."""
        found = []
        for line in self.access_log():
            fields = line.split()
            if len(fields) >= 7 and result in fields[3] and (not method or fields[5] == method):
                found.append(line)
        return found

    def close(self) -> None:
        """Stop squid, remove its directory and its shared memory segments."""
        super().close()
        for segment in Path("/dev/shm").glob(f"{self.name}-*"):
            segment.unlink(missing_ok=True)


def site_for_tests(
    daphne_ports: Iterable[int], port: int, *, upgrade: bool = True, site: str | None = None
) -> str:
    """Return the deploy guide's nginx site, served over plain HTTP on a loopback port.

    The changes: the HTTPS server listens on `127.0.0.1:port` without TLS (the browser tests
    do not carry the local CA), the port-80 redirect server goes, the upstream is the test's
    daphne processes on TCP ports, the static files come from the source tree (DEBUG serves
    them uncollected). With `upgrade=False`, the `Upgrade` and `Connection` headers are
    dropped too: nginx then opens a plain HTTP request to daphne and the handshake fails.
    """
    text = site if site is not None else guide_blocks()["nginx"]
    text = re.sub(r"\nserver \{\n    listen 80;.*?\n\}\n", "\n", text, flags=re.S)
    assert "listen 80;" not in text, "the guide's redirect server changed shape"
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    text = re.sub(r"\n\s*ssl_certificate(_key)? [^\n]*;", "", text)
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in daphne_ports)
    text = re.sub(r"(    server unix:[^\n]*;\n)+", servers, text)
    text = text.replace("/srv/unoclass/app/staticfiles/", f"{BASE_DIR}/static/")
    if not upgrade:
        before = text
        text = re.sub(r"\n\s*proxy_set_header (Upgrade|Connection) [^\n]*;", "", text)
        assert text != before, "the guide's site has no Upgrade header to drop"
    return text


class Nginx(_Process):
    """nginx with the deploy guide's site (`site_for_tests`) in front of daphne processes."""

    log_name = "nginx.out"

    def __init__(self, daphne_ports: Iterable[int], *, upgrade: bool = True) -> None:
        self.binary = require_binary(shutil.which("nginx") or "/usr/sbin/nginx", "nginx")
        self.dir = Path(tempfile.mkdtemp(prefix="unoclass-nginx-"))
        self.port = free_port()
        self.site = site_for_tests(daphne_ports, self.port, upgrade=upgrade)
        temp = self.dir / "tmp"
        temp.mkdir()
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.dir / "nginx.conf").write_text(
            f"""{user}worker_processes 1;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
events {{ worker_connections 256; }}
http {{
    # As Debian's /etc/nginx/nginx.conf: without the types, scripts go as octet-stream and
    # the browser refuses to run the page's modules.
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {self.dir}/access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{self.site}
}}
"""
        )

    def _arguments(self) -> list[str]:
        return [self.binary, "-p", f"{self.dir}/", "-c", str(self.dir / "nginx.conf")]

    def _check(self) -> None:
        _check_config([*self._arguments(), "-t"])

    def _command(self) -> list[str]:
        return [*self._arguments(), "-g", "daemon off;"]

    def access_log(self) -> list[str]:
        """Return the access log's lines (combined format)."""
        return self._lines("access.log")


class CuttingProxy(_Process):
    """A TCP proxy that cuts every connection `cut_after` seconds after it opened.

    It sits where the network's filter would (the browser talks to `url` as to the server).
    `cuts()` counts the connections it has cut so far: tests wait on it, not on the clock.
    """

    log_name = "events.log"
    cwd = BASE_DIR  # where `python -m tests.support.cutting_proxy` finds the module

    def __init__(self, target_port: int, cut_after: float = 30.0) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="unoclass-cut-"))
        self.port = free_port()
        self.target_port = target_port
        self.cut_after = cut_after

    def _command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "tests.support.cutting_proxy",
            "--port",
            str(self.port),
            "--to",
            f"127.0.0.1:{self.target_port}",
            "--cut-after",
            str(self.cut_after),
        ]

    def events(self) -> list[str]:
        """Return the proxy's event lines (`open N`, `cut N`, `closed N`)."""
        return self._lines("events.log")

    def cuts(self) -> int:
        """Return how many connections the proxy has cut."""
        return sum(1 for line in self.events() if line.startswith("cut "))

    def go_down(self) -> None:
        """Cut every connection now and every new one until `come_up` (SIGUSR1)."""
        self._signal(signal.SIGUSR1, "down")

    def come_up(self) -> None:
        """Let connections through again (SIGUSR2)."""
        self._signal(signal.SIGUSR2, "up")

    def _signal(self, number: int, line: str) -> None:
        """Send the proxy a signal; wait until it says it took effect."""
        before = self.events().count(line)
        assert self.process is not None
        self.process.send_signal(number)
        wait_until(lambda: self.events().count(line) > before, 10, f"the proxy to say {line!r}")

    def wait_cuts(self, count: int, timeout: float) -> int:
        """Wait until the proxy has cut at least `count` connections; return the count."""
        return wait_until(
            lambda: self.cuts() if self.cuts() >= count else 0,
            timeout,
            f"the proxy to cut {count} connections",
        )
