"""Does the play page stay smooth on a slow phone while the table plays? (issue 30, budget)

    .venv/bin/python bench/play_feel.py              # two runs of 20 s of play: about 80 s
    .venv/bin/python bench/play_feel.py --runs 3 --seconds 30
    .venv/bin/python bench/play_feel.py --weight     # the static weight only (no browser)
    .venv/bin/python bench/play_feel.py --trace      # and what the longest tasks did

One daphne (tests/support/live.py), a table of four seats (a pupil and three robots; robots
play the pupil's seat too, so the table moves by itself), and Debian's chromium at 390×844
with DevTools CPU throttling at 4×. The pupil's play page is watched for `--seconds`, `--runs`
times (a new server, table and browser each run): every long task (PerformanceObserver
"longtask", the page's own clock) and the renderer's main thread busy time (CDP
Performance.getMetrics TaskDuration, over the wall time watched).

The static weight: the JS and CSS the play page loads (templates/base.html and
templates/games/play.html's `{% static %}` files and every module they import), each
compressed as served (gzip level 9, collectstatic's `.gz` the deploy guide's nginx sends;
brotli beside it), against the same page at BASELINE, the commit before issue 30's table
rework (the play page before static/css/play-table.css). The browser run checks that the page
loaded exactly the files counted.

With `--trace`, one more run records a Chromium trace (the DevTools timeline categories) and
prints the longest tasks of the page's main thread: their wall time and their own CPU time
(the trace's `tdur`: a long wall time over a short CPU time is the shared machine's queue,
not the page's work), with the longest events inside (layout, style, script). Tracing costs
time itself: the PASS/FAIL figures are the runs without it.

Prints the states seen, the long tasks (worst and 95th percentile over all runs), the share of
a core, the weight, the machine's load, and `PASS`/`FAIL` lines: no long task over 50 ms; the
renderer under 0.3 of a core; the static weight at most 1.5× the baseline's. Not part of the
tests.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.browser.conftest import PHONE, launched_chromium  # noqa: E402
from tests.support.live import LiveApp, Server  # noqa: E402

LONG_TASK_MS = 50.0
CORE_SHARE = 0.3
CPU_SLOWDOWN = 4
WEIGHT_FACTOR = 1.5
# The play page before issue 30's rework (66fb5a5 added static/css/play-table.css).
BASELINE = "65588e3"
PAGE_TEMPLATES = ("templates/base.html", "templates/games/play.html")
STATIC_REF = re.compile(r"""\{%\s*static\s+['"]([^'"]+\.(?:js|css))['"]\s*%\}""")
JS_IMPORT = re.compile(r"""^\s*import\s(?:[^;]*?\sfrom\s+)?["'](\.{1,2}/[^"']+)["']""", re.M)
CSS_IMPORT = re.compile(r"""@import\s+(?:url\()?["']([^"']+)["']""")
# Robots that play about as fast as children who know the game: a move every 0.6 s.
BOTS = {"GAMES_BOT_DELAY": "0.6", "GAMES_ROUND_PAUSE": "1"}
WATCH_LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""
LOADED_STATIC = """
performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
  .filter((p) => /\\.(js|css)$/.test(p))
"""


def _read(commit: str | None, path: str) -> bytes:
    """Return a file of the tree (commit None) or of a commit."""
    if commit is None:
        return (ROOT / path).read_bytes()
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:{path}"], check=True, capture_output=True
    )
    return shown.stdout


def play_assets(commit: str | None = None) -> dict[str, bytes]:
    """Return the play page's JS and CSS files (path under the repository: contents)."""
    found: dict[str, bytes] = {}
    todo = [
        f"static/{ref}"
        for template in PAGE_TEMPLATES
        for ref in STATIC_REF.findall(_read(commit, template).decode())
    ]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found[path] = body = _read(commit, path)
        pattern = JS_IMPORT if path.endswith(".js") else CSS_IMPORT
        for ref in pattern.findall(body.decode()):
            todo.append(os.path.normpath(Path(path).parent / ref))
    return found


def weight(commit: str | None = None) -> tuple[int, int, int]:
    """Return the play page's static weight: raw, gzip (as served) and brotli bytes."""
    files = play_assets(commit).values()
    return (
        sum(len(body) for body in files),
        sum(len(gzip.compress(body, 9)) for body in files),
        sum(len(brotli.compress(body)) for body in files),
    )


def weight_line() -> bool:
    """Print the static weight now and at BASELINE, and its PASS/FAIL line."""
    now, before = weight(), weight(BASELINE)
    ratio = now[1] / before[1]
    print(
        f"static weight (JS+CSS, {len(play_assets())} files; {BASELINE}: "
        f"{len(play_assets(BASELINE))}): gzip {now[1] / 1000:.1f} kB vs {before[1] / 1000:.1f} kB, "
        f"brotli {now[2] / 1000:.1f} kB vs {before[2] / 1000:.1f} kB, "
        f"raw {now[0] / 1000:.1f} kB vs {before[0] / 1000:.1f} kB"
    )
    ok = ratio <= WEIGHT_FACTOR
    print(
        f"{'PASS' if ok else 'FAIL'} static weight at most {WEIGHT_FACTOR}x {BASELINE}'s "
        f"({ratio:.2f}x gzip, {now[2] / before[2]:.2f}x brotli)"
    )
    return ok


def _task_seconds(session: Any) -> float:
    """Return the renderer main thread's busy time so far (CDP TaskDuration, seconds)."""
    metrics = session.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel"]
INSIDE = {
    "FunctionCall",
    "EvaluateScript",
    "UpdateLayoutTree",
    "Layout",
    "Paint",
    "ParseHTML",
    "RunMicrotasks",
    "TimerFire",
    "EventDispatch",
    "FireAnimationFrame",
    "HitTest",
    "PrePaint",
    "Layerize",
    "UpdateLayer",
    "v8.compile",
    "MajorGC",
    "MinorGC",
    "V8.GC_SCAVENGER",
    "V8.GC_MARK_COMPACTOR",
    "IntersectionObserverController::computeIntersections",
}


def _event_name(event: dict[str, Any]) -> str:
    """Return a trace event's name, with the function's for a script call."""
    data = event.get("args", {}).get("data") or {}
    if event["name"] == "FunctionCall":
        where = (
            data.get("functionName")
            or f"{Path(str(data.get('url', ''))).name}:{data.get('lineNumber', '')}"
        )
        return f"FunctionCall {where}"
    return str(event["name"])


def trace_tasks(trace: bytes, threshold_ms: float = LONG_TASK_MS) -> list[str]:
    """Return a line for each of the page's main-thread tasks over threshold_ms (wall)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    on_main = [e for e in events if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X"]
    tasks = [
        e
        for e in on_main
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")
        and e.get("dur", 0) > threshold_ms * 1000
    ]
    lines: list[str] = []
    shown: list[tuple[int, int]] = []
    for task in sorted(tasks, key=lambda e: -e["dur"]):
        start, end = task["ts"], task["ts"] + task["dur"]
        # A task nested in one already shown (RunTask inside ThreadControllerImpl::RunTask).
        if any(a <= start and end <= b for a, b in shown) or len(lines) == 8:
            continue
        shown.append((start, end))
        inner = [
            e
            for e in on_main
            if e["name"] in INSIDE
            and start <= e["ts"]
            and e["ts"] + e.get("dur", 0) <= end
            and (e["pid"], e["tid"]) == (task["pid"], task["tid"])
        ]
        inner.sort(key=lambda e: -e.get("tdur", e.get("dur", 0)))
        parts = [
            f"{_event_name(e)} {e.get('dur', 0) / 1000:.0f}/{e.get('tdur', 0) / 1000:.0f}"
            for e in inner[:4]
        ]
        lines.append(
            f"  task {task['dur'] / 1000:.0f} ms wall, {task.get('tdur', 0) / 1000:.0f} ms CPU; "
            f"inside, "
            f"wall/CPU ms: {', '.join(parts) or 'nothing traced'}"
        )
    return lines


def watch(server: Server, seconds: float, trace: bool = False) -> dict[str, Any]:
    """Watch one new table's play page for `seconds`: its long tasks, busy time, states."""
    world = server.world(students=["Alice"], bots=3, takeover=True)
    url = f"{server.url}/tables/{world['table']}/"
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
        loaded = sorted({path.removeprefix("/") for path in page.evaluate(LOADED_STATIC)})
        # Loading is the slow-link bench's: the budget here is the play that follows.
        page.evaluate("window.__longTasks = []")
        if trace:
            browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        load_before = os.getloadavg()[0]
        busy_before, started = _task_seconds(session), time.monotonic()
        page.wait_for_timeout(seconds * 1000)
        busy = _task_seconds(session) - busy_before
        wall = time.monotonic() - started
        traced = browser.stop_tracing() if trace else b""
        long_tasks = [float(d) for d in page.evaluate("window.__longTasks")]
        last_state = int(page.locator("#play").get_attribute("data-state-id") or 0)
        motion = page.locator("#play").get_attribute("data-motion")
        context.close()
    return {
        "wall": wall,
        "busy": busy,
        "tasks": long_tasks,
        "states": last_state - first_state,
        "motion": motion,
        "loaded": loaded,
        "load": (load_before + os.getloadavg()[0]) / 2,
        "trace": trace_tasks(traced) if trace else [],
    }


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile of values (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def main() -> int:
    """Watch the play page while robots play; print the figures and PASS or FAIL."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--weight", action="store_true", help="the static weight only")
    parser.add_argument("--trace", action="store_true", help="a trace run after the runs")
    args = parser.parse_args()
    weight_ok = weight_line()
    if args.weight:
        return 0 if weight_ok else 1
    runs = []
    for number in range(args.runs + (1 if args.trace else 0)):
        traced = number == args.runs
        # A server of its own each run: an earlier run's table would still be playing.
        app = LiveApp(BOTS)
        try:
            app.migrate()
            run = watch(Server(app, app.start()), args.seconds, trace=traced)
        finally:
            app.close()
        if traced:
            print(
                f"traced run (not counted): {len(run['tasks'])} long tasks, machine load "
                f"{run['load']:.1f}; the longest:"
            )
            print("\n".join(run["trace"]) or "  none over 50 ms")
            continue
        runs.append(run)
        print(
            f"run {len(runs)}: {run['wall']:.1f} s watched at {CPU_SLOWDOWN}x CPU throttling, "
            f"390x844, motion {run['motion']}: {run['states']} states shown, "
            f"{len(run['tasks'])} long tasks (worst {max(run['tasks'], default=0):.0f} ms); "
            f"renderer {run['busy'] / run['wall']:.2f} core; machine load {run['load']:.1f}"
        )
    counted = sorted(str(Path(path).relative_to("static")) for path in play_assets())
    served = sorted(
        {
            re.sub(r"\.[0-9a-f]{12}\.", ".", p.removeprefix("static/"))
            for r in runs
            for p in r["loaded"]
        }
    )
    if served != counted:
        print(f"FAIL the page loaded other static files than counted: {served} vs {counted}")
        weight_ok = False
    tasks = [task for run in runs for task in run["tasks"]]
    worst, p95 = max(tasks, default=0.0), percentile(tasks, 0.95)
    share = max(run["busy"] / run["wall"] for run in runs)
    tasks_ok, share_ok = worst <= LONG_TASK_MS, share < CORE_SHARE
    print(
        f"{'PASS' if tasks_ok else 'FAIL'} no long task over {LONG_TASK_MS:.0f} ms "
        f"({len(runs)} runs: {len(tasks)} long tasks, worst {worst:.0f} ms, 95th percentile "
        f"{p95:.0f} ms)"
    )
    print(
        f"{'PASS' if share_ok else 'FAIL'} renderer under {CORE_SHARE} of a core "
        f"(worst run {share:.2f})"
    )
    return 0 if tasks_ok and share_ok and weight_ok else 1


if __name__ == "__main__":
    sys.exit(main())
