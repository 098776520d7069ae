"""The network check's server side: the page, the echo POST, the echo socket and the stream.

The browser drives all three in tests/e2e/browser/test_network_check.py; here each is held to
its limits with bad input: size, rate, method, CSRF, forged or old tokens, foreign hosts and
origins, and the bound on links held open.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games.realtime import posted
from unoclass.asgi import application
from unoclass.network_check import capacity, consumers
from unoclass.network_check.capacity import OPEN_LINKS
from unoclass.network_check.consumers import CheckLink

# Database access allowed: a socket's disconnect closes the worker thread's old connections
# (Channels), which failed as "Database access not allowed" after a test that had used that
# thread's connection ran first on the same xdist worker.
pytestmark = [pytest.mark.timeout(30), pytest.mark.django_db]
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


def test_one_address_loading_the_page_too_often_gets_429(monkeypatch: pytest.MonkeyPatch) -> None:
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


# ---- the echo POST (the fallback's page-to-server half) ---------------------------------------


def _post(client: Client, body: Any, **extra: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(
        reverse("network_check_echo"), data, content_type="application/json", **extra
    )


def test_an_echo_comes_back_in_the_answer() -> None:
    response = _post(Client(), {"type": "echo", "n": 7})
    assert response.status_code == 200
    assert response.json() == {"frames": [{"type": "echo", "n": 7}]}
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "bad_json"),
        ('"\\ud800"', "bad_json"),
        ("[1, 2]", "unknown_type"),
        (b"\xff\xfe", "bad_frame"),
        ({"type": "echo", "n": "7"}, "bad_echo"),
        ({"type": "echo", "n": True}, "bad_echo"),
        ({"type": "echo", "n": 1000}, "bad_echo"),
        ({"type": "echo", "n": -1}, "bad_echo"),
        ({"type": "play", "n": 1}, "bad_echo"),
        ({"type": "echo", "n": 1, "pad": "x" * 300}, "too_large"),
    ],
)
def test_bad_echoes_get_a_clear_translated_error_frame(body: Any, code: str) -> None:
    response = _post(Client(HTTP_ACCEPT_LANGUAGE="fr"), body)
    assert response.status_code == 200
    (frame,) = response.json()["frames"]
    assert frame["type"] == "error" and frame["code"] == code
    assert frame["message"] and "Traceback" not in frame["message"]


def test_the_error_is_in_the_readers_language() -> None:
    (frame,) = _post(Client(HTTP_ACCEPT_LANGUAGE="fr"), {"type": "echo"}).json()["frames"]
    assert frame["message"] == 'Envoyez {"type": "echo", "n": un nombre de 0 à 999}.'
    (frame,) = _post(Client(HTTP_ACCEPT_LANGUAGE="en"), {"type": "echo"}).json()["frames"]
    assert frame["message"] == 'Send {"type": "echo", "n": a number from 0 to 999}.'


def test_a_flood_of_echoes_is_rate_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    # No refill: the bucket's own count, not the machine's speed, decides.
    monkeypatch.setattr(CheckLink, "rate_per_second", 0.0)
    monkeypatch.setattr(posted, "_buckets", OrderedDict())
    client = Client()
    codes = []
    for number in range(CheckLink.rate_burst + 3):
        (frame,) = _post(client, {"type": "echo", "n": number}).json()["frames"]
        codes.append(frame.get("code", frame["type"]))
    assert codes == ["echo"] * CheckLink.rate_burst + ["rate_limited"] * 3


def test_echo_is_post_only_and_needs_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.get(reverse("network_check_echo")).status_code == 405
    assert _post(client, {"type": "echo", "n": 1}).status_code == 403
    # The page hands out the token; with it the echo comes back.
    page = client.get(reverse("network_check")).content.decode()
    csrf = json.loads(page.split('id="network-check-config" type="application/json">')[1]
                      .split("</script>")[0])["csrf"]  # fmt: skip
    response = _post(client, {"type": "echo", "n": 1}, HTTP_X_CSRFTOKEN=csrf)
    assert response.json() == {"frames": [{"type": "echo", "n": 1}]}


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


async def test_the_socket_refuses_a_flood_of_echoes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CheckLink, "rate_per_second", 0.0)
    comm = await _socket()
    await comm.connect()
    await comm.receive_json_from()
    flood = CheckLink.rate_burst + 3
    for number in range(flood):
        await comm.send_json_to({"type": "echo", "n": number})
    answers: list[str] = []
    while len(answers) < flood:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] != "beat":
            answers.append(frame.get("code", frame["type"]))
    assert answers == ["echo"] * CheckLink.rate_burst + ["rate_limited"] * 3
    await comm.disconnect()


async def test_the_socket_refuses_another_sites_origin() -> None:
    comm = await _socket([(b"host", b"testserver"), (b"origin", b"http://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_a_full_process_asks_the_socket_to_try_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(OPEN_LINKS, "limit", 0)
    comm = await _socket()
    connected, _ = await comm.connect()
    assert connected  # accepted, then closed at once with the reason (a browser reads it)
    assert (await comm.receive_output(timeout=5))["code"] == 1013


# ---- the event stream (the fallback's server-to-page half) --------------------------------


def _http_scope(method: str = "GET", origin: bytes | None = None) -> dict[str, Any]:
    headers = [(b"host", b"testserver")] + ([(b"origin", origin)] if origin else [])
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": "/network-check/stream/",
        "raw_path": b"/network-check/stream/",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "headers": headers,
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
        if "data" in lines:
            events.append((lines.get("event", "message"), json.loads(lines["data"])))
    return events


async def _whole(comm: ApplicationCommunicator) -> bytes:
    body = b""
    while True:
        chunk = await comm.receive_output(timeout=5)
        if chunk["type"] == "http.response.body":
            part: bytes = chunk["body"]
            body += part
            if not chunk.get("more_body"):
                return body


async def test_the_stream_says_hello_beats_and_ends() -> None:
    comm = await _stream()
    start = await comm.receive_output(timeout=5)
    assert start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"content-type"] == b"text/event-stream; charset=utf-8"
    assert headers[b"x-accel-buffering"] == b"no"
    events = _events(await _whole(comm))
    assert events[0] == ("message", {"type": "hello", "duration": 0.3, "heartbeat": 0.05})
    beats = [data["n"] for kind, data in events if data.get("type") == "beat"]
    assert beats == list(range(1, len(beats) + 1)) and len(beats) >= 3
    assert events[-1] == ("close", {"code": 1000})
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


@pytest.mark.parametrize(
    ("scope", "status"),
    [
        ({"method": "POST"}, 405),
        ({"method": "PUT"}, 405),
        ({"origin": b"http://evil.example"}, 403),
    ],
)
async def test_the_stream_refuses_other_methods_and_other_sites(
    scope: dict[str, Any], status: int
) -> None:
    comm = await _stream(**scope)
    assert (await comm.receive_output(timeout=5))["status"] == status
    assert (await comm.receive_output(timeout=5))["more_body"] is False
    await comm.wait(timeout=5)


async def test_a_full_process_asks_the_stream_to_try_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(OPEN_LINKS, "limit", 0)
    comm = await _stream()
    assert (await comm.receive_output(timeout=5))["status"] == 200
    assert _events(await _whole(comm)) == [("close", {"code": 1013})]
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


async def test_a_client_that_leaves_frees_the_streams_place() -> None:
    comm = await _stream()
    await comm.receive_output(timeout=5)
    await comm.receive_output(timeout=5)
    while OPEN_LINKS.count == 0:  # the hello is sent once the place is taken
        await comm.receive_output(timeout=5)
    assert OPEN_LINKS.count == 1
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)
    assert OPEN_LINKS.count == 0
