"""The warm-up pages: the student's round (item, reason prompt, end), the teacher's overview.

The pages never say right or wrong before the end, ask the same question after a right and
a wrong answer, refuse bad input with a translated message and change nothing then; the
teacher's overview shows progress, never a student's answers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import Attempt, WarmupRound
from lessons.sessions import services as sessions
from lessons.warmup import services
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.lessons.sessions.helpers import class_of, join_all, start
from tests.lessons.warmup.helpers import ITEMS, scripted
from tests.support.factories import make_teacher, student_client, teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db

QUESTION = {"fr": "Quelle carte lui est égale\u202f?", "en": "Which card is equal to it?"}
WHY = {"fr": "Pourquoi as-tu choisi cette carte\u202f?", "en": "Why did you choose this card?"}
SAVED = {"fr": "Ta réponse est enregistrée.", "en": "Your answer is saved."}
# Words the page must never show before the end of the round.
VERDICTS = ("Bravo", "Faux", "Juste", "Correct", "Wrong", "Right", "✓", "✗", "point")


def _client(user: Any, language: str) -> Client:
    client = student_client(user) if hasattr(user, "classroom") else teacher_client(user)
    client.cookies["django_language"] = language
    return client


def _session(count: int = 2) -> tuple[Any, list[Any]]:
    teacher = make_teacher()
    classroom, students = class_of(teacher, count)
    session = start(teacher, classroom, warmup=True)
    join_all(session, students)
    return session, students


def _page(client: Client, round_: WarmupRound) -> str:
    response = client.get(reverse("warmup_page", args=[round_.pk]))
    assert response.status_code == 200
    return page_text(response)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_student_sees_the_top_card_four_cards_and_the_question(
    monkeypatch: Any, language: str
) -> None:
    scripted(monkeypatch)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, language)
    # The class game sends a student still in the warm-up to it.
    response = client.get(reverse("session_play", args=[round_.session_id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("warmup_page", args=[round_.pk])
    page = _page(client, round_)
    assert QUESTION[language] in page
    assert 'id="warmup-top"' in page and ">1/2<" in page
    buttons = re.findall(r'name="choice" value="([^"]+)"', page)
    assert buttons == ITEMS[0]["options"]
    # Keys 1-4; no Braille marking ("2/3j") under the values outside an accessible table.
    assert all(f'data-key="{key}"' in page for key in range(1, 5))
    assert "2/3j" not in page and 'class="card__mark"' not in page
    assert not any(word in page for word in VERDICTS)


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("choice", ["3/6", "2/3"])
def test_after_a_right_or_a_wrong_answer_the_same_question_follows(
    monkeypatch: Any, language: str, choice: str
) -> None:
    scripted(monkeypatch, ask=True)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, language)
    response = client.post(
        reverse("warmup_answer", args=[round_.pk]), {"item": "1", "choice": choice}
    )
    assert response.status_code == 302
    assert Attempt.objects.filter(student=ada, source="probe").count() == 1
    page = _page(client, round_)
    assert WHY[language] in page and SAVED[language] in page
    codes = re.findall(r'name="reason" value="([^"]*)"', page)
    assert sorted(codes) == sorted(
        ["added_same", "same_top", "same_bottom", "guessed", "same_factor", ""]
    )
    assert choice not in re.sub(r"<[^>]+>", "", page.split('id="warmup-reason"')[1])
    assert not any(word in page for word in VERDICTS)


def test_the_round_ends_with_a_kind_summary_and_one_worked_example(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, "en")
    for number, choice in enumerate(("2/3", "4/12", "8/12"), start=1):
        client.post(reverse("warmup_answer", args=[round_.pk]), {"item": number, "choice": choice})
        client.post(reverse("warmup_reason", args=[round_.pk]), {"reason": ""})
    page = _page(client, round_)
    assert "Thank you: the warm-up is over!" in page
    assert "You looked at 3 cards carefully." in page
    # The one wrong answer (2/3 for 1/2) comes back on a number line, with its words.
    assert 'id="warmup-example-data"' in page and '"sentence": "1/2 and 2/3 are not equal' in page
    assert 'id="play-example"' in page
    assert reverse("session_play", args=[round_.session_id]) in page
    # No score: nothing counts the right answers.
    assert "2 of 3" not in page and "2/3 right" not in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"item": "1", "choice": "7/8"}, "Choisis une des cartes montrées."),
        ({"item": "x", "choice": "3/6"}, "Choisis une des cartes montrées."),
        ({"choice": "3/6"}, "Choisis une des cartes montrées."),
        ({"item": "2", "choice": "3/6"}, "Cette carte n’est plus celle à laquelle répondre"),
    ],
)
def test_a_bad_answer_gets_a_translated_message_and_changes_nothing(
    monkeypatch: Any, data: dict[str, str], message: str
) -> None:
    scripted(monkeypatch)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, "fr")
    response = client.post(reverse("warmup_answer", args=[round_.pk]), data, follow=True)
    assert message in page_text(response)
    assert not Attempt.objects.exists()
    round_.refresh_from_db()
    assert round_.answered == 0 and round_.asking_id is None


def test_a_bad_reason_gets_a_translated_message_and_changes_nothing(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, "fr")
    client.post(reverse("warmup_answer", args=[round_.pk]), {"item": "1", "choice": "2/3"})
    response = client.post(
        reverse("warmup_reason", args=[round_.pk]), {"reason": "M1"}, follow=True
    )
    assert "Cette réponse ne fait pas partie des choix." in page_text(response)
    round_.refresh_from_db()
    assert round_.asking_id is not None and round_.answered == 1
    assert Attempt.objects.get().reason is None


def test_the_teacher_sees_progress_never_the_answers(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    session, (ada, bob) = _session()
    client = _client(ada, "en")
    round_ = WarmupRound.objects.get(student=ada)
    client.post(reverse("warmup_answer", args=[round_.pk]), {"item": "1", "choice": "2/3"})
    page = page_text(
        _client(session.classroom.teacher, "en").get(reverse("session_overview", args=[session.pk]))
    )
    rows = dict(
        re.findall(r'data-student="(\d+)">\s*<th scope="row">[^<]+</th>\s*<td>(\d+)</td>', page)
    )
    assert rows == {str(ada.pk): "1", str(bob.pk): "0"}
    assert "0 of 2 students finished." in page
    # Neither the card chosen nor the item's fractions appear on the teacher's overview.
    progress = page.split('id="warmup-progress"')[1].split('id="alerts-title"')[0]
    assert progress.count("answering") == 2
    assert "2/3" not in progress and "1/2" not in progress


def test_the_class_picture_groups_students_by_likely_misconception(monkeypatch: Any) -> None:
    scripted(monkeypatch, items=[])  # the rounds end at once: the picture reads the evidence
    teacher = make_teacher()
    classroom, (ada, bob, cleo) = class_of(teacher, 3)
    log_plays(ada, M1_PLAYS + RIGHT_PLAYS)
    log_plays(bob, M1_PLAYS + RIGHT_PLAYS)
    log_plays(cleo, RIGHT_PLAYS * 3)
    session = start(teacher, classroom, warmup=True)
    join_all(session, [ada, bob, cleo])
    page = page_text(_client(teacher, "en").get(reverse("session_overview", args=[session.pk])))
    picture = page.split('id="class-picture"')[1]
    m1 = picture.split('data-rule="M1"')[1].split("</section>")[0]
    assert ada.display_name in m1 and bob.display_name in m1 and cleo.display_name not in m1
    none = picture.split('data-rule="none"')[1].split("</section>")[0]
    assert cleo.display_name in none
    assert "The class picture" in page and "3 of 3 students finished." in page


def test_seat_by_need_puts_students_sharing_a_misconception_together(monkeypatch: Any) -> None:
    scripted(monkeypatch, items=[])
    teacher = make_teacher()
    classroom, students = class_of(teacher, 6)
    needs, others = students[:2], students[2:]
    for student in needs:
        log_plays(student, M1_PLAYS + RIGHT_PLAYS)
    for student in others:
        log_plays(student, RIGHT_PLAYS * 3)
    session = start(teacher, classroom, warmup=True, table_size=4)
    join_all(session, students)
    response = _client(teacher, "en").post(
        reverse("session_seat", args=[session.pk]), {"by_need": "on"}
    )
    assert response.status_code == 302
    tables = {m.student_id: m.table for m in session.members.select_related("table__table")}
    members = {student: table for student, table in tables.items() if table is not None}
    assert len(members) == len(tables)  # everyone seated
    need_tables = {members[s.pk].pk for s in needs}
    assert len(need_tables) == 1
    (need_table,) = need_tables
    assert all(members[s.pk].pk != need_table for s in others)
    aimed = members[needs[0].pk].table.options
    assert aimed.get("aim_pairs") and aimed.get("aim_seat") == 0
    assert all("aim_pairs" not in members[s.pk].table.options for s in others)


def test_seating_without_need_deals_as_today(monkeypatch: Any) -> None:
    scripted(monkeypatch, items=[])
    teacher = make_teacher()
    classroom, students = class_of(teacher, 4)
    for student in students[:2]:
        log_plays(student, M1_PLAYS + RIGHT_PLAYS)
    session = start(teacher, classroom, warmup=True, table_size=4)
    join_all(session, students)
    sessions.session_seat_now(session=session, teacher=teacher)
    tables = {m.table_id for m in session.members.all()}
    assert len(tables) == 1
    assert "aim_pairs" not in session.tables.get().table.options


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_re_check_waits_on_the_students_home_until_it_is_started(
    monkeypatch: Any, language: str
) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, bob) = class_of(teacher, 2)
    client = _client(teacher, language)
    form = client.get(reverse("warmup_recheck", args=[classroom.pk]) + f"?student={ada.pk}")
    assert form.status_code == 200
    assert re.search(rf'value="{ada.pk}" id="[^"]+" checked', page_text(form))
    assert not re.search(rf'value="{bob.pk}" id="[^"]+" checked', page_text(form))
    response = client.post(
        reverse("warmup_recheck", args=[classroom.pk]), {"students": [ada.pk], "deck": "sixths"}
    )
    assert response.status_code == 302
    (round_,) = WarmupRound.objects.all()
    assert (round_.student_id, round_.level, round_.kind) == (ada.pk, "sixths", "recheck")
    start = {"fr": "Commencer l’échauffement", "en": "Start the warm-up"}[language]
    home = page_text(_client(ada, language).get(reverse("home")))
    assert start in home and reverse("warmup_page", args=[round_.pk]) in home
    assert start not in page_text(_client(bob, language).get(reverse("home")))
    # Started with one POST: the first item shows.
    _client(ada, language).post(reverse("warmup_begin", args=[round_.pk]))
    assert QUESTION[language] in _page(_client(ada, language), round_)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"deck": "full"}, "Ce champ est obligatoire."),
        ({"students": ["999999"], "deck": "full"}, "Sélectionnez un choix valide."),
        ({"students": ["{ada}"], "deck": "halves"}, "Sélectionnez un choix valide."),
        ({"students": ["{ada}"], "deck": "full", "due_on": "2001-01-01"}, "Choisissez une date"),
    ],
)
def test_a_bad_re_check_gets_a_translated_message_and_creates_nothing(
    monkeypatch: Any, data: dict[str, Any], message: str
) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, _bob) = class_of(teacher, 2)
    sent = {
        k: [v.format(ada=ada.pk) for v in vs] if isinstance(vs, list) else vs
        for k, vs in data.items()
    }
    response = _client(teacher, "fr").post(reverse("warmup_recheck", args=[classroom.pk]), sent)
    assert response.status_code == 200 and message in page_text(response)
    assert not WarmupRound.objects.exists()


def test_the_teacher_follows_the_warm_ups_sent_never_their_answers(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, bob) = class_of(teacher, 2)
    client = _client(teacher, "en")
    client.post(
        reverse("warmup_recheck", args=[classroom.pk]),
        {"students": [ada.pk, bob.pk], "deck": "full"},
    )
    rounds = {r.student_id: r for r in WarmupRound.objects.all()}
    pupil = _client(ada, "en")
    pupil.post(reverse("warmup_begin", args=[rounds[ada.pk].pk]))
    pupil.post(reverse("warmup_answer", args=[rounds[ada.pk].pk]), {"item": "1", "choice": "2/3"})
    page = page_text(client.get(reverse("warmup_recheck", args=[classroom.pk])))
    table = page.split('id="warmups-sent"')[1].split("</table>")[0]
    ada_row = table.split(f'data-round="{rounds[ada.pk].pk}"')[1].split("</tr>")[0]
    bob_row = table.split(f'data-round="{rounds[bob.pk].pk}"')[1].split("</tr>")[0]
    assert "<td>1</td>" in ada_row and "answering" in ada_row
    assert "<td>0</td>" in bob_row and "not started" in bob_row
    assert "2/3" not in table and "1/2" not in table


def test_a_warm_up_before_friday_comes_before_the_assigned_games(monkeypatch: Any) -> None:
    from datetime import timedelta

    from lessons.models import PracticeAssignment
    from lessons.practice.services import today

    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada, _bob) = class_of(teacher, 2)
    response = _client(teacher, "fr").post(
        reverse("practice_assignment_new", args=[classroom.pk]),
        {"games": "1", "deck": "full", "due_on": str(today() + timedelta(days=3)), "warmup": "on"},
    )
    assert response.status_code == 302
    assignment = PracticeAssignment.objects.get()
    assert assignment.warmup
    pupil = _client(ada, "fr")
    play = reverse("practice_play", args=[assignment.pk])
    first = pupil.post(play)
    round_ = WarmupRound.objects.get(student=ada)
    assert round_.assignment_id == assignment.pk and round_.kind == "practice"
    assert first["Location"] == reverse("warmup_page", args=[round_.pk])
    # Pressing Play again goes back to the same round: no game before the warm-up is over.
    assert pupil.post(play)["Location"] == reverse("warmup_page", args=[round_.pk])
    for number, choice in enumerate(("3/6", "4/12", "8/12"), start=1):
        pupil.post(reverse("warmup_answer", args=[round_.pk]), {"item": number, "choice": choice})
        pupil.post(reverse("warmup_reason", args=[round_.pk]), {"reason": ""})
    done = _page(pupil, round_)
    assert f'action="{play}"' in done and "Jouer les parties d’entraînement" in done
    assert pupil.post(play)["Location"].startswith("/tables/")
    assert WarmupRound.objects.count() == 1


# Issue 30 §1.4: the warm-up found from the home in one tap; markings; one order per pupil.
WARM_UP = {"fr": "Échauffement", "en": "Warm-up"}


def _big_buttons(page: str) -> list[str]:
    main = page.split("<main", 1)[1]
    return re.findall(r'<(?:a|button)[^>]*class="button button--big"[^>]*>([^<]*)<', main)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_home_opens_the_class_warm_up_with_its_one_big_button(
    monkeypatch: Any, language: str
) -> None:
    scripted(monkeypatch, ask=False)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, language)
    home = page_text(client.get(reverse("home")))
    assert _big_buttons(home) == [WARM_UP[language]]
    link = re.search(r'<a class="button button--big" id="class-game-next" href="([^"]+)"', home)
    assert link is not None and link.group(1) == reverse("warmup_page", args=[round_.pk])
    assert "Attendre ma table" not in home and "Wait for my table" not in home
    # Once the warm-up is over, the page says what is true again: the table is coming.
    for number, item in enumerate(ITEMS, start=1):
        client.post(
            reverse("warmup_answer", args=[round_.pk]),
            {"item": number, "choice": item["options"][0]},
        )
    round_.refresh_from_db()
    assert round_.finished_at is not None
    home = page_text(client.get(reverse("home")))
    wait = {"fr": "Attendre ma table", "en": "Wait for my table"}[language]
    assert _big_buttons(home) == [wait]
    assert reverse("warmup_page", args=[round_.pk]) not in home


def test_before_joining_the_class_game_the_button_says_warm_up(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    session = start(teacher, classroom, warmup=True)
    client = _client(ada, "fr")
    home = page_text(client.get(reverse("home")))
    assert _big_buttons(home) == ["Échauffement"]
    response = client.post(reverse("session_join", args=[session.pk]))
    assert client.get(response["Location"])["Location"] == reverse(
        "warmup_page", args=[WarmupRound.objects.get(student=ada).pk]
    )


def test_a_session_without_warm_up_keeps_its_home_buttons(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    session = start(teacher, classroom)
    client = _client(ada, "fr")
    assert _big_buttons(page_text(client.get(reverse("home")))) == [
        "Rejoindre la partie de la classe"
    ]
    join_all(session, [ada])
    assert _big_buttons(page_text(client.get(reverse("home")))) == ["Attendre ma table"]


def test_an_accessible_session_shows_the_braille_markings(monkeypatch: Any) -> None:
    scripted(monkeypatch)
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    session = start(teacher, classroom, warmup=True, accessible=True)
    join_all(session, [ada])
    page = _page(_client(ada, "en"), WarmupRound.objects.get(student=ada))
    assert '<span class="card__mark">2/3j</span>' in page
    assert 'aria-label="Card 2: 2/3"' in page  # the accessible name says the value, as before


def test_the_answers_keep_their_order_after_a_reload_and_on_the_next_item(
    monkeypatch: Any,
) -> None:
    scripted(monkeypatch, ask=True)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, "en")
    orders = []
    for number, item in enumerate(ITEMS[:2], start=1):
        client.post(
            reverse("warmup_answer", args=[round_.pk]),
            {"item": number, "choice": item["options"][0]},
        )
        for _reload in range(2):
            page = _page(client, round_)
            orders.append(re.findall(r'name="reason" value="([^"]+)"', page))
        client.post(reverse("warmup_reason", args=[round_.pk]), {"reason": ""})
    assert len(orders[0]) == 5 and all(order == orders[0] for order in orders)


def test_the_key_hints_are_marked_for_keyboards_only(monkeypatch: Any) -> None:
    scripted(monkeypatch, ask=True)
    _session_, (ada, _bob) = _session()
    round_ = WarmupRound.objects.get(student=ada)
    client = _client(ada, "en")
    page = _page(client, round_)
    assert re.search(r'class="keys-hint"[^>]*>You can also press its number \(1 to 4\)', page)
    assert re.search(r'id="warmup-help">Choose a card\.', page)  # what every device reads
    client.post(reverse("warmup_answer", args=[round_.pk]), {"item": 1, "choice": "3/6"})
    page = _page(client, round_)
    assert re.search(r'class="reason__help keys-hint"[^>]*>Press the number', page)
    assert 'aria-describedby="warmup-reason-help"' not in page


def test_a_re_check_waiting_during_a_class_game_is_not_a_second_big_button(
    monkeypatch: Any,
) -> None:
    scripted(monkeypatch, ask=False)
    teacher = make_teacher()
    classroom, (ada,) = class_of(teacher, 1)
    (recheck,) = services.warmup_recheck(teacher=teacher, classroom=classroom, students=[ada.pk])
    session = start(teacher, classroom, warmup=True)
    join_all(session, [ada])
    home = page_text(_client(ada, "fr").get(reverse("home")))
    assert _big_buttons(home) == ["Échauffement"]
    assert reverse("warmup_page", args=[recheck.pk]) in home  # still listed, quietly
    session_round = WarmupRound.objects.get(student=ada, session=session)
    assert f'href="{reverse("warmup_page", args=[session_round.pk])}"' in home
