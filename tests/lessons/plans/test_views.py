"""Issue 31 §2-3 over HTTP: "Planifier" on the dashboard, the plan's forms, its A4 sheet, the
child's home."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from pypdf import PdfReader

from lessons.models import GroupPlan
from lessons.plans.services import plan_mark_done
from tests.conftest import ClassWorld
from tests.lessons.plans.helpers import MONDAY, m1_children, plan_m1
from tests.support.factories import signed_in_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def monday() -> Any:
    with time_machine.travel(MONDAY, tick=False) as traveller:
        yield traveller


def fr(user: Any) -> Any:
    return signed_in_client(user, "fr")


def test_the_dashboard_offers_planifier_then_shows_the_loop(
    class_a: ClassWorld, monday: Any
) -> None:
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    url = reverse("dashboard_class", args=[class_a.classroom.pk])
    page = fr(class_a.teacher).get(url).content.decode()
    new = reverse("plan_new", args=[class_a.classroom.pk, "M1"])
    assert f'href="{new}" id="plan-new-M1">Planifier</a>' in page
    plan = plan_m1(class_a.teacher, class_a.classroom, children)
    plan_mark_done(teacher=class_a.teacher, plan=plan)
    page = fr(class_a.teacher).get(url).content.decode()
    assert "Fait avec le groupe le 2 novembre" in page
    assert "acquis 0 sur 2" in page and "0 parties jouées sur 6" in page
    # The weekly bars mark the week the activity was done.
    weekly = page[page.index('id="weekly-title"') :]
    assert "activité faite avec le groupe le 2 novembre" in weekly
    assert reverse("plan_detail", args=[class_a.classroom.pk, plan.pk]) in page


def test_the_form_proposes_the_group_and_the_days(class_a: ClassWorld, monday: Any) -> None:
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    url = reverse("plan_new", args=[class_a.classroom.pk, "M1"])
    page = fr(class_a.teacher).get(url).content.decode()
    for child in children:  # the group: ticked
        assert re.search(rf'value="{child.pk}" id="id_students_\d+" checked', page)
    assert not re.search(
        rf'value="{class_a.student.student.pk}" id="id_students_\d+" checked', page
    )
    assert 'value="2026-11-03"' in page and 'value="2026-11-16"' in page
    response = fr(class_a.teacher).post(
        url,
        {
            "activity": "pairs",
            "students": [str(c.pk) for c in children],
            "game1_on": "2026-11-03",
            "game2_on": "2026-11-05",
            "game3_on": "2026-11-09",
            "recheck_on": "2026-11-16",
        },
    )
    plan = GroupPlan.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("plan_detail", args=[class_a.classroom.pk, plan.pk])
    assert plan.activity == "pairs" and set(plan.members.all()) == set(children)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"recheck_on": "2026-11-12"}, "au moins 7 jours après la dernière partie"),
        ({"game2_on": "2026-11-03"}, "chacun après le précédent (une partie par jour)"),
        ({"game1_on": "2026-10-30"}, "Une nouvelle date ne peut pas être passée"),
        ({"game1_on": "le 3"}, "Saisissez une date valide."),
        ({"students": []}, "Ce champ est obligatoire."),
        ({"activity": "dance"}, "Sélectionnez un choix valide."),
    ],
)
def test_bad_input_is_a_translated_error_and_changes_nothing(
    class_a: ClassWorld, monday: Any, change: dict[str, Any], error: str
) -> None:
    children = m1_children(class_a.classroom, ["Chloé"])
    data = {
        "activity": "line",
        "students": [str(children[0].pk)],
        "game1_on": "2026-11-03",
        "game2_on": "2026-11-05",
        "game3_on": "2026-11-09",
        "recheck_on": "2026-11-16",
        **change,
    }
    url = reverse("plan_new", args=[class_a.classroom.pk, "M1"])
    response = fr(class_a.teacher).post(url, data)
    assert response.status_code == 200
    assert error in response.content.decode().replace("\u202f", " ").replace("\u2019", "'")
    assert not GroupPlan.objects.exists()


def test_the_teacher_changes_the_plan_and_marks_it_done(class_a: ClassWorld, monday: Any) -> None:
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    plan = plan_m1(class_a.teacher, class_a.classroom, children[:1])
    teacher = fr(class_a.teacher)
    edit = reverse("plan_edit", args=[class_a.classroom.pk, plan.pk])
    data = {
        "activity": "strip",
        "students": [str(c.pk) for c in children],
        "game1_on": "2026-11-04",
        "game2_on": "2026-11-06",
        "game3_on": "2026-11-10",
        "recheck_on": "2026-11-09",
    }
    page = teacher.post(edit, data).content.decode().replace("\u202f", " ")
    assert "au moins 7 jours" in page
    assert teacher.post(edit, {**data, "recheck_on": "2026-11-17"}).status_code == 302
    plan.refresh_from_db()
    assert plan.activity == "strip" and plan.members.count() == 2
    done = reverse("plan_done", args=[class_a.classroom.pk, plan.pk])
    assert teacher.post(done, {"on": "2026-11-09"}).status_code == 302  # a future day: refused
    plan.refresh_from_db()
    assert plan.activity_done_on is None
    teacher.post(done, {})
    plan.refresh_from_db()
    assert plan.activity_done_on == MONDAY.date()


def test_the_plan_page_draws_the_group_s_own_pairs(class_a: ClassWorld, monday: Any) -> None:
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    plan = plan_m1(class_a.teacher, class_a.classroom, children)
    url = reverse("plan_detail", args=[class_a.classroom.pk, plan.pk])
    page = fr(class_a.teacher).get(url).content.decode()
    assert "Deux fractions sur une droite graduée" in page
    assert "Les paires fausses du groupe, à l’échelle" in page
    assert "1/2 et 2/3 : jouées comme égales" in page.replace("\u202f", " ")
    assert page.count("<svg") >= 3 and "Chloé" in page and "Dylan" in page


def test_the_sheet_is_one_a4_page_without_external_resources(
    class_a: ClassWorld, monday: Any
) -> None:
    children = m1_children(class_a.classroom, [f"Enfant {n}" for n in range(6)])
    plan = plan_m1(class_a.teacher, class_a.classroom, children)
    for lang, title in (("fr", "Deux fractions sur une droite graduée"), ("en", "Two fractions")):
        response = signed_in_client(class_a.teacher, lang).get(
            reverse("plan_pdf", args=[class_a.classroom.pk, plan.pk])
        )
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        reader = PdfReader(io.BytesIO(response.content))
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4
        assert title in reader.pages[0].extract_text()


def test_without_pdf_printing_the_sheet_opens_as_a_page_to_print(
    class_a: ClassWorld, monday: Any, settings: Any
) -> None:
    settings.PDF_PRINTING = False
    plan = plan_m1(class_a.teacher, class_a.classroom, m1_children(class_a.classroom, ["Chloé"]))
    teacher = fr(class_a.teacher)
    detail = teacher.get(reverse("plan_detail", args=[class_a.classroom.pk, plan.pk]))
    assert "Imprimer la fiche du groupe (page à imprimer)" in detail.content.decode()
    assert "Pourquoi pas de PDF" in detail.content.decode()
    response = teacher.get(reverse("plan_pdf", args=[class_a.classroom.pk, plan.pk]))
    page = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "Cet ordinateur ne peut pas faire de PDF" in page
    assert "Deux fractions sur une droite graduée" in page and "Chloé" in page


def test_the_child_s_home_says_what_was_planned(class_a: ClassWorld, monday: Any) -> None:
    anais = class_a.student.student
    plan = plan_m1(class_a.teacher, class_a.classroom, [anais])
    pupil = fr(anais.user)
    page = pupil.get(reverse("home")).content.decode()
    assert "Prévu pour toi" in page
    assert "3 parties d’ici le 9 novembre (une par jour)" in page
    assert reverse("plan_recheck", args=[plan.pk]) not in page
    # A classmate outside the plan sees nothing of it.
    assert (
        "Prévu pour toi" not in fr(class_a.other_student.user).get(reverse("home")).content.decode()
    )
    monday.move_to(MONDAY + timedelta(days=14))
    pupil = fr(anais.user)  # a new day's sign-in
    page = pupil.get(reverse("home")).content.decode()
    assert "Ton petit échauffement t’attend." in page
    response = pupil.post(reverse("plan_recheck", args=[plan.pk]))
    assert response.status_code == 302 and "/warmup/" in response["Location"]


def test_the_pupil_s_page_marks_the_plan_under_the_strip(class_a: ClassWorld, monday: Any) -> None:
    (chloe,) = m1_children(class_a.classroom, ["Chloé"])
    plan = plan_m1(class_a.teacher, class_a.classroom, [chloe])
    url = reverse("dashboard_student", args=[class_a.classroom.pk, chloe.pk])
    page = fr(class_a.teacher).get(url).content.decode()
    assert "Planifié, activité pas encore faite" in page
    assert "Revérification à partir du 16 novembre" in page
    plan_mark_done(teacher=class_a.teacher, plan=plan)
    page = fr(class_a.teacher).get(url).content.decode()
    strip = page[page.index('class="strip"') :]
    assert "Fait avec le groupe le 2 novembre" in strip[: strip.index("</section>")]
