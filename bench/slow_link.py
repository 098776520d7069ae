"""Is the play page usable within 3 s on a school's 2 Mb/s link with 100 ms latency? (issue 25)

    .venv/bin/python bench/slow_link.py              # 5 cold and 5 warm loads: about a minute
    .venv/bin/python bench/slow_link.py --loads 10

One daphne with the production settings (DEBUG off, collectstatic's compressed files: the
`.gz` the deploy guide's nginx sends; whitenoise serves them the same way here, `.br` removed so
that gzip is what a browser gets, as from the guide's nginx), a table of four pupils, and
Debian's chromium with its DevTools network throttling (2 Mb/s down and up, 100 ms latency:
tests/e2e/browser/throttle.py, which the browser test uses too). Each load opens the play page
of the seat whose turn it is and waits until it is usable: the hand shown, the socket
connected, a card or the draw button offered (USABLE_JS; the page's own clock, from the start
of navigation). Cold: a new browser context each time (nothing cached: a pupil's first lesson
on that device). Warm: the same page reloaded (static files cached).

Prints each load's time and bytes, and `PASS`/`FAIL`: the slowest cold load within 3 s.
Not part of the tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.browser.conftest import DESKTOP, launched_chromium  # noqa: E402
from tests.e2e.browser.throttle import (  # noqa: E402
    SCHOOL_LINK,
    USABLE_JS,
    acting_seat,
)
from tests.support.live import LiveApp, Server  # noqa: E402

GOAL_MS = 3000.0
PRODUCTION = {
    "DEBUG": "0",
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "SECURE_HSTS_SECONDS": "0",
}


def _load(context: Any, url: str, seat: int, page: Any = None) -> tuple[float, int, Any]:
    """Load (or reload) the play page throttled; return ms to usable, bytes, the page."""
    if page is None:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", SCHOOL_LINK)
        page.bytes = [0]
        session.on(
            "Network.loadingFinished",
            lambda event: page.bytes.__setitem__(0, page.bytes[0] + event["encodedDataLength"]),
        )
        page.goto(url)
    else:
        page.bytes[0] = 0
        page.reload()
    usable = page.wait_for_function(USABLE_JS, arg=seat, timeout=60_000, polling=20)
    return float(usable.json_value()), page.bytes[0], page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    app = LiveApp(PRODUCTION)
    try:
        app.env["STATIC_ROOT"] = str(app.dir / "static")
        app.migrate()
        app.manage("collectstatic", "--noinput")
        for brotli in (app.dir / "static").rglob("*.br"):
            brotli.unlink()
        server = Server(app, app.start())
        world = server.world(students=["Alice", "Bruno", "Chloé", "Dylan"])
        table = world["table"]
        seat = acting_seat(server.table_state(table)[0])
        url = f"{server.url}/tables/{table}/"
        cookies = [
            {"name": "sessionid", "value": world["students"][seat]["session"], "url": server.url},
            {"name": "django_language", "value": "fr", "url": server.url},
        ]
        cold: list[tuple[float, int]] = []
        warm: list[tuple[float, int]] = []
        with sync_playwright() as driver, launched_chromium(driver) as browser:
            for _ in range(args.loads):
                context = browser.new_context(viewport=DESKTOP, locale="fr")
                context.add_cookies(cookies)
                took, size, page = _load(context, url, seat)
                cold.append((took, size))
                took, size, _page = _load(context, url, seat, page)
                warm.append((took, size))
                context.close()
    finally:
        app.close()

    for name, loads in (("cold", cold), ("warm", warm)):
        times = [t for t, _ in loads]
        print(
            f"{name} loads: "
            + ", ".join(f"{t:.0f} ms ({b / 1000:.0f} kB)" for t, b in loads)
            + f"; median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms"
        )
    slowest = max(t for t, _ in cold)
    verdict = "PASS" if slowest <= GOAL_MS else "FAIL"
    print(
        f"{verdict} play page usable within {GOAL_MS / 1000:g} s on 2 Mb/s, 100 ms latency "
        f"(Chromium throttling): slowest cold load {slowest:.0f} ms of {len(cold)}, warm "
        f"median {statistics.median(t for t, _ in warm):.0f} ms; machine load average "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
