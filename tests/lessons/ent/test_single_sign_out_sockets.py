"""The ENT's single sign-out closes the sockets of the session it ends (through the app's own
sign-out path, games/realtime/signout.py), and only that session's."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.realtime.consumer import CLOSE_SIGNED_OUT
from lessons.ent.tickets import ticket_hash
from lessons.models import EntConnector, EntIdentity, EntSignIn
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import MATRIX_CONNECTOR
from tests.games.helpers import receive_until
from tests.games.test_session_play import _close_code, _socket
from tests.lessons.ent.test_security import LOGOUT_REQUEST
from tests.support.factories import signed_in_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]
TICKET = "ST-sockets-1"


def _signed_in_twice(world: ClassWorld) -> tuple[int, int, bytes, bytes]:
    """Sign the teacher in on two devices, the first through the ENT (ticket mapped)."""
    connector = EntConnector.objects.create(
        name="ENT", server_url="https://127.0.0.1:9/cas/", **MATRIX_CONNECTOR
    )
    EntIdentity.objects.create(connector=connector, external_id="T-1", user=world.teacher)
    cookies = []
    for _device in range(2):
        client = signed_in_client(world.teacher)
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={key}; django_language=en".encode())
        if not EntSignIn.objects.exists():
            EntSignIn.objects.create(
                connector=connector,
                ticket_hash=ticket_hash(TICKET),
                user=world.teacher,
                session_key=key,
            )
    session = session_start(teacher=world.teacher, classroom=world.classroom)
    return connector.pk, session.pk, cookies[0], cookies[1]


async def test_the_ent_single_sign_out_closes_that_sessions_sockets(class_a: ClassWorld) -> None:
    world = await database_sync_to_async(_signed_in_twice)(class_a)
    connector_id, session_id, ent_cookie, other_cookie = world
    path = f"/ws/session/{session_id}/"
    ent_tab, other_device = _socket(path, ent_cookie), _socket(path, other_cookie)
    for comm in (ent_tab, other_device):
        assert (await comm.connect())[0]
        await receive_until(comm, "overview")

    answer = await database_sync_to_async(Client().post)(
        reverse("ent_logout", args=[connector_id]),
        {"logoutRequest": LOGOUT_REQUEST.format(ticket=TICKET)},
    )
    assert answer.status_code == 200

    assert await _close_code(ent_tab) == CLOSE_SIGNED_OUT
    # The teacher's other sign-in is not the ENT's: its socket stays open.
    assert await other_device.receive_nothing(timeout=0.5)
    await other_device.disconnect()
