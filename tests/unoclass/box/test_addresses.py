"""Where `unoclass serve` listens, and the hosts and origins it allows from there."""

from __future__ import annotations

import pytest

from unoclass.box.addresses import network_addresses, served


def test_without_lan_the_box_listens_on_loopback_only() -> None:
    where = served(lan=False, bind=[], port=8000, found=["192.168.1.20"])
    assert where.listen == ("127.0.0.1",)
    assert where.allowed_hosts() == ["127.0.0.1", "localhost"]
    assert where.trusted_origins() == ["http://127.0.0.1:8000", "http://localhost:8000"]


def test_lan_listens_everywhere_and_allows_exactly_the_network_addresses() -> None:
    where = served(lan=True, bind=[], port=8123, found=["192.168.1.20", "10.0.0.5"])
    assert where.listen == ("0.0.0.0",)
    assert where.allowed_hosts() == ["192.168.1.20", "10.0.0.5", "127.0.0.1", "localhost"]
    assert "http://192.168.1.20:8123" in where.trusted_origins()
    assert "http://10.0.0.5:8123" in where.trusted_origins()
    assert all(":8123" in origin for origin in where.trusted_origins())
    assert where.pupil_url() == "http://192.168.1.20:8123/join/"


def test_bind_listens_and_allows_only_the_given_address() -> None:
    where = served(lan=True, bind=["127.0.0.2"], port=9000, found=["192.168.1.20"])
    assert where.listen == ("127.0.0.2",)
    assert "192.168.1.20" not in where.allowed_hosts()
    assert where.pupil_url() == "http://127.0.0.2:9000/join/"


@pytest.mark.parametrize("address", ["localhost", "::1", "192.168.1", "192.168.1.300", ""])
def test_bind_refuses_what_is_not_an_ipv4_address(address: str) -> None:
    with pytest.raises(ValueError, match=address or "^$"):
        served(lan=True, bind=[address], port=8000, found=["192.168.1.20"])


def test_lan_without_any_network_address_says_so() -> None:
    with pytest.raises(LookupError):
        served(lan=True, bind=[], port=8000, found=[])


def test_the_machine_s_addresses_leave_out_loopback_and_link_local() -> None:
    for address in network_addresses():
        assert not address.startswith(("127.", "169.254.")) and address.count(".") == 3
