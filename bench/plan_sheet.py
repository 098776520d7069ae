"""Benchmark of a group plan's A4 sheet: a group of 6 with its three wrong pairs, to PDF.

Builds the sheet's HTML from unsaved objects (no database) and renders it with WeasyPrint,
cold (its import and the fonts' first load included) then warm. Prints one PASS/FAIL line
(goal: the cold render under 3 s) and an information line. Run by hand:

    .venv/bin/python bench/plan_sheet.py

Not part of the test suite (the one-page, A4 and language checks are:
tests/lessons/plans/test_views.py).
"""

from __future__ import annotations

import os
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOAL_S = 3.0


def main() -> None:
    """Print the sheet's render times."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoclass.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from django.template.loader import render_to_string
    from django.utils import translation

    from lessons.models import Classroom, GroupPlan, Student
    from lessons.plans.sheet import sheet_context
    from lessons.printing.pdf_render import html_to_pdf

    classroom = Classroom(name="CM1 B")
    plan = GroupPlan(
        classroom=classroom,
        rule="M1",
        activity="line",
        game1_on=date(2026, 11, 3),
        game2_on=date(2026, 11, 5),
        game3_on=date(2026, 11, 9),
        recheck_on=date(2026, 11, 16),
    )
    members = [Student(display_name=name) for name in ("Anaïs", "Basile", "Chloé", "Dylan",
                                                      "Emma", "Farid")]  # fmt: skip
    pairs = [("1/2", "2/3", 7), ("2/3", "5/6", 4), ("9/12", "3/6", 2)]
    timings = []
    with translation.override("fr"):
        for _run in range(2):
            start = time.perf_counter()
            context = {**sheet_context(plan, "fr", members=members, pairs=pairs), "lang": "fr"}
            document = html_to_pdf(render_to_string("lessons/plans/plan_pdf.html", context))
            timings.append(time.perf_counter() - start)
    verdict = "PASS" if timings[0] < GOAL_S else "FAIL"
    print(f"{verdict} plan sheet, group of 6, cold render {timings[0]:.2f} s (goal < {GOAL_S} s)")
    print(f"info plan sheet warm render {timings[1]:.2f} s, {len(document):,} bytes, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
