"""The network check's server side: the page, the echo POST, the echo socket and the stream.

The browser drives all three in tests/e2e/browser/test_network_check.py; here each is held to
its limits with bad input: size, rate, method, CSRF, forged or old tokens, foreign hosts and
origins, and the bound on links held open.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.core import signing
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from unoclass.asgi import application
from unoclass.network_check import capacity, consumers
from unoclass.network_check.capacity import (
    MAX_ECHO_BYTES,
    MAX_ECHOES_PER_STREAM,
    OPEN_LINKS,
    stream_token,
)

pytestmark = pytest.mark.timeout(30)
HOST_HEADERS = [(b"host", b"testserver"), (b"origin", b"http://testserver")]


@pytest.fixture(autouse=True)
def _short_check(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    settings.NETWORK_CHECK_SECONDS = 0.3
    settings.NETWORK_CHECK_HEARTBEAT = 0.05
    monkeypatch.setattr(consumers, "GRACE_SECONDS", 0.0)
    yield
    assert OPEN_LINKS.count == 0, "a check link was left counted as open"


# ---- the page -------------------------------------------------------------------------


def test_anyone_gets_the_page_with_this_servers_address_only() -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("network_check"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "ws://testserver/ws/" in text
    assert "text/event-stream" in text
    assert "Test du réseau" in text
    # Nothing from another site: the script is this server's own.
    assert 'src="/static/js/network-check.js"' in text
    config = json.loads(text.split('id="network-check-config" type="application/json">')[1]
                        .split("</script>")[0])  # fmt: skip
    assert response.context["host"] == "testserver" and response.context["port"] == 80
    assert config["words"]["works"] == "Fonctionne"


def test_the_page_is_in_english_for_an_english_reader() -> None:
    text = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("network_check")).content.decode()
    assert "Network check" in text and "What to ask the IT service" in text


def test_https_gives_wss_and_port_443() -> None:
    response = Client().get(reverse("network_check"), secure=True)
    assert "wss://testserver/ws/" in response.content.decode()
    assert response.context["port"] == 443


def test_one_address_loading_the_page_too_often_gets_429(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(capacity, "PAGE_LOADS_PER_ADDRESS", 3)
    monkeypatch.setattr("unoclass.network_check.views.PAGE_LOADS_PER_ADDRESS", 3)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    statuses = [client.get(reverse("network_check")).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert "Réessayez dans 10" in client.get(reverse("network_check")).content.decode()
    # Another address is not held back.
    other = Client(REMOTE_ADDR="10.0.0.9").get(reverse("network_check"))
    assert other.status_code == 200


def test_the_teachers_home_links_to_the_check(class_a: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(class_a.teacher)
    text = client.get(reverse("home")).content.decode()
    assert 'id="network-check-box"' in text
    assert f'href="{reverse("network_check")}"' in text


# ---- the echo POST ------------------------------------------------------------------------


def _new_stream() -> str:
    layer = get_channel_layer()
    return str(async_to_sync(layer.new_channel)())


def _received(channel: str) -> list[dict[str, Any]]:
    """Return what the channel holds now (the in-memory layer: no waiting)."""
    layer = get_channel_layer()
    queue = layer.channels.get(channel)
    messages = []
    while queue is not None and not queue.empty():
        messages.append(queue.get_nowait()[1])
    return messages


def _post(client: Client, body: Any, **extra: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(
        reverse("network_check_echo"), data, content_type="application/json", **extra
    )


def test_an_echo_reaches_its_stream_and_nothing_else() -> None:
    channel = _new_stream()
    response = _post(Client(), {"type": "echo", "n": 7, "token": stream_token(channel)})
    assert response.status_code == 200
    assert _received(channel) == [{"type": "network_check.echo", "n": 7}]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "bad_json"),
        ('"\\ud800"', "bad_json"),
        ([1, 2], "bad_echo"),
        ({"type": "echo", "n": "7"}, "bad_echo"),
        ({"type": "echo", "n": True}, "bad_echo"),
        ({"type": "echo", "n": 1000}, "bad_echo"),
        ({"type": "echo", "n": -1}, "bad_echo"),
        ({"type": "play", "n": 1}, "bad_echo"),
        ({"type": "echo", "n": 1}, "bad_token"),
        ({"type": "echo", "n": 1, "token": 5}, "bad_token"),
        ({"type": "echo", "n": 1, "token": "specific.x!y"}, "bad_token"),
    ],
)
def test_bad_echoes_get_a_clear_translated_400_and_send_nothing(body: Any, code: str) -> None:
    channel = _new_stream()
    response = _post(Client(HTTP_ACCEPT_LANGUAGE="fr"), body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert _received(channel) == []


def test_a_token_signed_for_another_purpose_or_too_old_is_refused(monkeypatch):  # type: ignore[no-untyped-def]
    channel = _new_stream()
    foreign = signing.dumps(channel, compress=True)  # the default salt: not a stream's token
    assert _post(Client(), {"type": "echo", "n": 1, "token": foreign}).json()["code"] == (
        "bad_token"
    )
    token = stream_token(channel)
    later = time.time() + 10_000
    monkeypatch.setattr(signing.time, "time", lambda: later)
    response = _post(Client(HTTP_ACCEPT_LANGUAGE="fr"), {"type": "echo", "n": 1, "token": token})
    assert response.json() == {
        "type": "error",
        "code": "bad_token",
        "message": "Ce test a expiré\u202f: relancez-le.",
    }
    assert _received(channel) == []


def test_an_echo_over_the_size_limit_gets_413() -> None:
    channel = _new_stream()
    body = {"type": "echo", "n": 1, "token": stream_token(channel), "pad": "x" * MAX_ECHO_BYTES}
    response = _post(Client(), body)
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert _received(channel) == []


def test_a_stream_gets_at_most_its_share_of_echoes() -> None:
    channel = _new_stream()
    body = {"type": "echo", "n": 1, "token": stream_token(channel)}
    statuses = [_post(Client(), body).status_code for _ in range(MAX_ECHOES_PER_STREAM + 2)]
    assert statuses == [200] * MAX_ECHOES_PER_STREAM + [429, 429]
    assert len(_received(channel)) == MAX_ECHOES_PER_STREAM


def test_echo_is_post_only_and_needs_the_csrf_token() -> None:
    channel = _new_stream()
    body = {"type": "echo", "n": 1, "token": stream_token(channel)}
    client = Client(enforce_csrf_checks=True)
    assert client.get(reverse("network_check_echo")).status_code == 405
    assert _post(client, body).status_code == 403
    assert _received(channel) == []
    # The page hands out the token; with it the echo goes.
    page = client.get(reverse("network_check")).content.decode()
    csrf = json.loads(page.split('id="network-check-config" type="application/json">')[1]
                      .split("</script>")[0])["csrf"]  # fmt: skip
    assert _post(client, body, HTTP_X_CSRFTOKEN=csrf).status_code == 200
    assert len(_received(channel)) == 1


# ---- the echo socket ------------------------------------------------------------------


async def _socket(headers: list[tuple[bytes, bytes]] = HOST_HEADERS) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, "/ws/network-check/", headers=headers)


async def test_the_socket_says_hello_echoes_beats_and_closes_by_itself() -> None:
    comm = await _socket()
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_json_from() == {"type": "hello", "duration": 0.3, "heartbeat": 0.05}
    await comm.send_json_to({"type": "echo", "n": 3})
    frames = []
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        frames.append(json.loads(output["text"]))
    assert {"type": "echo", "n": 3} in frames
    beats = [frame["n"] for frame in frames if frame["type"] == "beat"]
    assert beats == list(range(1, len(beats) + 1)) and len(beats) >= 3
    assert output["code"] == 1000
    # The browser answers the close: the socket's place is free again.
    await comm.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "echo", "n": "1"}, "bad_echo"),
        ({"type": "action"}, "bad_echo"),
        ("x" * 300, "too_large"),
        (b"\x00", "bad_frame"),
        ("[1]", "unknown_type"),
        ("{", "bad_json"),
    ],
)
async def test_bad_socket_frames_get_an_error_frame(frame: Any, code: str) -> None:
    comm = await _socket()
    await comm.connect()
    await comm.receive_json_from()
    if isinstance(frame, bytes):
        await comm.send_to(bytes_data=frame)
    elif isinstance(frame, str):
        await comm.send_to(text_data=frame)
    else:
        await comm.send_json_to(frame)
    while (answer := await comm.receive_json_from(timeout=5))["type"] == "beat":
        pass
    assert answer["type"] == "error" and answer["code"] == code
    await comm.disconnect()


async def test_the_socket_refuses_a_flood_of_echoes() -> None:
    comm = await _socket()
    await comm.connect()
    await comm.receive_json_from()
    for number in range(12):
        await comm.send_json_to({"type": "echo", "n": number})
    answers = []
    while len(answers) < 12:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] != "beat":
            answers.append(frame)
    assert [a.get("code") for a in answers].count("rate_limited") >= 1
    await comm.disconnect()


async def test_the_socket_refuses_another_sites_origin() -> None:
    comm = await _socket([(b"host", b"testserver"), (b"origin", b"http://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_a_full_process_asks_the_socket_to_try_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(OPEN_LINKS, "limit", 0)
    comm = await _socket()
    connected, _ = await comm.connect()
    assert connected  # accepted, then closed at once with the reason (a browser reads it)
    assert (await comm.receive_output(timeout=5))["code"] == 1013


# ---- the event stream ---------------------------------------------------------------------


def _http_scope(method: str = "GET", host: bytes = b"testserver") -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": "/network-check/stream/",
        "raw_path": b"/network-check/stream/",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "headers": [(b"host", host)],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


async def _stream(**scope: Any) -> ApplicationCommunicator:
    comm = ApplicationCommunicator(application, _http_scope(**scope))
    await comm.send_input({"type": "http.request", "body": b""})
    return comm


def _events(body: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in body.decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


async def test_the_stream_says_hello_passes_echoes_beats_and_ends() -> None:
    comm = await _stream()
    start = await comm.receive_output(timeout=5)
    assert start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"Content-Type"] == b"text/event-stream; charset=utf-8"
    assert headers[b"X-Accel-Buffering"] == b"no"
    assert b"no-transform" in headers[b"Cache-Control"]
    first = await comm.receive_output(timeout=5)
    (kind, hello), = _events(first["body"])  # fmt: skip
    assert kind == "hello" and hello["duration"] == 0.3
    channel = signing.loads(hello["token"], salt="unoclass.network_check.stream")
    await get_channel_layer().send(channel, {"type": "network_check.echo", "n": 4})
    body = b""
    while True:
        chunk = await comm.receive_output(timeout=5)
        body += chunk["body"]
        if not chunk.get("more_body"):
            break
    events = _events(body)
    assert ("echo", {"n": 4}) in events
    beats = [data["n"] for kind, data in events if kind == "beat"]
    assert beats == list(range(1, len(beats) + 1)) and len(beats) >= 3
    await comm.wait(timeout=5)


@pytest.mark.parametrize(
    ("scope", "status"),
    [({"method": "POST"}, 405), ({"method": "PUT"}, 405), ({"host": b"evil.example"}, 400)],
)
async def test_the_stream_refuses_other_methods_and_foreign_hosts(
    scope: dict[str, Any], status: int
) -> None:
    comm = await _stream(**scope)
    assert (await comm.receive_output(timeout=5))["status"] == status
    assert (await comm.receive_output(timeout=5))["more_body"] is False
    await comm.wait(timeout=5)


async def test_a_full_process_asks_the_stream_to_try_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(OPEN_LINKS, "limit", 0)
    comm = await _stream()
    assert (await comm.receive_output(timeout=5))["status"] == 503
    await comm.wait(timeout=5)


async def test_a_client_that_leaves_frees_the_streams_place() -> None:
    comm = await _stream()
    await comm.receive_output(timeout=5)
    await comm.receive_output(timeout=5)
    assert OPEN_LINKS.count == 1
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)
    assert OPEN_LINKS.count == 0
