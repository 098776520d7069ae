"""Benchmark of the class PDF: the cold render of a class of 30 pupils with a year of plays.

Creates a fresh SQLite database (a file), migrates, generates one class of 30 pupils x about
1,100 attempts over a year (`manage.py generate_attempts`), then, in a fresh process (no
print worker started, nothing cached), asks for the class PDF once through the PDF view: the
cold render (the print workers' start, WeasyPrint's import, the 30 reports' HTML, the PDF:
printed by the pool's workers in parts and joined).
Then the same PDF again from the cache, and once more printed by the started worker with the
cache emptied (a new version). Prints one PASS/FAIL line (goal: the cold render under 5 s) and
information lines. Run by hand:

    .venv/bin/python bench/pdf.py [--attempts 1100]

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from dashboards import _env, _run, machine  # noqa: E402

GOAL_S = 5.0
PUPILS = 30


def measure() -> dict[str, Any]:
    """Time the class PDF in this process: cold, from the cache, printed again warm."""
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client
    from django.test.utils import setup_test_environment

    from lessons.models import Attempt, Classroom
    from lessons.printing import printing

    setup_test_environment()
    classroom = Classroom.objects.get(teacher__username__startswith="bench-teacher-")
    client = Client()
    client.force_login(classroom.teacher)
    url = f"/classrooms/{classroom.pk}/reports/pdf/"
    cache.clear()
    # The machine is shared: the load when the print starts says how far the figure is from
    # a quiet machine's.
    load = os.getloadavg()[0]
    timings = {}
    size = 0
    for label in ("cold", "cached", "printed again"):
        if label == "printed again":
            cache.clear()
        started = time.perf_counter()
        response = client.get(url)
        timings[label] = time.perf_counter() - started
        if response.status_code != 200 or not response.content.startswith(b"%PDF"):
            raise RuntimeError(f"{url} answered {response.status_code}")
        size = len(response.content)
    printing.pool().shutdown()
    return {
        "timings": timings,
        "load": load,
        "bytes": size,
        "pupils": classroom.students.count(),
        "attempts": Attempt.objects.filter(classroom=classroom).count(),
    }


def main() -> None:
    """Build the class, then measure it in a fresh process and print the lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=1100, help="plays per pupil")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    with tempfile.TemporaryDirectory(prefix="unoclass-bench-pdf-") as folder:
        env = _env(f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}")
        python = sys.executable
        print("migrating …", flush=True)
        _run([python, "manage.py", "migrate", "--noinput", "-v0"], env)
        print("generating attempts …", flush=True)
        _run(
            [python, "manage.py", "generate_attempts", "--classes", "1",
             "--students", str(PUPILS), "--attempts", str(args.attempts), "--days", "365"],
            env,
        )  # fmt: skip
        print("printing …", flush=True)
        out = _run([python, __file__, "--measure"], env)
    result = json.loads(out.strip().splitlines()[-1])
    cold = result["timings"]["cold"]
    verdict = "PASS" if cold < GOAL_S else "FAIL"
    print(
        f"{verdict} class PDF of {result['pupils']} pupils ({result['attempts']} attempts), "
        f"cold: {cold:.2f} s (goal < {GOAL_S:.0f} s)"
    )
    print(f"info: from the cache {result['timings']['cached'] * 1000:.0f} ms; printed again "
          f"by the started worker {result['timings']['printed again']:.2f} s; "
          f"{result['bytes'] // 1024} KB")  # fmt: skip
    print(f"info: {machine()}; load average (1 min) at the cold print: {result['load']:.2f}")


if __name__ == "__main__":
    main()
