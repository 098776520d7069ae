"""Where `unoclass serve` listens and what the settings allow from it.

Without `--lan` the box listens on loopback only (this computer). With `--lan` it listens on
the machine's network addresses, so pupils on the same Wi-Fi reach it: ALLOWED_HOSTS and the
trusted origins are exactly the addresses served, plus loopback for the teacher's own browser.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import ifaddr

LOOPBACK = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"


@dataclass(frozen=True)
class Served:
    """The addresses the box listens on, the ones it answers to, and the port."""

    listen: tuple[str, ...]
    reachable: tuple[str, ...]
    port: int

    def allowed_hosts(self) -> list[str]:
        """Return ALLOWED_HOSTS: every reachable address, loopback and localhost."""
        return list(dict.fromkeys([*self.reachable, LOOPBACK, "localhost"]))

    def trusted_origins(self) -> list[str]:
        """Return CSRF_TRUSTED_ORIGINS: plain http on the served port of each allowed host."""
        return [f"http://{host}:{self.port}" for host in self.allowed_hosts()]

    def pupil_url(self) -> str:
        """Return the address pupils type (or scan): the first reachable one's join page."""
        return f"http://{self.reachable[0]}:{self.port}/join/"


def network_addresses() -> list[str]:
    """Return this machine's IPv4 network addresses: no loopback, no link-local (169.254)."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: a pupil types and a QR code carries an IPv4 address
            address = ipaddress.ip_address(ip.ip)
            if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                found.append(ip.ip)
    return list(dict.fromkeys(found))


def served(*, lan: bool, bind: list[str], port: int, found: list[str] | None = None) -> Served:
    """Return what to listen on: loopback, the `bind` addresses, or every network address.

    `found` stands for network_addresses() (the tests give theirs). Raises ValueError, with
    the reason, for an address that is not an IPv4 address, or `--lan` with no network.
    """
    for host in bind:
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise ValueError(host) from None
    if bind:
        return Served(tuple(bind), tuple(bind), port)
    if not lan:
        return Served((LOOPBACK,), (LOOPBACK,), port)
    addresses = network_addresses() if found is None else found
    if not addresses:
        raise LookupError("no network address")
    return Served((ALL_INTERFACES,), tuple(addresses), port)
