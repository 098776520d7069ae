"""The network check's limits count per address, an IPv6 one per /64 (issue 32 §11).

The check's echo POSTs (the fallback's page-to-server half) had one rate bucket for every
visitor without a session in a process: one visitor's flood made the IT staff's check, from
another network, report a broken link ("rate_limited" for every echo).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.realtime import posted
from games.realtime.addresses import address_group
from unoclass.network_check import capacity
from unoclass.network_check.consumers import CheckLink

pytestmark = pytest.mark.timeout(30)


@pytest.fixture(autouse=True)
def _no_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bucket's own count decides, not the machine's speed.
    monkeypatch.setattr(CheckLink, "rate_per_second", 0.0)
    monkeypatch.setattr(posted, "_buckets", OrderedDict())


def _echo(address: str, number: int = 1) -> str:
    """POST one echo from `address` as an anonymous visitor; return the answer's frame type or
    error code."""
    response = Client(REMOTE_ADDR=address).post(
        reverse("network_check_echo"),
        json.dumps({"type": "echo", "n": number}),
        content_type="application/json",
    )
    assert response.status_code == 200
    (frame,) = response.json()["frames"]
    return str(frame.get("code", frame["type"]))


def _flood(address: str) -> None:
    codes = [_echo(address, n) for n in range(CheckLink.rate_burst + 2)]
    assert codes[-1] == "rate_limited"


@pytest.mark.parametrize(
    ("flooder", "other"),
    [
        ("203.0.113.7", "198.51.100.20"),
        ("2001:db8:1:2::1", "2001:db8:1:3::1"),
        ("203.0.113.7", "2001:db8:1:2::1"),
    ],
)
def test_one_visitors_flood_leaves_another_addresss_check_alone(flooder: str, other: str) -> None:
    _flood(flooder)
    assert _echo(flooder) == "rate_limited"
    assert _echo(other) == "echo"


@pytest.mark.parametrize(
    ("flooder", "neighbour"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"),  # the same /64
        ("203.0.113.7", "::ffff:203.0.113.7"),  # the same IPv4 address, dual-stack
    ],
)
def test_addresses_of_one_network_share_the_limit(flooder: str, neighbour: str) -> None:
    # A device picks any address of its /64 at will: a new one is not a fresh bucket.
    _flood(flooder)
    assert _echo(neighbour) == "rate_limited"


def test_a_signed_in_visitor_counts_by_sign_in_not_by_address(class_a: Any) -> None:
    _flood("203.0.113.7")
    teacher = Client(REMOTE_ADDR="203.0.113.7")
    teacher.force_login(class_a.teacher)
    response = teacher.post(
        reverse("network_check_echo"),
        json.dumps({"type": "echo", "n": 3}),
        content_type="application/json",
    )
    assert response.json()["frames"] == [{"type": "echo", "n": 3}]


def test_the_page_loads_count_per_ipv6_64(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(capacity, "PAGE_LOADS_PER_ADDRESS", 2)
    monkeypatch.setattr("unoclass.network_check.views.PAGE_LOADS_PER_ADDRESS", 2)

    def load(address: str) -> int:
        return int(Client(REMOTE_ADDR=address).get(reverse("network_check")).status_code)

    assert [load(f"2001:db8:5:6::{n}") for n in range(1, 4)] == [200, 200, 429]
    assert load("2001:db8:5:7::1") == 200


@pytest.mark.parametrize(
    ("address", "group"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("unknown", "unknown"),
        ("", ""),
    ],
)
def test_address_groups(address: str, group: str) -> None:
    assert address_group(address) == group
