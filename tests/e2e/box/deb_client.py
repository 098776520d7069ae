"""The test request to the installed .deb, run by the Debian root's own python3 (stdlib only).

`python3 deb_client.py HOST USER PASSWORD` inside the root, while the unit's daphne and nginx
run there: through nginx over HTTPS (the certificate checked against the package's local CA),
it reads /healthz, the sign-in page and its style sheet (nginx's static files), signs the
teacher in, opens the class and prints the class's PDF report (the print workers). Prints one
JSON object of what it saw; tests/e2e/box/test_deb.py judges it.
"""

from __future__ import annotations

import http.client
import http.cookies
import json
import re
import socket
import ssl
import sys
import urllib.parse

CA = "/etc/unoclass/tls/ca.crt"


class Site:
    """HTTP(S) to this machine's nginx for one host name, keeping the session's cookies."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.cookies: dict[str, str] = {}
        self.context = ssl.create_default_context(cafile=CA)

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, *, tls: bool = True
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one request (no redirect followed); return status, headers, body."""
        raw = socket.create_connection(("127.0.0.1", 443 if tls else 80), timeout=60)
        if tls:
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self.host, 443, context=self.context, timeout=60
            )
            connection.sock = self.context.wrap_socket(raw, server_hostname=self.host)
        else:
            connection = http.client.HTTPConnection(self.host, 80, timeout=60)
            connection.sock = raw
        headers = {"Host": self.host}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://{self.host}"
            headers["Referer"] = f"https://{self.host}{path}"
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            content = response.read()
            for value in response.headers.get_all("Set-Cookie") or []:
                cookie = http.cookies.SimpleCookie(value)
                self.cookies.update({k: m.value for k, m in cookie.items()})
            return response.status, dict(response.getheaders()), content
        finally:
            connection.close()


def find(
    site: Site, path: str, pattern: str, seen: dict[str, object], status_key: str, key: str
) -> re.Match[str] | None:
    """GET a page; note its status and what `pattern` found in it (else the page's end)."""
    status, _, body = site.request("GET", path)
    page = body.decode(errors="replace")
    found = re.search(pattern, page)
    seen[status_key] = status
    seen[key] = found.group(1) if found else page[-2000:]
    return found


def main() -> None:
    host, user, password = sys.argv[1:4]
    site = Site(host)
    seen: dict[str, object] = {}
    status, headers, _ = site.request("GET", "/login/", tls=False)
    seen["http"] = [status, headers.get("Location", "")]
    status, _, body = site.request("GET", "/healthz")
    seen["healthz"] = [status, json.loads(body) if status in (200, 503) else body[-300:].decode()]
    sheet = find(site, "/login/", r'href="(/static/[^"]+\.css)"', seen, "login", "sheet")
    if sheet:
        status, headers, body = site.request("GET", sheet.group(1))
        seen["sheet_status"] = [status, headers.get("Cache-Control", ""), len(body)]
    token = site.cookies.get("csrftoken", "")
    status, headers, _ = site.request(
        "POST",
        "/login/",
        {"username": user, "password": password, "csrfmiddlewaretoken": token},
    )
    seen["sign_in"] = [status, headers.get("Location", "")]
    classroom = find(site, "/", r'href="/classrooms/(\d+)/"', seen, "home", "classroom")
    if classroom:
        status, headers, body = site.request(
            "GET", f"/classrooms/{classroom.group(1)}/reports/pdf/"
        )
        seen["pdf"] = [status, headers.get("Content-Type", ""), body[:5].decode(errors="replace")]
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
