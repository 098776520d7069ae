"""Issue 31 §7: the child's own report is written for a 9-year-old, on the page and in its PDF.

Short sentences, "tu", no threshold and no percentage; the teacher's report keeps its words.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from lessons.reporting import pdf_views
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import student_client, teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db

# The teacher's words the child must never read: cut-offs, statuses, percentages.
TEACHER_WORDS = {
    "fr": ("Compétent à partir de", "Choses à travailler", "probable", "%", "M1"),
    "en": ("Proficient from", "Things to work on", "likely", "%", "M1"),
}
CHILD_WORDS = {
    "fr": ("Ton bilan", "Tu as joué", "Ce que tu sais faire", "comme si elles étaient égales"),
    "en": ("Your progress", "You played", "What you can do", "as if they were equal"),
}


def _main(text: str) -> str:
    """Return the visible words of the report's article (tags and attributes dropped)."""
    body = text.split('<article class="report', 1)[1].split("</article>", 1)[0]
    body = re.sub(r"<svg.*?</svg>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _sentences(words: str) -> list[str]:
    return [s.strip() for s in re.split(r"[.!?]", words) if s.strip()]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_childs_own_report_speaks_to_the_child(class_a: ClassWorld, lang: str) -> None:
    student = class_a.student.student
    log_plays(student, M1_PLAYS + RIGHT_PLAYS)
    pupil = student_client(student)
    pupil.cookies["django_language"] = lang
    response = pupil.get(reverse("report_me"))
    assert response.status_code == 200
    words = _main(page_text(response))
    for said in CHILD_WORDS[lang]:
        assert said in words
    for teacher_said in TEACHER_WORDS[lang]:
        assert teacher_said not in words
    # Short sentences: at most 20 words each (a figure or a name counts as a word).
    assert max(len(s.split()) for s in _sentences(words)) <= 20
    # The child's PDF prints the same body.
    request = RequestFactory().get("/")
    request.user = student.user
    with translation.override(lang):
        body = _main(pdf_views._body(request, student, lang, for_student=True))
    assert CHILD_WORDS[lang][0] in body and TEACHER_WORDS[lang][0] not in body
    # The teacher's report of the same child keeps the teacher's words.
    teacher = teacher_client(class_a.teacher)
    teacher.cookies["django_language"] = lang
    url = reverse("report_student", args=[class_a.classroom.pk, student.pk])
    theirs = _main(page_text(teacher.get(url)))
    assert TEACHER_WORDS[lang][0] in theirs and TEACHER_WORDS[lang][1] in theirs
