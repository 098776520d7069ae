"""French typography and numbers on every page a user reaches, in French and in English.

Issue 21, point 8. Each page is rendered with the demo class (its history gives the
dashboards and reports real figures) for a visitor, a teacher, a student and the school
admin; its visible text (the texts the scripts show later included) is checked:

- French: a narrow no-break space (U+202F) before every colon, "!" and "?"; a decimal comma,
  never a decimal point; the typographic apostrophe (’), never the straight one;
- English: no space before a colon, "!" or "?".

Code (`<code>`, `<kbd>`), addresses and times (9:30) are not prose and are left out.
"""

from __future__ import annotations

import io
import re
import tokenize
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Table
from games.services import SeatSpec, table_create
from lessons.demo.data import demo_classroom_ensure, demo_history_ensure
from lessons.diagnosis.skills import SkillProgress
from lessons.models import User
from lessons.practice.services import assignment_create
from lessons.reporting.class_report import Tiles
from lessons.reporting.present import _tiles, skill_cell
from lessons.sessions.services import session_start
from lessons.typography import french_apostrophes
from tests.support.factories import make_teacher

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NNBSP = "\u202f"
SKIP_TAGS = {"script", "style", "code", "kbd", "pre", "textarea", "svg"}
# Not prose: an address (http://), a time or a ratio (9:30), a standard's version (WCAG 2.1),
# the rules' version (2026.11-1), and an RGAA criterion's number alone in its element (8.4, in
# the accessibility statement).
NOT_PROSE = re.compile(
    r"https?://\S+|\d:\d|\b(?:RGAA|WCAG) \d+\.\d+|\b\d{4}\.\d{2}-\d+"
    r"|^\d{1,2}\.\d{1,2}$"
)


class _Text(HTMLParser):
    """Collect the text a reader sees (the page's hidden strings for its scripts included)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP_TAGS:
            self.skipping += 1
        for name, value in attrs:
            if name in {"aria-label", "title", "placeholder", "alt"} and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TAGS and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.parts.append(data)


def visible_texts(html: str) -> list[str]:
    """Return the page's visible texts, one a text node or label."""
    parser = _Text()
    parser.feed(html)
    # Only ASCII white space folds: str.split() would take U+202F for a space too.
    return [re.sub(r"[ \t\r\n]+", " ", part) for part in parser.parts]


def french_faults(text: str) -> list[str]:
    """Return what breaks French typography in one text."""
    prose = NOT_PROSE.sub(" ", text)
    faults = []
    for found in re.finditer(r"[:!?]", prose):
        at = found.start()
        before = prose[at - 1] if at else ""
        if before != NNBSP and not (found.group() in "!?" and before in "!?"):
            faults.append(f"{found.group()!r} without U+202F in {text!r}")
    for found in re.finditer(r"(?<![\d.])\d+\.\d+(?![\d.])", prose):
        faults.append(f"decimal point {found.group()!r} in {text!r}")
    # One apostrophe for the French interface: the typographic one (l’élève), never "l'élève".
    for found in re.finditer(r"[^\W\d_]'[^\W\d_]", prose):
        faults.append(f"straight apostrophe in {found.group()!r} in {text!r}")
    return faults


def english_faults(text: str) -> list[str]:
    """Return what breaks English typography in one text (a space before : ! ?)."""
    prose = NOT_PROSE.sub(" ", text)
    return [
        f"space before {m.group(1)!r} in {text!r}"
        for m in re.finditer(r"[\s\u202f\u00a0]([:!?])", prose)
    ]


def _pages() -> list[tuple[Client, str]]:
    """Sign in everyone the app has pages for; return (client, url) for each page they see."""
    demo = demo_classroom_ensure()
    sessions = demo_history_ensure(demo)
    classroom = demo.classroom
    student = classroom.students.order_by("display_name")[1]
    teacher = demo.teacher
    assignment = assignment_create(
        teacher=teacher,
        classroom=classroom,
        games=2,
        deck="sixths",
        due_on=sessions[-1].started_at.date().replace(year=2099),
    )
    admin = make_teacher(username="direction_typo")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    visitor, as_teacher, as_student, as_admin = Client(), Client(), Client(), Client()
    as_teacher.force_login(teacher)
    as_student.force_login(student.user)
    as_admin.force_login(User.objects.get(pk=admin.pk))
    c, s = classroom.pk, student.pk
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name=student.display_name, user_id=student.user_id),
            SeatSpec(name="Robot 1", bot="heuristic"),
        ],
        kind=Table.Kind.PRACTICE,
    )
    session = session_start(teacher=teacher, classroom=classroom)
    return [
        (as_student, reverse("games:play", args=[table.pk])),
        (as_teacher, reverse("session_overview", args=[session.pk])),
        (visitor, reverse("home")),
        (visitor, reverse("login")),
        (visitor, reverse("signup")),
        (visitor, reverse("join")),
        (visitor, reverse("join_name", args=[classroom.join_code])),
        (visitor, reverse("join_pin", args=[classroom.join_code, s])),
        (visitor, reverse("privacy")),
        (visitor, reverse("accessibility")),
        (visitor, reverse("privacy_pupils")),
        (visitor, reverse("processing_record")),
        (visitor, reverse("data_flow")),
        (visitor, reverse("diagnosis")),
        (as_teacher, reverse("home")),
        (as_teacher, reverse("password_change")),
        (as_teacher, reverse("classroom_create")),
        (as_teacher, reverse("classrooms_archived")),
        (as_teacher, reverse("classroom_detail", args=[c])),
        (as_teacher, reverse("classroom_roster", args=[c])),
        (as_teacher, reverse("classroom_cards", args=[c])),
        (as_teacher, reverse("classroom_import", args=[c])),
        (as_teacher, reverse("student_manage", args=[s])),
        (as_teacher, reverse("session_new", args=[c])),
        (as_teacher, reverse("dashboard_class", args=[c])),
        (as_teacher, reverse("dashboard_student", args=[c, s])),
        (as_teacher, reverse("dashboard_session", args=[c, sessions[-1].pk])),
        (as_teacher, reverse("report_student", args=[c, s])),
        (as_teacher, reverse("export_dictionary")),
        (as_teacher, reverse("practice_assignment_new", args=[c])),
        (as_teacher, reverse("practice_assignment", args=[c, assignment.pk])),
        (as_student, reverse("home")),
        (as_student, reverse("report_me")),
        (as_student, reverse("games:practice")),
        (as_admin, reverse("school_admin")),
        (as_admin, reverse("home")),
    ]


def _render(client: Client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_every_page_keeps_the_typography_of_its_language() -> None:
    pages = _pages()
    faults: dict[str, list[str]] = {}
    for language, check in (("fr", french_faults), ("en", english_faults)):
        for client, url in pages:
            html = _render(client, url, language)
            assert f'<html lang="{language}"' in html, (url, language)
            found = [fault for text in visible_texts(html) for fault in check(text)]
            if found:
                faults[f"{language} {url}"] = sorted(set(found))
    assert faults == {}, "\n".join(f"{page}: {f}" for page, fs in faults.items() for f in fs)


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        ("Biais des nombres entiers: 8", 1),
        ("Biais des nombres entiers\u202f: 8", 0),
        ("Bonjour Alice !", 1),
        ("Bonjour Alice\u202f!", 0),
        ("0.8 s", 1),
        ("0,8 s", 0),
        ("Voir http://127.0.0.1:8000/ à 9:30", 0),
        ("Pas encore d'annonce.", 1),
        ("Pas encore d’annonce.", 0),
    ],
)
def test_the_french_rules_catch_what_the_issue_saw(text: str, faults: int) -> None:
    assert len(french_faults(text)) == faults


# Counts (issue 21, point 8: "0 % sur les 1 dernières", "+1 pts"): each sentence with a count
# takes its plural form where the reader sees it, in both languages.


def _seen(template: str, context: dict[str, Any], language: str) -> str:
    with translation.override(language):
        html = render_to_string(template, context)
    return re.sub(" +", " ", " ".join(visible_texts(html)))


def _tiles_for(points: int) -> dict[str, Any]:
    tiles = Tiles(
        active_students=3,
        sessions=2,
        claims=40,
        accuracy=0.5,
        last_week=0.5 + points / 100,
        week_before=0.5,
        median_rt_correct_s=None,
    )
    return {"tiles": _tiles(tiles), "classroom": SimpleNamespace(pk=1, name="CM1")}


@pytest.mark.parametrize(
    ("language", "window", "expected"),
    [
        ("fr", 1, "Maintenant\u202f: Compétent · 80 % sur la dernière occasion"),
        ("fr", 5, "Maintenant\u202f: Compétent · 80 % sur les 5 dernières occasions"),
        ("en", 1, "Now: Compétent · 80 % of the last chance"),
        ("en", 5, "Now: Compétent · 80 % of the last 5 chances"),
    ],
)
def test_the_ladder_counts_its_last_chances(language: str, window: int, expected: str) -> None:
    skill = {"window": window, "state_label": "Compétent", "accuracy": "80 %", "steps": []}
    assert expected in _seen("lessons/reports/_ladder.html", {"ladder": [skill]}, language)


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("fr", 1, "Bonnes réponses sur la dernière\u202f: 1."),
        ("fr", 5, "Bonnes réponses sur les 5 dernières\u202f: 1."),
        ("en", 1, "Right answers out of the last one: 1."),
        ("en", 5, "Right answers out of the last 5: 1."),
    ],
)
def test_the_report_counts_its_last_answers(language: str, count: int, expected: str) -> None:
    context = {"last_count": count, "last_right": 1}
    assert expected in _seen("lessons/reports/_report_body.html", context, language)


@pytest.mark.parametrize(
    ("language", "window", "expected"),
    [
        ("fr", 1, "Familiarisé\u202f; réussites sur la dernière occasion\u202f: 1"),
        ("fr", 5, "Familiarisé\u202f; réussites sur les 5 dernières occasions\u202f: 3"),
        ("en", 1, "Familiar; right on the last chance: 1"),
        ("en", 5, "Familiar; right on the last 5 chances: 3"),
        ("fr", 0, "Pas commencé"),
    ],
)
def test_the_heatmap_cell_counts_its_last_chances(
    language: str, window: int, expected: str
) -> None:
    accuracy = None if window == 0 else (1.0 if window == 1 else 0.6)
    progress = SkillProgress(
        state="familiar" if window else "not_started",
        accuracy=accuracy,
        window=window,
        streak=1,
        opportunities=window,
    )
    with translation.override(language):
        assert skill_cell(progress, language).title == expected


@pytest.mark.parametrize(
    ("language", "points", "expected"),
    [
        ("fr", 1, "+1 point par rapport à la semaine d’avant"),
        ("fr", 5, "+5 points par rapport à la semaine d’avant"),
        ("fr", -5, "-5 points par rapport à la semaine d’avant"),
        ("en", 1, "+1 point vs the week before"),
        ("en", 5, "+5 points vs the week before"),
        ("en", -1, "-1 point vs the week before"),
    ],
)
def test_the_week_change_counts_its_points(language: str, points: int, expected: str) -> None:
    assert expected in _seen("lessons/dashboards/class.html", _tiles_for(points), language)


# Apostrophes (issue 21, point 8: "mixed apostrophes"): the French interface writes ’. The
# catalogue gets it when compiled; French written in code (the engine's refusals and
# explanations, the rulebook, the reasons, the skills) carries it in its source.

# A French elision with a straight quote: "n'est", "l'élève", "qu'elles", "d'%(name)s". English
# code never writes one ("don't", "seat's" and "%(name)s's" have a longer word before).
_FRENCH_ELISION = re.compile(
    r"(?<![\w)])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quelqu|aujourd)'(?=[^\W\d_]|%\(|\{)",
    re.IGNORECASE,
)


def _string_literals(path: Path) -> list[tuple[int, str]]:
    with path.open(encoding="utf-8") as source:
        tokens = tokenize.generate_tokens(io.StringIO(source.read()).readline)
        return [(t.start[0], t.string) for t in tokens if t.type == tokenize.STRING]


def test_french_written_in_code_uses_the_typographic_apostrophe() -> None:
    base = Path(settings.BASE_DIR)
    found = [
        f"{path.relative_to(base)}:{line}: {text}"
        for folder in ("games", "lessons", "unoclass")
        for path in sorted((base / folder).rglob("*.py"))
        for line, text in _string_literals(path)
        if _FRENCH_ELISION.search(text)
    ]
    assert found == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ce n'est pas l'heure d'%(name)s", "Ce n’est pas l’heure d’%(name)s"),
        ("Aujourd'hui, qu'{x}", "Aujourd’hui, qu’{x}"),
        ("<a class='lien' href='/x'>là</a>", "<a class='lien' href='/x'>là</a>"),
        ("« 'citation' »", "« 'citation' »"),
    ],
)
def test_the_catalogue_gets_typographic_apostrophes_and_markup_keeps_its_quotes(
    text: str, expected: str
) -> None:
    assert french_apostrophes(text) == expected
