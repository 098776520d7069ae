"""Which clients share a rate limit: one IPv4 address, or one IPv6 /64.

A per-address limit keyed by the full IPv6 address is no limit: a home or a school gets a
whole /64 and any device may pick a new address in it at will. So the /64 is the "address";
an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket's) is its IPv4 address.
"""

from __future__ import annotations

import ipaddress

IPV6_GROUP_BITS = 64


def address_group(address: str) -> str:
    """Return the group a client address counts in (anything not an IP address: itself)."""
    try:
        ip = ipaddress.ip_address(address.strip().split("%", 1)[0])  # a zone id is no part
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_GROUP_BITS}", strict=False))
    return str(ip)
