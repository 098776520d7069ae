"""Issue 31 §5: the note for each child's family, its words, dates, page and PDF (FR and EN)."""

from __future__ import annotations

import io
import re
from datetime import date, timedelta
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from pypdf import PdfReader

from lessons.diagnosis.rulebook import RULES_BY_ID
from lessons.models import GroupPlan, PlanMember
from lessons.plans import services
from lessons.plans.family import MAX_WORDS, family_note, family_notes
from lessons.plans.services import plan_create
from tests.conftest import ClassWorld
from tests.lessons.plans.helpers import MONDAY, m1_children, plan_m1
from tests.lessons.plans.test_services import answer, at, m1_pick
from tests.lessons.reporting.test_held_end_to_end import answer_round, right
from tests.support.factories import make_student, signed_in_client

pytestmark = pytest.mark.django_db

RULE_CODE = re.compile(r"\b(M\d+a?|D1)\b")
SENTENCE = re.compile(r"(?<=[.!?])\s+")


@pytest.fixture
def monday() -> Any:
    with time_machine.travel(MONDAY, tick=False) as traveller:
        yield traveller


def _member(plan: GroupPlan, name: str) -> PlanMember:
    return plan.memberships.select_related("student", "recheck").get(student__display_name=name)


def _readable(sentences: list[str]) -> None:
    """No rule code, no percentage, no sentence longer than MAX_WORDS words."""
    for text in sentences:
        assert not RULE_CODE.search(text), text
        assert "%" not in text, text
        for sentence in SENTENCE.split(text):
            assert len(sentence.split()) <= MAX_WORDS, sentence


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_rule_s_note_is_short_sentences_without_codes(
    class_a: ClassWorld, monday: Any, lang: str
) -> None:
    child = make_student(classroom=class_a.classroom, display_name="Marie-Charlotte").student
    for rule in RULES_BY_ID:
        if rule in ("U", "D1"):
            continue
        plan = plan_create(
            teacher=class_a.teacher, classroom=class_a.classroom, rule=rule, students=[child]
        )
        note = family_note(plan, _member(plan, "Marie-Charlotte"), lang)
        _readable([note.title, *note.sentences(), *note.headings.values()])
        assert len(note.pictures) == 2 and all("<svg" in p for p in note.pictures)


def test_the_note_says_the_pair_the_activity_and_when_we_check(
    class_a: ClassWorld, monday: Any
) -> None:
    (chloe,) = m1_children(class_a.classroom, ["Chloé"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe])
    note = family_note(plan, _member(plan, "Chloé"), "fr")
    assert note.title == "Un mot pour la famille de Chloé"
    assert "Parfois, Chloé joue 1/2 et 2/3 comme si elles étaient égales." in note.working_on
    assert "Des fractions égales tombent au même endroit, comme 1/2 et 2/4." in note.working_on
    assert (
        note.at_home[1]
        == "Pliez la première bande en 2 parts égales et coloriez-en 1\u202f: c’est 1/2."
    )
    assert note.at_home[2].startswith("Pliez la deuxième bande en 3 parts égales et coloriez-en 2")
    assert note.checking == [
        "Nous vérifierons de nouveau à partir du lundi 16 novembre, avec un petit échauffement "
        "en classe."
    ]
    english = family_note(plan, _member(plan, "Chloé"), "en")
    assert english.title == "A note for Chloé's family"
    assert english.checking == [
        "We will check again from Monday 16 November, with a short warm-up in class."
    ]
    # Drawn to scale by the plan sheet's own code (lessons.plans.number_lines).
    assert 'data-length="420.0"' in note.pictures[0] and 'data-value="2/3"' in note.pictures[0]


def test_after_the_re_checks_the_note_says_the_two_dates(class_a: ClassWorld, monday: Any) -> None:
    chloe, farid = m1_children(class_a.classroom, ["Chloé", "Farid"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe, farid])
    for child in (chloe, farid):
        answer_round(class_a, child)  # a first clean re-check on 2 November: resolved
    monday.move_to(at(plan.recheck_on))
    for child in (chloe, farid):
        round_ = services.plan_recheck_start(student=child, plan=plan)
        answer(child, round_.pk, m1_pick if child == farid else right)
    note = family_note(plan, _member(plan, "Chloé"), "fr")
    assert note.checking == [
        "Nous avons vérifié de nouveau le lundi 2 novembre et le lundi 16 novembre.",
        "Chaque fois, Chloé a évité cette erreur.",
    ]
    assert family_note(plan, _member(plan, "Chloé"), "en").checking[0] == (
        "We checked again on Monday 2 November and on Monday 16 November."
    )
    # The relapse: the day is said, and that the work goes on (no verdict of a habit gone).
    assert family_note(plan, _member(plan, "Farid"), "fr").checking == [
        "Nous avons vérifié de nouveau le lundi 16 novembre.",
        "Nous continuons à y travailler en classe.",
    ]
    _readable(family_note(plan, _member(plan, "Farid"), "en").sentences())


def _url(name: str, plan: GroupPlan, *student: int) -> str:
    return reverse(name, args=[plan.classroom_id, plan.pk, *student])


def test_the_page_in_the_teacher_s_or_the_chosen_language(class_a: ClassWorld, monday: Any) -> None:
    (chloe,) = m1_children(class_a.classroom, ["Chloé"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe])
    teacher = signed_in_client(class_a.teacher, "fr")
    page = teacher.get(_url("family_note", plan, chloe.pk)).content.decode()
    assert "Un mot pour la famille de Chloé" in page and "Cinq minutes à la maison" in page
    assert page.count("<svg") >= 2
    english = teacher.get(_url("family_note", plan, chloe.pk) + "?lang=en").content.decode()
    assert "A note for Chloé&#x27;s family" in english and "Five minutes at home" in english
    assert 'lang="en"' in english


@pytest.mark.parametrize("bad", ["xx", "", "FR", "fr-FR", "en<script>", "fr&lang=en"])
def test_a_bad_language_is_a_400_on_every_note_url(
    class_a: ClassWorld, monday: Any, bad: str
) -> None:
    (chloe,) = m1_children(class_a.classroom, ["Chloé"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe])
    teacher = signed_in_client(class_a.teacher, "fr")
    for url in (
        _url("family_note", plan, chloe.pk),
        _url("family_note_pdf", plan, chloe.pk),
        _url("family_notes_pdf", plan),
    ):
        assert teacher.get(url, {"lang": bad}).status_code == 400


def test_only_a_child_of_the_plan_still_in_the_class_has_a_note(
    class_a: ClassWorld, monday: Any
) -> None:
    from lessons.pupils.changes import student_move
    from tests.support.factories import make_classroom

    chloe, dylan = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe, dylan])
    teacher = signed_in_client(class_a.teacher, "fr")
    outside = class_a.other_student.student  # a classmate outside the plan
    assert teacher.get(_url("family_note", plan, outside.pk)).status_code == 404
    assert teacher.get(_url("family_note", plan, 999_999)).status_code == 404
    # Moved to another class: the note follows the child, out of the old class's plan.
    student_move(student=dylan, to=make_classroom(teacher=class_a.teacher, name="Classe A2"))
    assert teacher.get(_url("family_note", plan, dylan.pk)).status_code == 404
    assert [n.student.display_name for n in family_notes(plan, "fr")] == ["Chloé"]
    page = teacher.get(reverse("dashboard_class", args=[class_a.classroom.pk])).content.decode()
    assert _url("family_note", plan, chloe.pk) in page
    assert _url("family_note", plan, dylan.pk) not in page


@pytest.mark.parametrize(
    ("lang", "title", "group"),
    [("fr", "Un mot pour la famille de", True), ("en", "A note for", False)],
)
def test_the_notes_print_one_a4_page_a_child_in_fr_and_en(
    class_a: ClassWorld, monday: Any, lang: str, title: str, group: bool
) -> None:
    """The group's notes (a page a child) in French, one child's note in English."""
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    plan = plan_m1(class_a.teacher, class_a.classroom, children)
    teacher = signed_in_client(class_a.teacher, "fr")
    if group:
        response = teacher.get(_url("family_notes_pdf", plan), {"lang": lang})
    else:
        response = teacher.get(_url("family_note_pdf", plan, children[0].pk), {"lang": lang})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == (2 if group else 1)
    for page, child in zip(reader.pages, children, strict=False):
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4
        text = page.extract_text().replace("\n", " ")
        assert f"{title}" in text and child.display_name in text
        day = "lundi 16 novembre" if lang == "fr" else "Monday 16 November"
        assert day in text
    if lang == "fr":  # French typography: a narrow no-break space before ":" and "?"
        assert "\u202f?" in text and "\u202f:" in text


def test_the_pupil_s_page_and_report_link_to_the_note(class_a: ClassWorld, monday: Any) -> None:
    (chloe,) = m1_children(class_a.classroom, ["Chloé"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe])
    teacher = signed_in_client(class_a.teacher, "fr")
    for name in ("dashboard_student", "report_student"):
        page = teacher.get(reverse(name, args=[class_a.classroom.pk, chloe.pk])).content.decode()
        assert f"{_url('family_note', plan, chloe.pk)}?lang=fr" in page, name
        assert f"{_url('family_note', plan, chloe.pk)}?lang=en" in page, name
    # The child's own report has no link to a teacher's page.
    assert (
        "family_note"
        not in signed_in_client(chloe.user, "fr").get(reverse("report_me")).content.decode()
    )
    assert (
        date(2026, 11, 16) == plan.recheck_on
        and timedelta(days=14) == plan.recheck_on - MONDAY.date()
    )
