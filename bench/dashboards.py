"""Scale benchmark of the dashboards: 1,000,000 attempts, SQLite and PostgreSQL.

For each database it creates a fresh one (a file for SQLite; a throwaway cluster started with
Debian's initdb/pg_ctl on a free loopback port for PostgreSQL), migrates, generates 30 classes
x 30 students x about 1,100 attempts over a year (`manage.py generate_attempts`), then renders
the class dashboard, the teacher's student page and the printable student report with the
Django test client, several times each, and prints median and p95 times with one line per
goal beginning PASS or FAIL (goal: p95 under 300 ms). Run by hand:

    .venv/bin/python bench/dashboards.py [--only sqlite|postgresql] [--classes 30] [--write-doc]

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
GOAL_MS = 300.0
PAGES = ("class dashboard", "student page", "student report")
GOAL_PAGES = ("class dashboard", "student report")
DOC = ROOT / "docs" / "performance-dashboards.md"


def free_port() -> int:
    """Ask the kernel for a free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "unoclass.settings_test",
        "DATABASE_URL": database_url,
        "DEBUG": "",
        "PYTHONPATH": str(ROOT),
    }


def _run(cmd: list[str], env: dict[str, str] | None = None, **kwargs: Any) -> str:
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


class Postgres:
    """A throwaway PostgreSQL cluster in a temporary directory (as user postgres under root)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="unoclass-bench-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            # initdb refuses to run as root: run the cluster as the postgres system user.
            shutil.chown(self.dir, user="postgres", group="postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def start(self) -> str:
        """Create and start the cluster; return its DATABASE_URL."""
        _run([*self.as_user, str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust",
              "-U", "bench", "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} "
            # Loading speed only: the generated data can always be generated again.
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        _run([*self.as_user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options,
              "-l", str(self.dir / "log"), "-w", "start"])  # fmt: skip
        _run([*self.as_user, str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p",
              str(self.port), "-U", "bench", "unoclass"])  # fmt: skip
        return f"postgres://bench@127.0.0.1:{self.port}/unoclass"

    def version(self) -> str:
        """Return the server version."""
        return _run([str(PG_BIN / "postgres"), "--version"]).strip()

    def stop(self) -> None:
        """Stop the cluster and delete its files."""
        subprocess.run(
            [*self.as_user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop"],
            capture_output=True,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


def measure(repeat: int) -> dict[str, Any]:
    """Render each page `repeat` times (after a warm-up) in this process; return timings."""
    # The app as daphne loads it (unoclass.asgi sets Django up), its collector settings too.
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    import unoclass.asgi  # noqa: F401
    from lessons.models import Attempt, Classroom

    setup_test_environment()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # What autovacuum does on a live server after a bulk load.
            cursor.execute("ANALYZE")
    classrooms = list(Classroom.objects.filter(teacher__username__startswith="bench-teacher-"))
    targets = []
    for classroom in classrooms:
        student = classroom.students.order_by("id")[len(targets) % 30]
        targets.append((classroom, student))
    timings: dict[str, list[float]] = {page: [] for page in PAGES}
    cpu: dict[str, list[float]] = {page: [] for page in PAGES}
    sizes: dict[str, int] = {}
    for index in range(repeat + 2):
        classroom, student = targets[index % len(targets)]
        client = Client()
        client.force_login(classroom.teacher)
        urls = {
            "class dashboard": f"/classrooms/{classroom.pk}/dashboard/",
            "student page": f"/classrooms/{classroom.pk}/dashboard/students/{student.pk}/",
            "student report": f"/classrooms/{classroom.pk}/reports/{student.pk}/",
        }
        for page, url in urls.items():
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            elapsed = (time.perf_counter() - started) * 1000
            elapsed_cpu = (time.process_time() - started_cpu) * 1000
            if response.status_code != 200:
                raise RuntimeError(f"{url} answered {response.status_code}")
            sizes[page] = len(response.content)
            if index >= 2:  # the first two rounds warm caches and imports
                timings[page].append(elapsed)
                cpu[page].append(elapsed_cpu)
    return {
        "vendor": connection.vendor,
        "attempts": Attempt.objects.count(),
        "classes": len(classrooms),
        "timings": timings,
        "cpu": cpu,
        "sizes": sizes,
    }


def p95(values: list[float]) -> float:
    """Return the 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def run_database(label: str, database_url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Migrate, generate and measure one database in child processes."""
    env = _env(database_url)
    python = sys.executable
    print(f"[{label}] migrating …", flush=True)
    _run([python, "manage.py", "migrate", "--noinput", "-v0"], env)
    print(f"[{label}] generating attempts …", flush=True)
    started = time.monotonic()
    out = _run(
        [python, "manage.py", "generate_attempts", "--classes", str(args.classes),
         "--students", "30", "--attempts", "1100", "--days", "365"],
        env,
    )  # fmt: skip
    generated_s = time.monotonic() - started
    print(f"[{label}] {out.strip()}", flush=True)
    print(f"[{label}] rendering …", flush=True)
    out = _run([python, __file__, "--measure", str(args.repeat)], env)
    result = json.loads(out.strip().splitlines()[-1])
    result["generate_s"] = generated_s
    result["label"] = label
    return result


def machine() -> str:
    """Describe the machine: CPU, cores, memory, OS, Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = next(
            int(line.split()[1])
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        )
        memory = f"{mem_kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, StopIteration):
        memory = "unknown RAM"
    import sqlite3

    return (
        f"{cpu}, {os.cpu_count()} cores, {memory}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}; SQLite {sqlite3.sqlite_version}"
    )


def report(results: list[dict[str, Any]], extra: list[str]) -> list[str]:
    """Return the summary lines (figures, then one PASS/FAIL line per goal)."""
    lines = []
    for result in results:
        lines.append(
            f"{result['label']}: {result['attempts']:,} attempts in {result['classes']} classes "
            f"(generated in {result['generate_s']:.0f} s)"
        )
        for page in PAGES:
            values = result["timings"][page]
            lines.append(
                f"  {page:<16} median {statistics.median(values):6.1f} ms   "
                f"p95 {p95(values):6.1f} ms   (n={len(values)}, "
                f"{result['sizes'][page] // 1024} KiB; Django process CPU median "
                f"{statistics.median(result['cpu'][page]):.1f} ms)"
            )
    for result in results:
        for page in GOAL_PAGES:
            worst = p95(result["timings"][page])
            verdict = "PASS" if worst < GOAL_MS else "FAIL"
            lines.append(
                f"{verdict} {result['label']} {page}: p95 {worst:.1f} ms < {GOAL_MS:.0f} ms"
            )
    return extra + lines


def write_doc(lines: list[str]) -> None:
    """Write the last output into docs/performance-dashboards.md (keeping the method notes)."""
    marker = "<!-- last-run -->"
    text = DOC.read_text() if DOC.exists() else f"# Dashboard performance\n\n{marker}\n"
    head = text.split(marker)[0]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    body = "\n".join(lines)
    DOC.write_text(f"{head}{marker}\n\nLast run: {stamp}\n\n```\n{body}\n```\n")


def main() -> None:
    """Run the benchmark (or, with --measure, time the pages in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--classes", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--write-doc", action="store_true")
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    results = []
    extra = [f"Machine: {machine()}"]
    load_before = os.getloadavg()
    if args.only in (None, "sqlite"):
        workdir = Path(tempfile.mkdtemp(prefix="unoclass-bench-sqlite-"))
        try:
            results.append(run_database("SQLite", f"sqlite:///{workdir}/db.sqlite3", args))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.only in (None, "postgresql"):
        cluster = Postgres()
        try:
            url = cluster.start()
            extra.append(f"PostgreSQL: {cluster.version()}")
            results.append(run_database("PostgreSQL", url, args))
        finally:
            cluster.stop()
    load_after = os.getloadavg()
    extra.append(f"Load average (1 min) before/after: {load_before[0]:.2f} / {load_after[0]:.2f}")
    lines = report(results, extra)
    print("\n".join(lines))
    if args.write_doc:
        write_doc(lines)


if __name__ == "__main__":
    main()
