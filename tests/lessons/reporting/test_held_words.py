"""Issue 31 §1.4: every page that reads a status says "held" in the same careful words.

One function (lessons.reporting.words.check_words) gives the words; each page for the same
pupil must show exactly them: the teacher's student page, the class dashboard, the progress
report (teacher and pupil), and the report's PDF body.
"""

from __future__ import annotations

import html

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from lessons.evidence.loading import RuleStatus, statuses_of, student_rows
from lessons.models import Classroom, Student
from lessons.reporting import pdf_views
from lessons.reporting.words import check_words
from tests.conftest import ClassWorld
from tests.lessons.reporting.test_held_end_to_end import resolved_then_checked
from tests.support.factories import student_client, teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


def _pages(world: ClassWorld, student: Student, lang: str) -> dict[str, str]:
    """Return every page that reads the pupil's statuses, as text, in `lang`."""
    Classroom.objects.filter(pk=world.classroom.pk).update(language=lang)
    teacher = teacher_client(world.teacher)
    pupil = student_client(student)
    for client in (teacher, pupil):
        client.cookies["django_language"] = lang
    room = world.classroom.pk
    pages = {
        "student page": teacher.get(reverse("dashboard_student", args=[room, student.pk])),
        "class dashboard": teacher.get(reverse("dashboard_class", args=[room])),
        "report": teacher.get(reverse("report_student", args=[room, student.pk])),
        "own report": pupil.get(reverse("report_me")),
    }
    texts = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        texts[name] = page_text(response)
    request = RequestFactory().get("/")
    request.user = world.teacher
    with translation.override(lang):
        student.refresh_from_db()
        body = pdf_views._body(request, student, lang, for_student=False)
    texts["PDF"] = html.unescape(body)
    return texts


def _words(status: RuleStatus, lang: str) -> str:
    with translation.override(lang):
        return check_words(status, lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_held_reads_the_same_on_every_page_with_both_dates(class_a: ClassWorld, lang: str) -> None:
    anais = resolved_then_checked(class_a, days=8)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "held"
    words = _words(status, lang)
    with translation.override(lang):
        days = [date_format(check.day, "j F Y") for check in status.checks]
    assert len(days) == 2 and all(day in words for day in days)
    if lang == "fr":
        assert words.startswith("Toujours résolue une semaine plus tard\u202f: ")
        assert "nous avons vérifié à nouveau le " in words and "\u202f; puis le " in words
        assert words.endswith("Une habitude plus faible peut encore exister.")
        assert "piège jamais pris en" in words
    else:
        assert words.startswith("Still resolved a week later: we checked again on ")
        assert words.endswith("A weaker habit may still be there.")
    # Careful words: never "gone", "cured" or a percentage of certainty about the child.
    for overclaim in ("gone", "disparu", "guéri", "cured", "%"):
        assert overclaim not in words
    for name, text in _pages(class_a, anais, lang).items():
        if name == "own report":
            # The child's own report says the two days in a child's words (issue 31 §7).
            with translation.override(lang):
                short = [date_format(check.day, "j F") for check in status.checks]
            assert all(day in text for day in short) and words not in text, name
            continue
        assert words in text, name


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_re_check_six_days_later_reads_resolved_and_says_what_is_to_come(
    class_a: ClassWorld, lang: str
) -> None:
    anais = resolved_then_checked(class_a, days=6)
    status = statuses_of(student_rows(anais.pk))["M1"]
    words = _words(status, lang)
    assert status.status == "resolved"
    said = {"fr": "reste à faire", "en": "is still to come"}[lang]
    assert said in words
    held = {"fr": "Toujours résolue une semaine plus tard", "en": "Still resolved a week later"}
    assert not words.startswith(held[lang])
    for name, text in _pages(class_a, anais, lang).items():
        if name == "own report":
            again = {"fr": "On vérifiera encore dans une semaine.", "en": "check again in a week"}
            assert again[lang] in text, name
            continue
        assert words in text, name


def test_statuses_other_than_resolved_or_held_have_no_check_words(class_a: ClassWorld) -> None:
    statuses = statuses_of(student_rows(class_a.student.student.pk))
    assert all(check_words(status, "en") == "" for status in statuses.values())
