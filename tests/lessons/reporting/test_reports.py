"""The figures of the class, student and session views match what was played."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from lessons.diagnosis import diagnose
from lessons.evidence.loading import (
    WINDOW_DAYS,
    evidence_window,
    skills_from,
    statuses_of,
    student_rows,
)
from lessons.models import ClassSession
from lessons.reporting.class_report import WRONG_RUN_ALERT, class_dashboard
from lessons.reporting.session_report import session_report
from lessons.reporting.student_report import student_report
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import (
    DEFAULT_HAND,
    M1_PLAYS,
    RIGHT_PLAYS,
    log_attempt,
    log_miss,
    log_plays,
)

pytestmark = pytest.mark.django_db


def _turns(plays: list[tuple[Any, Any, str]]) -> list[dict[str, Any]]:
    """Write plays as diagnose()'s turns, one turn each, with the helpers' hand."""
    return [
        {
            "turn": index,
            "reference": f"{ref[0]}/{ref[1]}",
            "denominator": None,
            "hand": list(DEFAULT_HAND),
            "attempts": [
                {"played": f"{card[0]}/{card[1]}", "claim": claim, "asked": False, "reason": None}
            ],
            "drew": False,
        }
        for index, (ref, card, claim) in enumerate(plays)
    ]


def _session(world: ClassWorld, days_ago: float) -> ClassSession:
    start = timezone.now() - timedelta(days=days_ago)
    return ClassSession.objects.create(
        classroom=world.classroom, started_at=start, status=ClassSession.Status.ENDED
    )


def test_empty_class_has_an_empty_dashboard(class_a: ClassWorld) -> None:
    dash = class_dashboard(class_a.classroom)
    assert dash.window.empty
    assert dash.tiles.claims == 0 and dash.tiles.accuracy is None
    assert [line.claims for line in dash.lines] == [0, 0]
    assert dash.panels == [] and dash.alerts == [] and dash.wrong_plays == []


def test_accuracy_statuses_and_wrong_plays_match_the_plays(class_a: ClassWorld) -> None:
    anais, basile = class_a.student.student, class_a.other_student.student
    session = _session(class_a, 1)
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS, session=session)
    log_plays(basile, RIGHT_PLAYS, session=session)

    dash = class_dashboard(class_a.classroom)

    lines = {line.student.pk: line for line in dash.lines}
    assert (lines[anais.pk].correct, lines[anais.pk].claims) == (3, 7)
    assert (lines[basile.pk].correct, lines[basile.pk].claims) == (3, 3)
    assert dash.tiles.claims == 10 and dash.tiles.accuracy == pytest.approx(0.6)
    m1 = lines[anais.pk].evidence["M1"]
    assert (m1.k, m1.n, m1.status) == (4, 4, "likely")
    # Chance alone: the share of each hand's wrong options fitting M1 (1/2: 2/3 of 8 options;
    # 2/3: 5/6 of 6; 1/3: 4/6 and 10/12 of 8), summed.
    assert m1.expected == pytest.approx(1 / 8 + 1 / 6 + 2 / 8 + 1 / 8, abs=1e-6)
    assert lines[basile.pk].evidence["M1"].n == 0
    # The dashboard's statuses are diagnose()'s, on the played turns written by hand.
    expected = diagnose(_turns(M1_PLAYS + RIGHT_PLAYS))
    assert {r: e.status for r, e in lines[anais.pk].evidence.items()} == {
        r: e["status"] for r, e in expected.items()
    }
    assert lines[anais.pk].evidence["M8"].status == "not_possible"
    top = dash.wrong_plays[0]
    assert (top.reference, top.played, top.count, top.students) == ((1, 2), (2, 3), 2, 1)
    assert "M1" in top.tags
    m1_panel = next(p for p in dash.panels if p.rule.id == "M1")
    assert m1_panel.likely == [anais] and m1_panel.events == 4
    assert m1_panel.examples[0] == ((1, 2), (2, 3), 2)
    # Week by week: all four M1 plays fall in the last week, each where M1 could fit.
    m1_weeks = next(item for item in dash.weekly if item.rule.id == "M1").weeks
    assert m1_weeks[:3] == [(0, 0)] * 3
    assert m1_weeks[-1][0] == 4 and m1_weeks[-1][1] >= 4
    # Trend: one session, one point per student.
    assert [p.claims for p in dash.sessions] == [10]
    assert lines[anais.pk].trend == [pytest.approx(3 / 7)]


def test_window_keeps_the_last_weeks_only(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    old = timezone.now() - timedelta(days=WINDOW_DAYS + 5)
    log_plays(anais, M1_PLAYS, start=old)
    log_plays(anais, RIGHT_PLAYS)
    window = evidence_window(class_a.classroom)
    dash = class_dashboard(class_a.classroom)
    line = dash.lines[0]
    assert line.student == anais
    assert (line.correct, line.claims) == (3, 3)
    assert line.evidence["M1"].k == 0
    assert window.start is not None and window.start > old
    # The student page reads the whole history for skills, the window for misconceptions.
    report = student_report(anais, lang="fr")
    assert report.all_claims == 7 and report.claims == 3
    assert not any(f.rule.id == "M1" for f in report.findings)


def test_alerts_for_a_wrong_run_and_a_persistent_misconception(class_a: ClassWorld) -> None:
    anais, basile = class_a.student.student, class_a.other_student.student
    for days_ago in (5, 3, 1):
        log_plays(anais, M1_PLAYS, session=_session(class_a, days_ago),
                  start=timezone.now() - timedelta(days=days_ago))  # fmt: skip
    wrong = [((1, 2), (2, 3), "equal"), ((1, 3), (1, 6), "equal")] * 3
    log_plays(basile, wrong[:WRONG_RUN_ALERT], session=_session(class_a, 0.5))

    alerts = {(a.student.pk, a.kind, a.rule.id if a.rule else None) for a in
              class_dashboard(class_a.classroom).alerts}  # fmt: skip

    assert (anais.pk, "persistent", "M1") in alerts
    assert (basile.pk, "wrong_run", None) in alerts
    assert (anais.pk, "wrong_run", None) not in alerts  # 4 in a row per session only


def test_unclassified_share_and_named_denominator_plays(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_attempt(anais, (6, 12), (20, 24))  # fits no rule: U
    log_attempt(anais, (1, 2), (2, 3))  # M1
    log_attempt(anais, None, (5, 12), "denominator", named_denominator=12)  # right, S1
    log_attempt(anais, None, (5, 6), "denominator", named_denominator=12)  # wrong: D1
    dash = class_dashboard(class_a.classroom)
    assert dash.quality.wrong_equal == 2 and dash.quality.unclassified == 1
    assert dash.quality.unclassified_share == pytest.approx(0.5)
    line = dash.lines[0]
    assert line.evidence["D1"].k == 1
    assert line.skills["S1"].opportunities == 2


def test_skill_ladder_dates_and_state(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    first = _session(class_a, 3)
    second = _session(class_a, 1)
    s2_right = [((1, 2), (3, 6), "equal")] * 10
    log_plays(anais, s2_right, session=first, start=first.started_at)
    log_plays(anais, s2_right, session=second, start=second.started_at)
    report = student_report(anais, lang="en")
    s2 = next(step for step in report.ladder if step.skill.id == "S2").progress
    assert s2.state == "mastered"
    assert s2.reached["proficient"] == timezone.localdate(first.started_at)
    assert s2.reached["mastered"] == timezone.localdate(second.started_at)
    assert skills_from(student_rows(anais.pk))["S2"] == s2


def test_student_report_examples_focus_and_missed(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    log_miss(anais, "1/2", ["3/6"])
    report = student_report(anais, lang="en")
    m1 = next(f for f in report.findings if f.rule.id == "M1")
    # Newest distinct pairs first, each with both readings of M1.
    assert [(e.reference, e.played) for e in m1.examples] == [((1, 2), (2, 3)), ((1, 3), (4, 6))]
    assert m1.examples[0].readings == ("added 1 to top and bottom", "each is 1 piece short of 1")
    assert [f.rule.id for f in report.focus] == ["M1"]  # M0 (umbrella) gives way to M1
    assert report.missed_count == 1 and report.last_claims == [False] * 4 + [True] * 3
    assert report.minutes_played > 0


def test_session_view_counts_per_student(class_a: ClassWorld) -> None:
    anais, basile = class_a.student.student, class_a.other_student.student
    session = _session(class_a, 1)
    other = _session(class_a, 2)
    log_plays(anais, M1_PLAYS, session=session)
    log_plays(basile, RIGHT_PLAYS, session=session)
    log_plays(basile, M1_PLAYS, session=other)
    log_miss(basile, "1/2", ["3/6"], session=session)
    report = session_report(session)
    lines = {line.student.pk: line for line in report.lines}
    assert (lines[anais.pk].claims, lines[anais.pk].correct) == (4, 0)
    assert (lines[basile.pk].claims, lines[basile.pk].correct, lines[basile.pk].missed) == (
        3,
        3,
        1,
    )
    assert lines[anais.pk].tags["M1"] == 4 and lines[anais.pk].wrong_run == 4
    assert {rule.id: (events, students) for rule, events, students in report.tag_counts}["M1"] == (
        4,
        1,
    )
    assert report.claims == 7


def test_row_statuses_equal_the_diagnosis_on_stored_attempts(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    log_attempt(anais, None, (5, 6), "denominator", named_denominator=12)
    log_attempt(anais, None, (20, 24), "denominator", named_denominator=6)
    log_attempt(anais, (6, 12), (20, 24))
    statuses = statuses_of(student_rows(anais.pk))
    expected = diagnose(
        [
            *_turns(M1_PLAYS + RIGHT_PLAYS),
            *(
                {
                    "turn": 100 + i,
                    "reference": None,
                    "denominator": named,
                    "hand": list(DEFAULT_HAND),
                    "attempts": [
                        {"played": card, "claim": "denominator", "asked": False, "reason": None}
                    ],
                    "drew": False,
                }
                for i, (card, named) in enumerate((("5/6", 12), ("20/24", 6)))
            ),
            *_turns([((6, 12), (20, 24), "equal")]),
        ]
    )
    assert {rule: (s.status, s.k, s.n, s.expected) for rule, s in statuses.items()} == {
        rule: (e["status"], e["k"], e["n"], e["expected"]) for rule, e in expected.items()
    }
    assert statuses["D1"].k == 2 and statuses["U"].k == 1
