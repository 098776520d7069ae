"""The diagnosis modules and the explanations stay pure Python (no Django, no lessons in games)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import games.engine.explain
assert not any(m == "lessons" or m.startswith("lessons.") for m in sys.modules), "games->lessons"
import lessons.diagnosis
bad = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
assert not bad, bad
"""


def test_no_django_and_no_lessons_import_from_the_engine():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
