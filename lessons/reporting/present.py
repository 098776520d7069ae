"""Turn report data into display-ready values (labels in one language, charts as SVG).

Templates stay plain loops: every label, percentage and chart is prepared here, in the
language asked for (the pure diagnosis package carries its own fr/en texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.fractions import FractionValue
from lessons.classrooms.names import name_key
from lessons.diagnosis import (
    KAPPA_MIN_ANSWERS,
    RULES_BY_ID,
    SKILL_CUTOFFS_TEXT,
    SKILLS,
    STATE_LABELS,
    STATES,
    STATUS_LABELS,
    Agreement,
    SkillProgress,
)
from lessons.evidence.evidence import ACCURACY_WORDS
from lessons.evidence.loading import RuleStatus
from lessons.reporting import charts, words
from lessons.reporting.class_report import ClassDashboard, Tiles, WrongPlay
from lessons.reporting.session_report import Change, SessionReport
from lessons.reporting.student_report import StudentReport

LANGS = ("fr", "en")
# Weekly misconception rates are small shares: their bars fill up at 25 %.
WEEKLY_SCALE = 0.25


def short_date(moment: datetime | None) -> str:
    """Format a time as a short local date."""
    if moment is None:
        return "—"
    return formats.date_format(timezone.localtime(moment), "SHORT_DATE_FORMAT")


def play_time(minutes: float | None) -> str:
    """Write a play time the one way every page shows it: whole minutes ("1 min"), "—" for none.

    Half a minute rounds up (not to even, as round() does), the same on every page.
    """
    if minutes is None:
        return "—"
    whole = int(minutes + 0.5)
    return ngettext("%(count)d min", "%(count)d min", whole) % {"count": whole}


def frac(card: FractionValue | None) -> str:
    """Write a fraction as a/b."""
    return "?" if card is None else f"{card[0]}/{card[1]}"


def top_card(card: FractionValue | None, named_denominator: int | None) -> str:
    """Write the card a play answered: a/b, or a Joker and the denominator asked for."""
    if card is not None:
        return frac(card)
    if named_denominator is None:
        return _("Joker")
    return _("Joker (denominator %(d)d asked)") % {"d": named_denominator}


@dataclass(frozen=True)
class Cell:
    """One heatmap cell: a CSS class, a symbol, a short text and a full description."""

    css: str
    symbol: str
    text: str
    detail: str
    title: str


def expected_text(evidence: RuleStatus) -> str:
    """Write what chance alone would give ("≈ 1.3"), or "" without wrong claims."""
    return "≈" + formats.number_format(evidence.expected, 1) if evidence.n else ""


def status_css(status: str) -> str:
    """Return a status's CSS classes ("held" is drawn as "resolved", and named apart)."""
    return "st-resolved st-held" if status == "held" else f"st-{status}"


def rule_cell(evidence: RuleStatus, lang: str) -> Cell:
    """Describe one student × misconception cell."""
    rule = RULES_BY_ID[evidence.rule]
    status = STATUS_LABELS[evidence.status][lang]
    title = _(
        "%(rule)s: %(status)s; fits %(k)d of %(n)d wrong first claims; "
        "luck alone would give about %(expected)s"
    ) % {
        "rule": rule.name[lang],
        "status": status,
        "k": evidence.k,
        "n": evidence.n,
        "expected": formats.number_format(evidence.expected, 1),
    }
    checked = words.check_words(evidence, lang)
    if checked:
        title = f"{title}. {checked}"
    shown = evidence.k or evidence.status != "none"
    return Cell(
        css=status_css(evidence.status),
        symbol=charts.status_symbol(evidence.status) if shown else "",
        text=f"{evidence.k}/{evidence.n}" if evidence.k else "",
        detail=expected_text(evidence) if evidence.k else "",
        title=title,
    )


def skill_cell(progress: SkillProgress, lang: str) -> Cell:
    """Describe one student × skill cell."""
    label = STATE_LABELS[progress.state][lang]
    right = 0 if progress.accuracy is None else round(progress.accuracy * progress.window)
    detail = f"{right}/{progress.window}" if progress.window else ""
    # No chance yet: the state alone ("0 right of the last 0" would say nothing).
    title = (
        ngettext(
            "%(state)s; right on the last chance: %(right)d",
            "%(state)s; right on the last %(window)d chances: %(right)d",
            progress.window,
        )
        % {"state": label, "right": right, "window": progress.window}
        if progress.window
        else label
    )
    return Cell(
        css=f"sk-{progress.state}",
        symbol=str(STATES.index(progress.state)),
        text=label,
        detail=detail,
        title=title,
    )


def rule_cells_html(cells: list[Cell]) -> SafeString:
    """Render a heatmap row of misconception cells (built here: a template loop over 30 x 15
    cells cost more than all the figures behind them)."""
    parts = []
    for cell in cells:
        if not cell.text and not cell.symbol:
            parts.append('<td class="cell st-none"></td>')
            continue
        title = escape(cell.title)
        parts.append(
            f'<td class="cell {cell.css}" title="{title}">'
            f'<span class="sym" aria-hidden="true">{cell.symbol}</span>'
            f'<span class="kn" aria-hidden="true">{escape(cell.text)}</span>'
            f'<span class="lift" aria-hidden="true">{escape(cell.detail)}</span>'
            f'<span class="visually-hidden">{title}</span></td>'
        )
    return mark_safe("".join(parts))  # noqa: S308 - every value is escaped above


def skill_cells_html(cells: list[Cell]) -> SafeString:
    """Render a heatmap row of skill cells: the state in words, right answers of the window."""
    return mark_safe(  # noqa: S308 - every value is escaped
        "".join(
            f'<td class="cell {cell.css}" title="{escape(cell.title)}">'
            f'<span class="state">{escape(cell.text)}</span> '
            f'<span class="lift">{escape(cell.detail)}</span></td>'
            for cell in cells
        )
    )


def rule_head(rule_id: str, lang: str) -> dict[str, str]:
    """Return a column head for a misconception: ID and name."""
    rule = RULES_BY_ID[rule_id]
    return {"id": rule.id, "name": rule.name[lang]}


def wrong_play_rows(plays: list[WrongPlay], lang: str) -> list[dict[str, Any]]:
    """Describe common wrong plays: the pair, the claim, the counts, the rules it fits."""
    return [
        {
            "pair": f"{top_card(play.reference, play.named_denominator)} → {frac(play.played)}",
            "claim": _("equal") if play.claim == "equal" else _("same denominator"),
            "count": play.count,
            "students": play.students,
            "tags": [rule_head(tag, lang) for tag in play.tags],
        }
        for play in plays
    ]


def legend(lang: str) -> dict[str, Any]:
    """Return the legends of both heatmaps and the texts behind them."""
    return {
        "statuses": [
            {
                "css": status_css(s),
                "symbol": charts.status_symbol(s),
                "label": STATUS_LABELS[s][lang],
            }
            for s in ("likely", "emerging", "resolved", "held", "none", "not_possible")
        ],
        "states": [
            {"css": f"sk-{s}", "symbol": str(i), "label": STATE_LABELS[s][lang]}
            for i, s in enumerate(STATES)
        ],
        "status_rules": words.status_summary(),
        "skill_cutoffs": SKILL_CUTOFFS_TEXT[lang],
    }


def class_context(dash: ClassDashboard, lang: str) -> dict[str, Any]:
    """Prepare the class dashboard for its template."""
    session_days = [short_date(point.started_at) for point in dash.sessions]
    students = _student_rows(dash, lang, session_days)
    panels = _panel_rows(dash, lang)
    groups = [
        {
            "id": panel.rule.id,
            "name": panel.rule.name[lang],
            "teacher": panel.rule.teacher[lang],
            "try_this": panel.rule.try_this[lang],
            "students": panel.likely,
        }
        for panel in dash.groups
    ]
    alerts = _alert_rows(dash, lang)
    return {
        "dash": dash,
        "tiles": _tiles(dash.tiles),
        "students": students,
        "rule_heads": [rule_head(r, lang) for r in dash.rule_ids],
        "skill_heads": [{"id": s, "name": SKILLS[s].name[lang]} for s in dash.skill_ids],
        "session_chart": charts.session_chart(
            [
                (day, point.accuracy, point.claims)
                for day, point in zip(session_days, dash.sessions, strict=True)
            ],
            _("Class accuracy per session: %(values)s")
            % {
                "values": ", ".join(
                    f"{day} {charts.percent(p.accuracy)}"
                    for day, p in zip(session_days, dash.sessions, strict=True)
                )
            },
        ),
        "sessions": [
            {"id": p.session_id, "day": day, "accuracy": charts.percent(p.accuracy)}
            for day, p in zip(session_days, dash.sessions, strict=True)
        ],
        "wrong_plays": wrong_play_rows(dash.wrong_plays, lang),
        "week_heads": [short_date(start) for start in dash.week_starts],
        "weekly": _weekly_rows(dash, lang),
        "weekly_scale": charts.percent(WEEKLY_SCALE),
        "panels": panels,
        "groups": groups,
        "low_accuracy": [
            {"student": line.student, "figures": words.low_accuracy_figures(line.low_accuracy)}
            for line in dash.low_accuracy
            if line.low_accuracy is not None
        ],
        "low_accuracy_meaning": words.low_accuracy_meaning(),
        "watch": sorted(
            {s.pk: s for panel in dash.panels for s in panel.emerging}.values(),
            key=lambda s: (name_key(s.display_name), s.pk),
        ),
        "agreement": agreement_rows(dash.agreement, lang),
        "kappa_min": KAPPA_MIN_ANSWERS,
        "alerts": alerts,
        "quality": {
            "versions": dash.quality.versions,
            "current": dash.quality.current_version,
            "unclassified": charts.percent(dash.quality.unclassified_share),
            "wrong_equal": dash.quality.wrong_equal,
        },
        "window_start": short_date(dash.window.start),
        "window_end": short_date(dash.window.end),
        "window_days": dash.window.days,
        "legend": legend(lang),
    }


def _student_rows(dash: ClassDashboard, lang: str, session_days: list[str]) -> list[dict[str, Any]]:
    """Return the class dashboard's line of each student (figures, bars, rule and skill cells)."""
    rule_ids, skill_ids = dash.rule_ids, dash.skill_ids
    students = []
    # Links are built once per student here: {% url %} in the loops cost as much as a query.
    student_url = reverse("dashboard_student", args=[dash.classroom.pk, 0])[:-2]
    report_url = reverse("report_student", args=[dash.classroom.pk, 0])[:-2]
    # Set on the Student objects themselves: alerts and misconception panels hold the same
    # objects and their template links read these two attributes, which the model lacks.
    for line in dash.lines:
        line.student.dashboard_url = f"{student_url}{line.student.pk}/"  # type: ignore[attr-defined]
        line.student.report_url = f"{report_url}{line.student.pk}/"  # type: ignore[attr-defined]
    for line in dash.lines:
        name = line.student.display_name
        students.append(
            {
                "student": line.student,
                "claims": line.claims,
                "accuracy": charts.percent(line.accuracy),
                "bar": charts.accuracy_bar(line.accuracy, _("%(name)s: accuracy") % {"name": name}),
                "trend": charts.trend_line(
                    line.trend,
                    _("%(name)s, accuracy per session: %(values)s")
                    % {
                        "name": name,
                        "values": ", ".join(
                            f"{day} {charts.percent(v)}"
                            for day, v in zip(session_days, line.trend, strict=True)
                        ),
                    },
                ),
                "last_trend": next(
                    (charts.percent(v) for v in reversed(line.trend) if v is not None), "—"
                ),
                "rules": rule_cells_html([rule_cell(line.evidence[r], lang) for r in rule_ids]),
                "skills": skill_cells_html([skill_cell(line.skills[s], lang) for s in skill_ids]),
                "missed": line.missed,
            }
        )
    return students


def _panel_rows(dash: ClassDashboard, lang: str) -> list[dict[str, Any]]:
    """Return the misconception panels: who is likely, emerging or resolved, with examples."""
    panels = []
    for panel in dash.panels:
        rule = panel.rule
        panels.append(
            {
                "id": rule.id,
                "name": rule.name[lang],
                "teacher": rule.teacher[lang],
                "confidence": rule.confidence,
                "likely": panel.likely,
                "emerging": panel.emerging,
                "resolved": panel.resolved,
                "held": panel.held,
                # Each held or resolved pupil with the words of their re-checks.
                "checked": [
                    {"student": student, "words": words.check_words(status, lang)}
                    for student, status in panel.checked
                ],
                "events": panel.events,
                "examples": [
                    {"pair": f"{frac(r)} → {frac(p)}", "count": n} for r, p, n in panel.examples
                ],
            }
        )
    return panels


def _alert_rows(dash: ClassDashboard, lang: str) -> list[dict[str, Any]]:
    """Return the alerts in words (a run of wrong claims, a rule still likely)."""
    alerts = []
    for alert in dash.alerts:
        if alert.kind == "wrong_run":
            text = _("%(count)d wrong claims in a row in the last session") % {"count": alert.count}
        else:
            assert alert.rule is not None
            text = _("“%(rule)s” still likely after 2 more sessions") % {
                "rule": f"{alert.rule.id} {alert.rule.name[lang]}"
            }
        alerts.append({"student": alert.student, "text": text, "kind": alert.kind})
    return alerts


def _tiles(tiles: Tiles) -> dict[str, Any]:
    """Return the class's tiles as the template shows them."""
    change = tiles.week_change
    return {
        "active": tiles.active_students,
        "sessions": tiles.sessions,
        "claims": tiles.claims,
        "accuracy": charts.percent(tiles.accuracy),
        "change": None if change is None else f"{round(change * 100):+d}",
        # The plural follows the size of the change, its sign apart (+1 point, -5 points).
        "change_points": None if change is None else abs(round(change * 100)),
        "rt": None
        if tiles.median_rt_correct_s is None
        else formats.number_format(tiles.median_rt_correct_s, 1),
    }


def _weekly_rows(dash: ClassDashboard, lang: str) -> list[dict[str, Any]]:
    """Return each rule's weekly share of traps taken, with its bars."""
    return [
        {
            "id": item.rule.id,
            "name": item.rule.name[lang],
            "weeks": [
                {
                    "rate": charts.percent(item.rate(i)),
                    "counts": f"{matches}/{chances}" if chances else "",
                    "bar": charts.accuracy_bar(
                        item.rate(i),
                        _("%(rule)s, week of %(day)s: %(matches)d of %(chances)d chances")
                        % {
                            "rule": item.rule.id,
                            "day": day,
                            "matches": matches,
                            "chances": chances,
                        },
                        scale=WEEKLY_SCALE,
                    ),
                }
                for i, ((matches, chances), day) in enumerate(
                    zip(item.weeks, [short_date(d) for d in dash.week_starts], strict=True)
                )
            ],
        }
        for item in dash.weekly
    ]


def agreement_rows(agreement: dict[str, Agreement], lang: str) -> list[dict[str, Any]]:
    """Describe per rule how often the children's reasons and the tags agree (kappa, n)."""
    rows = []
    for rule_id, item in agreement.items():
        kappa = item.kappa
        if not item.enough:
            figure = _("not enough answers (%(n)d of %(min)d)") % {
                "n": item.n,
                "min": KAPPA_MIN_ANSWERS,
            }
        elif kappa is None:
            figure = _("undefined (every answer alike)")
        else:
            figure = formats.number_format(round(kappa, 2), decimal_pos=2)
        rows.append(
            {
                "id": rule_id,
                "name": RULES_BY_ID[rule_id].name[lang],
                "n": item.n,
                "kappa": figure,
                "both": item.both,
                "tags_only": item.tags_only,
                "reason_only": item.reason_only,
            }
        )
    return rows


def ladder_rows(report: StudentReport, lang: str) -> list[dict[str, Any]]:
    """Describe the skill ladder: state, figures and the day each state was reached."""
    rows = []
    for step in report.ladder:
        progress = step.progress
        rows.append(
            {
                "id": step.skill.id,
                "name": step.skill.name[lang],
                "description": step.skill.description[lang],
                "state": progress.state,
                "state_label": STATE_LABELS[progress.state][lang],
                "level": STATES.index(progress.state),
                "accuracy": charts.percent(progress.accuracy),
                "window": progress.window,
                "opportunities": progress.opportunities,
                "steps": [
                    {
                        "label": STATE_LABELS[state][lang],
                        "reached": short_date_of(progress.reached.get(state)),
                        "when": _step_when(state, progress),
                        "done": _step_when(state, progress) in ("current", "done"),
                    }
                    for state in STATES[1:]
                ],
            }
        )
    return rows


def _step_when(state: str, progress: SkillProgress) -> str:
    """Place a state of the ladder: "current", "done" (below it), "past" (reached once, lost
    since: a miss demotes the state) or "not_yet"."""
    if state == progress.state:
        return "current"
    if state not in progress.reached:
        return "not_yet"
    return "done" if STATES.index(state) < STATES.index(progress.state) else "past"


def short_date_of(day: Any) -> str:
    """Format a date (not a time) as a short date, or an empty string."""
    return "" if day is None else formats.date_format(day, "SHORT_DATE_FORMAT")


def finding_rows(report: StudentReport, lang: str, findings: Any = None) -> list[dict[str, Any]]:
    """Describe misconceptions with the student's own pairs (both M1 readings for M1)."""
    rows = []
    for finding in report.findings if findings is None else findings:
        evidence = finding.evidence
        rule = finding.rule
        rows.append(
            {
                "id": rule.id,
                "name": rule.name[lang],
                "teacher": rule.teacher[lang],
                "family": rule.family[lang],
                "try_this": rule.try_this[lang],
                "status": evidence.status,
                "status_css": status_css(evidence.status),
                "status_label": STATUS_LABELS[evidence.status][lang],
                "symbol": charts.status_symbol(evidence.status),
                "k": evidence.k,
                "n": evidence.n,
                "expected": formats.number_format(evidence.expected, 1) if evidence.n else "—",
                "status_meaning": words.status_meanings().get(evidence.status, ""),
                "rechecked_on": evidence.rechecked_on,
                "held_on": evidence.held_on,
                # What the re-checks saw, with their dates (the same words on every page).
                "checks": words.check_words(evidence, lang),
                "examples": [
                    {
                        "pair": f"{frac(ex.reference)} → {frac(ex.played)}",
                        "readings": ex.readings,
                        "line": charts.number_line(
                            ex.reference,
                            ex.played,
                            _("%(a)s and %(b)s on a number line")
                            % {
                                "a": frac(ex.reference),
                                "b": frac(ex.played),
                            },
                        ),
                    }
                    for ex in finding.examples
                ],
            }
        )
    return rows


def student_context(report: StudentReport, lang: str) -> dict[str, Any]:
    """Prepare the student page (teacher view) and the progress report."""
    name = report.student.display_name
    return {
        "report": report,
        "student": report.student,
        "classroom": report.student.classroom,
        "ladder": ladder_rows(report, lang),
        "strip": charts.claims_strip(
            report.last_claims,
            ngettext(
                "%(name)s's last %(count)d claim, oldest first: %(right)d right",
                "%(name)s's last %(count)d claims, oldest first: %(right)d right",
                len(report.last_claims),
            )
            % {"name": name, "count": len(report.last_claims), "right": sum(report.last_claims)},
        ),
        "last_right": sum(report.last_claims),
        "last_count": len(report.last_claims),
        "last_accuracy": charts.percent(report.last_accuracy),
        "accuracy": charts.percent(report.accuracy),
        "findings": finding_rows(report, lang),
        "focus": finding_rows(report, lang, report.focus),
        "low_accuracy": (
            words.low_accuracy_family(report.low_accuracy, report.window.days)
            if report.low_accuracy is not None
            else ""
        ),
        "low_accuracy_teacher": (
            words.low_accuracy_figures(report.low_accuracy)
            if report.low_accuracy is not None
            else ""
        ),
        "low_accuracy_meaning": words.low_accuracy_meaning(),
        "fixed": finding_rows(report, lang, report.fixed),
        "missed": [
            {"day": short_date(when), "reference": ref, "cards": ", ".join(dict.fromkeys(cards))}
            for when, ref, cards in report.missed_recent
        ],
        "sessions": [
            {
                "id": s.session_id,
                "day": short_date_of(s.day),
                "claims": s.claims,
                "accuracy": charts.percent(s.accuracy),
                "minutes": round(s.minutes),
                "play_time": play_time(s.minutes),
            }
            for s in report.sessions
        ],
        "session_chart": charts.session_chart(
            [(short_date_of(s.day), s.accuracy, s.claims) for s in report.sessions[-10:]],
            _("%(name)s, accuracy per session: %(values)s")
            % {
                "name": name,
                "values": ", ".join(
                    f"{short_date_of(s.day)} {charts.percent(s.accuracy)}"
                    for s in report.sessions[-10:]
                ),
            },
        ),
        "minutes": round(report.minutes_played),
        "play_time": play_time(report.minutes_played),
        "hours": formats.number_format(report.minutes_played / 60, 1),
        "window_start": short_date(report.window.start),
        "window_end": short_date(report.window.end),
        "legend": legend(lang),
        "first_play": short_date(report.first_play),
        "last_play": short_date(report.last_play),
        "all_accuracy": charts.percent(
            report.all_correct / report.all_claims if report.all_claims else None
        ),
    }


def session_context(report: SessionReport, lang: str) -> dict[str, Any]:
    """Prepare the session page."""
    session = report.session
    lines = []
    for line in report.lines:
        minutes = line.minutes
        lines.append(
            {
                "student": line.student,
                "claims": line.claims,
                "correct": line.correct,
                "accuracy": charts.percent(line.accuracy),
                "bar": charts.accuracy_bar(
                    line.accuracy, _("%(name)s: accuracy") % {"name": line.student.display_name}
                ),
                "wrong_run": line.wrong_run,
                "missed": line.missed,
                "minutes": minutes,
                "play_time": play_time(minutes),
                "tags": [
                    {"id": tag, "name": RULES_BY_ID[tag].name[lang], "count": count}
                    for tag, count in line.tags.most_common()
                ],
            }
        )
    return {
        "report": report,
        "session": session,
        "day": short_date(session.started_at),
        "time": formats.time_format(timezone.localtime(session.started_at), "TIME_FORMAT"),
        "lines": lines,
        "accuracy": charts.percent(report.accuracy),
        # The one definition of "right", said where the figure is (lessons.evidence.evidence).
        "accuracy_words": ACCURACY_WORDS,
        "tags": [
            {"id": rule.id, "name": rule.name[lang], "events": events, "students": students}
            for rule, events, students in report.tag_counts
        ],
        "wrong_plays": wrong_play_rows(report.wrong_plays, lang),
        "changes": [
            {"student": change.student, "words": change_words(change, lang)}
            for change in report.changes
        ],
    }


def change_words(change: Change, lang: str) -> str:
    """Say what a lesson changed for one rule: « name » : before → after, in words."""
    return _("“%(rule)s”: %(before)s → %(after)s") % {
        "rule": RULES_BY_ID[change.rule].name[lang],
        "before": STATUS_LABELS[change.before][lang],
        "after": STATUS_LABELS[change.after][lang],
    }
