"""The address the per-address limits count comes from the proxy's own hop, never from what
the client wrote in X-Forwarded-For (issue 14, point 5)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.classrooms.sign_in_limit import RULES
from tests.conftest import ClassWorld
from unoclass.proxy import client_address

PROXY = "10.0.0.2"


@pytest.mark.parametrize(
    ("meta", "trusted", "expected"),
    [
        # No proxy trusted: the header is ignored, the peer is the client.
        ({"REMOTE_ADDR": "203.0.113.5", "HTTP_X_FORWARDED_FOR": "6.6.6.6"}, [], "203.0.113.5"),
        # The trusted proxy appended the address it saw: the right-most one.
        (
            {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.5"},
            [PROXY],
            "203.0.113.5",
        ),
        # The trusted proxy replaced the header ($remote_addr): one address.
        ({"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, [PROXY], "203.0.113.5"),
        # Two trusted proxies in a row: the first address neither of them is.
        (
            {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.5, 10.0.0.3"},
            [PROXY, "10.0.0.3"],
            "203.0.113.5",
        ),
        # A trusted proxy that sent no header: the proxy itself.
        ({"REMOTE_ADDR": PROXY}, [PROXY], PROXY),
        # daphne's unix socket (no REMOTE_ADDR): only nginx reaches it.
        ({"HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.5"}, [], "203.0.113.5"),
        ({"HTTP_X_FORWARDED_FOR": " , ,"}, [], "unknown"),
        ({}, [], "unknown"),
    ],
)
def test_client_address(
    settings: Settings, meta: dict[str, object], trusted: list[str], expected: str
) -> None:
    settings.TRUSTED_PROXIES = trusted
    assert client_address(meta) == expected


def _guess_codes(client: Client, forwarded: list[str]) -> None:
    """Fail the class code once per header value: the client picks a new address each time.

    It keeps no cookie either, so every guess counts in its address's cookieless bucket
    (lessons.classrooms.sign_in_limit), the first to lock.
    """
    for n, header in enumerate(forwarded):
        url = reverse("join_name", args=[f"QQQ{n:03d}"])
        client.cookies.clear()
        assert client.get(url, HTTP_X_FORWARDED_FOR=header).status_code == 404


def _blocked(client: Client, world: ClassWorld, header: str) -> bool:
    url = reverse("join_name", args=[world.classroom.join_code])
    client.cookies.clear()
    status = client.get(url, HTTP_X_FORWARDED_FOR=header).status_code
    assert status in (200, 403)
    return status == 403


def test_a_spoofed_header_through_the_proxy_does_not_change_the_counted_address(
    settings: Settings, class_a: ClassWorld
) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    through_proxy = Client(REMOTE_ADDR=PROXY)
    spoofed = [f"198.51.100.{n}, 203.0.113.5" for n in range(RULES["code"].device_limit)]
    _guess_codes(through_proxy, spoofed)
    # Every guess counted against the address the proxy saw, whatever the client wrote.
    assert _blocked(through_proxy, class_a, "198.51.100.250, 203.0.113.5")
    # Another school behind the same proxy is not blocked.
    assert not _blocked(through_proxy, class_a, "203.0.113.6")


def test_a_header_from_a_client_that_is_not_the_proxy_is_ignored(
    settings: Settings, class_a: ClassWorld
) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    direct = Client(REMOTE_ADDR="203.0.113.9")
    spoofed = [f"198.51.100.{n}" for n in range(RULES["code"].device_limit)]
    _guess_codes(direct, spoofed)
    assert _blocked(direct, class_a, "198.51.100.251")
