"""Issue 31 §7: the class PDF opens with a class page (the groups, the plans, the loop, the
dates), the pupils' reports follow; a pupil's report still prints alone."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import formats
from pypdf import PdfReader

from lessons.models import GroupPlan
from lessons.plans import services
from lessons.printing import printing
from lessons.printing.pdf_render import warm_up
from lessons.printing.printing import PrintPool
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.lessons.reporting.test_pdf import FakePrinter, _parts_in_order, printer
from tests.support.factories import teacher_client

pytestmark = pytest.mark.django_db
__all__ = ["printer"]  # the fixture of test_pdf.py: a fake WeasyPrint, two workers


def _planned(world: ClassWorld) -> GroupPlan:
    anais = world.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    log_plays(world.other_student.student, RIGHT_PLAYS)
    return services.plan_create(
        teacher=world.teacher, classroom=world.classroom, rule="M1", students=[anais]
    )


def _class_pdf(world: ClassWorld) -> bytes:
    response = teacher_client(world.teacher).get(
        reverse("report_class_pdf", args=[world.classroom.pk])
    )
    assert response.status_code == 200
    return bytes(response.content)


def test_the_class_page_comes_first_with_the_groups_the_plan_and_its_dates(
    class_a: ClassWorld, printer: FakePrinter
) -> None:
    plan = _planned(class_a)
    html = "".join(_parts_in_order(printer, _class_pdf(class_a)))
    page = html.index("La classe · Classe A")
    reports = html.index("Bilan de progrès · AnaïsA")
    assert page < reports < html.index("Bilan de progrès · BasileA")
    first = html[page:reports]
    assert "Même nombre ajouté" in first and "AnaïsA" in first  # the group and its child
    for day in (plan.game1_on, plan.game2_on, plan.game3_on, plan.recheck_on):
        assert formats.date_format(day, "j F") in first
    assert "activité pas encore faite" in first and "acquis 0 sur 1" in first  # the loop
    # Marking the activity done is a new version of the class PDF: printed again.
    printed = len(printer.documents)
    services.plan_mark_done(teacher=class_a.teacher, plan=plan)
    again = "".join(_parts_in_order(printer, _class_pdf(class_a)))
    assert len(printer.documents) > printed and "Fait avec le groupe le" in again
    # A pupil's report prints alone, without the class page.
    alone = teacher_client(class_a.teacher).get(
        reverse("report_student_pdf", args=[class_a.classroom.pk, class_a.student.student.pk])
    )
    assert alone.status_code == 200
    assert "La classe ·" not in printer.documents[-1]
    assert "Bilan de progrès · AnaïsA" in printer.documents[-1]


@pytest.mark.timeout(240)
def test_the_printed_class_pdf_starts_with_its_class_page(class_a: ClassWorld) -> None:
    pytest.importorskip("weasyprint")
    _planned(class_a)
    pool = PrintPool(1, warm=warm_up)
    previous = printing.use_pool(pool)
    try:
        cache.clear()
        reader = PdfReader(io.BytesIO(_class_pdf(class_a)))
    finally:
        printing.use_pool(previous)
        pool.shutdown()
    first = reader.pages[0].extract_text()
    assert "La classe · Classe A" in first and "Bilan de progrès" not in first
    second = reader.pages[1].extract_text()
    assert second.lstrip().startswith("Bilan de progrès · AnaïsA")


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
def test_the_demo_class_pdf_pages(capsys: pytest.CaptureFixture[str]) -> None:
    """Print the demo class's PDF (24 pupils, one group planned): docs/dashboards.md states
    its page count."""
    pytest.importorskip("weasyprint")
    from lessons.classrooms.names import by_name
    from lessons.demo.data import demo_classroom_ensure, demo_history_ensure
    from lessons.plans.selectors import likely_students
    from lessons.reporting.class_report import class_dashboard

    demo = demo_classroom_ensure()
    demo_history_ensure(demo)
    classroom = demo.classroom
    rule = class_dashboard(classroom).groups[0].rule.id
    services.plan_create(
        teacher=demo.teacher,
        classroom=classroom,
        rule=rule,
        students=likely_students(classroom, rule),
    )
    pool = PrintPool(2, warm=warm_up)
    previous = printing.use_pool(pool)
    try:
        cache.clear()
        response = teacher_client(demo.teacher).get(
            reverse("report_class_pdf", args=[classroom.pk])
        )
    finally:
        printing.use_pool(previous)
        pool.shutdown()
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.content))
    with capsys.disabled():
        print(f"\ndemo class PDF: {len(reader.pages)} pages")
    first = by_name(list(classroom.students.all()))[0].display_name
    assert f"La classe · {classroom.name}" in reader.pages[0].extract_text()
    assert f"Bilan de progrès · {first}" in reader.pages[1].extract_text()
