"""Does the play page stay smooth on a slow phone while the table plays? (issue 30, budget)

    .venv/bin/python bench/play_feel.py              # 20 s of play: about 40 s in all
    .venv/bin/python bench/play_feel.py --seconds 30

One daphne (tests/support/live.py), a table of four seats (a pupil and three robots; robots
play the pupil's seat too, so the table moves by itself), and Debian's chromium at 390×844
with DevTools CPU throttling at 4×. The pupil's play page is watched for `--seconds`: every
long task (PerformanceObserver "longtask", the page's own clock) and the renderer's main
thread busy time (CDP Performance.getMetrics TaskDuration, over the wall time watched).

Prints the states seen, the long tasks, the share of a core, and `PASS`/`FAIL` lines: no long
task over 50 ms; the renderer under 0.3 of a core. Not part of the tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.browser.conftest import PHONE, launched_chromium  # noqa: E402
from tests.support.live import LiveApp, Server  # noqa: E402

LONG_TASK_MS = 50.0
CORE_SHARE = 0.3
CPU_SLOWDOWN = 4
# Robots that play about as fast as children who know the game: a move every 0.6 s.
BOTS = {"GAMES_BOT_DELAY": "0.6", "GAMES_ROUND_PAUSE": "1"}
WATCH_LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""


def _task_seconds(session: object) -> float:
    """Return the renderer main thread's busy time so far (CDP TaskDuration, seconds)."""
    metrics = session.send("Performance.getMetrics")["metrics"]  # type: ignore[attr-defined]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def main() -> int:
    """Watch the play page while robots play; print the figures and PASS or FAIL."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    app = LiveApp(BOTS)
    try:
        app.migrate()
        server = Server(app, app.start())
        world = server.world(students=["Alice"], bots=3, takeover=True)
        table = world["table"]
        url = f"{server.url}/tables/{table}/"
        cookies = [
            {"name": "sessionid", "value": world["students"][0]["session"], "url": server.url},
            {"name": "django_language", "value": "fr", "url": server.url},
        ]
        with sync_playwright() as driver, launched_chromium(driver) as browser:
            context = browser.new_context(viewport=PHONE, locale="fr", is_mobile=True)
            context.add_cookies(cookies)
            page = context.new_page()
            page.add_init_script(WATCH_LONG_TASKS)
            session = context.new_cdp_session(page)
            session.send("Performance.enable")
            session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            page.goto(url)
            page.wait_for_function("Number(document.getElementById('play').dataset.stateId) >= 0")
            first_state = int(page.locator("#play").get_attribute("data-state-id") or 0)
            # Loading is the slow-link bench's: the budget here is the play that follows.
            page.evaluate("window.__longTasks = []")
            busy_before, started = _task_seconds(session), time.monotonic()
            page.wait_for_timeout(args.seconds * 1000)
            busy = _task_seconds(session) - busy_before
            wall = time.monotonic() - started
            long_tasks = [float(d) for d in page.evaluate("window.__longTasks")]
            last_state = int(page.locator("#play").get_attribute("data-state-id") or 0)
            motion = page.locator("#play").get_attribute("data-motion")
            context.close()
    finally:
        app.close()
    share = busy / wall
    worst = max(long_tasks, default=0.0)
    print(
        f"{wall:.1f} s watched at {CPU_SLOWDOWN}x CPU throttling, 390x844, motion {motion}: "
        f"{last_state - first_state} states shown, {len(long_tasks)} long tasks "
        f"(worst {worst:.0f} ms); renderer main thread {busy:.2f} s busy; machine load "
        f"average {os.getloadavg()[0]:.2f}"
    )
    tasks_ok = worst <= LONG_TASK_MS
    share_ok = share < CORE_SHARE
    verdict = "PASS" if tasks_ok else "FAIL"
    print(f"{verdict} no long task over {LONG_TASK_MS:.0f} ms (worst {worst:.0f} ms)")
    print(f"{'PASS' if share_ok else 'FAIL'} renderer under {CORE_SHARE} of a core ({share:.2f})")
    return 0 if tasks_ok and share_ok else 1


if __name__ == "__main__":
    sys.exit(main())
