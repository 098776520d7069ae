"""No student data in logs: names and PINs never appear in any log record, during a sign-in
(in process, every logger at DEBUG) nor in a whole game served by daphne (its stderr)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from django.test import Client
from django.urls import reverse

from tests.e2e.scale.client import SeatClient, Table
from tests.e2e.scale.deployment import FOUR_SETUP
from tests.support.factories import TEACHER_PASSWORD, make_student
from tests.support.live import LiveApp, seed_table

NAMES = ["Zéphyrine Quatremains", "Barnabé Tournesol", "Ondine Mirabelle", "Félicien Archambault"]
PIN = "8642"


@pytest.mark.django_db
def test_sign_in_logs_no_name_and_no_pin(class_a, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    login = make_student(classroom=class_a.classroom, display_name=NAMES[0], pin=PIN)
    code = class_a.classroom.join_code
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.post(reverse("join"), {"code": code})
    client.get(reverse("join_name", kwargs={"code": code}))
    pin_url = reverse("join_pin", kwargs={"code": code, "student_id": login.student.pk})
    client.post(pin_url, {"pin": "1111"})
    client.post(pin_url, {"pin": PIN})
    assert client.session.get("_auth_user_id") == str(login.user.pk)
    client.get(reverse("home"))
    Client(enforce_csrf_checks=True).post(pin_url, {"pin": PIN})  # a CSRF refusal is logged
    teacher = Client()
    teacher.post(reverse("login"), {"username": class_a.teacher.username, "password": "nope"})
    teacher.post(reverse("login"), {"username": class_a.teacher.username, "password": PIN})
    teacher.post(
        reverse("login"), {"username": class_a.teacher.username, "password": TEACHER_PASSWORD}
    )
    teacher.get(reverse("classroom_detail", kwargs={"classroom_id": class_a.classroom.pk}))
    logged = "\n".join(caplog.messages) + "\n".join(caplog.text.splitlines())
    assert caplog.records, "the capture works (the CSRF refusal at least is logged)"
    for secret in (NAMES[0], NAMES[0].split()[0], PIN, class_a.student.student.display_name):
        assert secret not in logged, f"{secret!r} found in the logs"


@pytest.mark.slow
def test_a_game_on_daphne_logs_no_student_name() -> None:
    app = LiveApp({"DEBUG": "0", "LOG_LEVEL": "DEBUG"})
    try:
        app.migrate()
        ids = seed_table(app, NAMES, setup=FOUR_SETUP)
        server = app.start()

        async def scenario() -> None:
            clients = [SeatClient(server.ws, ids["table"], s, server.http) for s in ids["sessions"]]
            for client in clients:
                await client.connect()
                await client.next_state()
            await clients[1].send({"type": "action", "action": {"type": "bogus"}})
            table = Table(clients)
            await table.play(max_moves=300, seconds=90)
            assert table.over
            for client in clients:
                await client.close()

        asyncio.run(scenario())
        server.kill()  # everything it logged is in its file now
        stderr = server.log()
    finally:
        app.close()
    for name in NAMES:
        for part in name.split():
            assert part not in stderr, f"{part!r} found in daphne's log"
    assert "Traceback" not in stderr
    print(f"daphne log: {len(stderr.splitlines())} lines checked")
    assert "HTTP" in stderr or "WebSocket" in stderr or "Listening" in stderr, stderr[:500]
