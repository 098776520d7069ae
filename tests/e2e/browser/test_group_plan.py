"""Issue 31 acceptance in the browser: a teacher plans the M1 group and marks the activity
done; the pupils play their three games on three days; the re-check opens on its day on the
pupil's home; the panel reads "acquis 3 sur 4" and names the one relapse "still likely"; the
family note (from the group panel) and the pupil's report say the two re-check dates.

The server's clock is moved by time-machine (tests/support/clocked_asgi.py reads the time the
test writes), the page's by Playwright's clock; the games and most answers are played through
the services in the deployment (scripts), also at the moved time. Never a sleep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import QUICK_BOTS, SETTINGS, Server, serious_violations, signed_in
from tests.lessons.plans.helpers import MONDAY
from tests.support.live import LiveApp

pytestmark = pytest.mark.browser

CHILDREN = ["Chloé", "Dylan", "Emma", "Farid"]
RECHECK = "2026-11-16T10:00:00+01:00"  # the default plan's re-check day, at school


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    directory = tmp_path_factory.mktemp("plan")
    clock = directory / "clock.txt"
    clock.write_text(MONDAY.isoformat(), encoding="utf-8")
    app = LiveApp(
        {**QUICK_BOTS, "UNOCLASS_TEST_CLOCK": str(clock)},
        settings_module=SETTINGS,
        directory=directory,
    )
    try:
        app.migrate()
        yield Server(app, app.start("tests.support.clocked_asgi:application")), clock
    finally:
        app.close()


def _script(server: Server, when: str, body: str) -> dict[str, object]:
    """Run `body` in the deployment at the time `when`; return the JSON it prints."""
    code = (
        "import json\n"
        "from datetime import datetime\n"
        "import time_machine\n"
        f"with time_machine.travel(datetime.fromisoformat({when!r}), tick=False) as clock:\n"
        + "".join(f"    {line}\n" for line in body.strip().splitlines())
    )
    result = server.app.script(code)
    assert isinstance(result, dict)
    return result


def test_plan_the_m1_group_to_held_three_of_four(
    clocked: tuple[Server, Path], browser: Browser
) -> None:
    server, clock = clocked
    world = server.world(students=CHILDREN, table=False)
    classroom = world["classroom"]
    ids = {s["name"]: s["id"] for s in world["students"]}
    _script(
        server,
        MONDAY.isoformat(),
        f"""
from lessons.models import Student
from tests.lessons.reporting.helpers import M1_PLAYS, log_plays
for student in Student.objects.filter(pk__in={list(ids.values())}):
    log_plays(student, M1_PLAYS)
print(json.dumps({{}}))
""",
    )
    teacher = signed_in(browser, server, world["teacher_session"], lang="fr")
    teacher.clock.set_fixed_time(MONDAY)
    page = teacher.new_page()
    page.goto(f"{server.url}/classrooms/{classroom}/dashboard/")
    page.locator("#plan-new-M1").click()
    # The form proposes the group (the four children likely on M1) and the days.
    for name in CHILDREN:
        expect(page.get_by_label(name)).to_be_checked()
    page.locator("#plan-form button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("Plan · Même nombre ajouté")
    page.locator("#plan-done").click()
    expect(page.locator("#plan-loop")).to_contain_text("Fait avec le groupe le 2 novembre")
    assert serious_violations(page) == []  # the plan's page, its pictures and its form
    plan = int(page.url.rstrip("/").rsplit("/", 1)[1])
    # The same day a first clean re-check (resolved); then one game a day on the plan's days.
    _script(
        server,
        MONDAY.isoformat(),
        f"""
from lessons.models import GroupPlan, Student
from lessons.warmup.services import warmup_recheck
from tests.lessons.plans.test_services import answer, at, right
plan = GroupPlan.objects.get(pk={plan})
children = list(Student.objects.filter(pk__in={list(ids.values())}))
for child in children:
    (round_,) = warmup_recheck(teacher=plan.created_by, classroom=plan.classroom,
                               students=[child.pk])
    answer(child, round_.pk, right)
from tests.lessons.practice.helpers import play_one_game
for day in plan.game_dates:
    clock.move_to(at(day))
    for child in children:
        play_one_game(child, plan.assignment)
print(json.dumps({{}}))
""",
    )
    # The day the re-check opens, the pupil's home offers it.
    clock.write_text(RECHECK, encoding="utf-8")
    chloe = signed_in(browser, server, world["students"][0]["session"], lang="fr")
    chloe.clock.set_fixed_time(RECHECK)
    home = chloe.new_page()
    home.goto(f"{server.url}/")
    expect(home.locator("#my-plan")).to_contain_text("Ton petit échauffement t’attend.")
    assert serious_violations(home) == []
    home.locator(f"#plan-recheck-{plan}").click()
    expect(home).to_have_url(re.compile(r"/warmup/\d+/$"))
    # The four answer (Farid takes the M1 traps again).
    _script(
        server,
        RECHECK,
        f"""
from lessons.models import GroupPlan, Student
from lessons.plans.services import plan_recheck_start
from tests.lessons.plans.test_services import answer, m1_pick, right
plan = GroupPlan.objects.get(pk={plan})
for child in Student.objects.filter(pk__in={list(ids.values())}):
    round_ = plan_recheck_start(student=child, plan=plan)
    answer(child, round_.pk, m1_pick if child.display_name == "Farid" else right)
print(json.dumps({{}}))
""",
    )
    teacher.clock.set_fixed_time(RECHECK)
    page.goto(f"{server.url}/classrooms/{classroom}/dashboard/")
    loop = page.locator("#loop-M1")
    expect(loop).to_contain_text("12 parties jouées sur 12")
    expect(loop.locator(".plan-held")).to_have_text("acquis 3 sur 4")
    expect(loop.locator(".plan-likely")).to_have_text("Farid")
    assert json.dumps(ids)  # the world's children were the plan's
    # The family note, from the group panel, says the two days we checked again.
    loop.locator("a.family-link", has_text="Chloé").click()
    expect(page.locator(".family-note__title")).to_have_text("Un mot pour la famille de Chloé")
    checking = page.locator("#family-note-checking")
    expect(checking).to_contain_text(
        "Nous avons vérifié de nouveau le lundi 2 novembre et le lundi 16 novembre."
    )
    assert serious_violations(page) == []
    page.locator("#family-note-other").click()  # the family reads English
    expect(checking).to_contain_text(
        "We checked again on Monday 2 November and on Monday 16 November."
    )
    # The relapse's note says the day and that the work goes on.
    page.goto(f"{server.url}/classrooms/{classroom}/dashboard/")
    page.locator("#loop-M1 a.family-link", has_text="Farid").click()
    expect(checking).to_contain_text("Nous avons vérifié de nouveau le lundi 16 novembre.")
    expect(checking).to_contain_text("Nous continuons à y travailler en classe.")
    # The pupil's report says the same two days, and links to the note.
    page.goto(f"{server.url}/classrooms/{classroom}/reports/{ids['Chloé']}/")
    report = page.locator(".report__rechecked")
    expect(report).to_contain_text("2 novembre 2026")
    expect(report).to_contain_text("16 novembre 2026")
    expect(page.locator("#pupil-family-links a.family-link")).to_have_count(2)
