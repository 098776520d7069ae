"""Issue 31 §7, the session page: it leads with the warm-up's class picture and what the lesson
changed, then the data; a wrong play on a Joker says the denominator asked for, never "?"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from lessons.models import ClassSession
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_attempt, log_plays
from tests.lessons.sessions.helpers import class_of, join_all, start
from tests.lessons.warmup.helpers import scripted
from tests.support.factories import make_teacher, teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


def _page(teacher: Any, session: ClassSession, language: str = "fr") -> str:
    client = teacher_client(teacher)
    client.cookies["django_language"] = language
    url = reverse("dashboard_session", args=[session.classroom_id, session.pk])
    response = client.get(url)
    assert response.status_code == 200
    return page_text(response)


def test_the_session_page_leads_with_the_warm_up_picture_and_what_changed(
    monkeypatch: Any,
) -> None:
    scripted(monkeypatch, items=[])  # the rounds end at once: the picture reads the evidence
    teacher = make_teacher()
    classroom, (ada, bob) = class_of(teacher, 2)
    session = start(teacher, classroom, warmup=True)
    join_all(session, [ada, bob])
    began = session.started_at - timedelta(hours=1)
    ClassSession.objects.filter(pk=session.pk).update(started_at=began)
    session.refresh_from_db()
    # Bob played right before the lesson; in it Ada showed the additive habit (M1).
    log_plays(bob, RIGHT_PLAYS, start=began - timedelta(days=1))
    log_plays(ada, M1_PLAYS + RIGHT_PLAYS, session=session, start=began + timedelta(minutes=1))
    log_plays(bob, RIGHT_PLAYS, session=session, start=began + timedelta(minutes=1))
    page = _page(teacher, session)
    picture = page.index('id="class-picture"')
    changes = page.index('id="changes-title"')
    table = page.index('id="who-title"')
    assert picture < changes < table
    m1 = page[picture:].split('data-rule="M1"')[1].split("</section>")[0]
    assert ada.display_name in m1 and bob.display_name not in m1
    listed = page[changes:table]
    assert ada.display_name in listed and bob.display_name not in listed
    assert "Même nombre ajouté" in listed and "→ probable" in listed.lower()


def test_a_session_without_a_warm_up_still_says_what_changed(monkeypatch: Any) -> None:
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    session = start(teacher, classroom)
    log_plays(ada, RIGHT_PLAYS, session=session, start=session.started_at)
    page = _page(teacher, session, "en")
    assert 'id="class-picture"' not in page
    assert "No misconception became likely or was checked clean again in this lesson." in page


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Joker (dénominateur 6 demandé) → 4/12"), ("en", "Joker (denominator 6 asked) → 4/12")],
)
def test_a_wrong_play_on_a_joker_says_the_denominator_asked_for(language: str, words: str) -> None:
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    session = start(teacher, classroom)
    for seconds in (0, 40):
        log_attempt(
            ada,
            None,
            (4, 12),
            "denominator",
            named_denominator=6,
            session=session,
            at=session.started_at + timedelta(seconds=seconds),
        )
    page = _page(teacher, session, language)
    assert words in page
    assert "? →" not in page
    class_page = teacher_client(teacher)
    class_page.cookies["django_language"] = language
    whole = page_text(class_page.get(reverse("dashboard_class", args=[classroom.pk])))
    assert words in whole and "? →" not in whole
