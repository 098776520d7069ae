"""Learning curves of a class and of the school, from the stored attempts (issue 31 §9).

Each pupil's turns in the evidence window (loading.class_rows, the same rows as every class
page) are read into encounters per rule by lessons.diagnosis.learning_curve, which also
builds the curve and reads its trend test ("baisse", "stable", "pas assez de données"): the
words come from the test, never from the look of the curve. The school's curves pool the
pupils of every class that is not archived (no pupil is named).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lessons.diagnosis import RULES_BY_ID
from lessons.diagnosis.learning_curve import (
    CURVE_ENCOUNTERS,
    TREND_ALPHA,
    TREND_MIN_PUPILS,
    LearningCurve,
    encounters_of,
    learning_curve,
)
from lessons.diagnosis.model import TESTED_RULES
from lessons.diagnosis.stream import deck_values, read_turns
from lessons.evidence.loading import (
    SOURCE_BOTH,
    Row,
    Window,
    by_student,
    class_rows,
    evidence_window,
    turns_of,
)
from lessons.models import Classroom
from lessons.reporting import words
from lessons.reporting.charts import percent


def pupil_encounters(rows: Sequence[Row]) -> dict[str, list[bool]]:
    """Return one pupil's encounters per tested rule (taken or not, oldest first)."""
    turns = read_turns(turns_of(rows), deck_values())
    return {rule: encounters_of(turns, rule) for rule in TESTED_RULES}


def curves_of(pupils: Iterable[dict[str, list[bool]]]) -> list[LearningCurve]:
    """Return the curve of every rule some pupil's trap was taken for, in RULE_IDS order."""
    everyone = list(pupils)
    curves = []
    for rule in TESTED_RULES:
        seen = [pupil[rule] for pupil in everyone if pupil.get(rule)]
        if any(any(taken) for taken in seen):
            curves.append(learning_curve(rule, seen))
    return curves


def _class_pupils(
    classroom: Classroom, source: str, window: Window | None = None
) -> list[dict[str, list[bool]]]:
    rows = class_rows(classroom, window or evidence_window(classroom), source=source)
    return [pupil_encounters(own) for own in by_student(rows).values()]


def class_curves(
    classroom: Classroom, *, source: str = SOURCE_BOTH, window: Window | None = None
) -> list[LearningCurve]:
    """Return the class's learning curves over its evidence window (`window`: already read)."""
    return curves_of(_class_pupils(classroom, source, window))


def school_curves() -> list[LearningCurve]:
    """Return the school's learning curves: every class not archived, each over its window."""
    pupils: list[dict[str, list[bool]]] = []
    for classroom in Classroom.objects.filter(archived_at__isnull=True).order_by("pk"):
        pupils += _class_pupils(classroom, SOURCE_BOTH)
    return curves_of(pupils)


def learning_context(curves: Sequence[LearningCurve], lang: str) -> dict[str, Any]:
    """Prepare curves for templates/lessons/dashboards/_learning_curves.html ("learning")."""
    return {
        "learning": {
            "curves": curve_rows(curves, lang),
            "heads": list(range(1, CURVE_ENCOUNTERS + 1)),
            "level": words.percent(TREND_ALPHA, 0),
            "min_pupils": TREND_MIN_PUPILS,
        }
    }


def curve_rows(curves: Sequence[LearningCurve], lang: str) -> list[dict[str, Any]]:
    """Return each curve's row: the rule, the trend's code, the points and blank cells."""
    return [
        {
            "id": curve.rule,
            "name": RULES_BY_ID[curve.rule].name[lang],
            "trend": curve.trend,
            "pupils": curve.pupils,
            "points": [
                {
                    "encounter": point.encounter,
                    "pupils": point.pupils,
                    "taken": point.taken,
                    "percent": percent(point.rate),
                }
                for point in curve.points
            ],
            "blank": range(CURVE_ENCOUNTERS - len(curve.points)),
        }
        for curve in curves
    ]


__all__ = [
    "class_curves",
    "curve_rows",
    "curves_of",
    "learning_context",
    "pupil_encounters",
    "school_curves",
]
