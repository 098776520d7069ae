"""Talk to a connector's CAS server with python-cas: the service URL (the fixed callback and the
sign-in's state), the login URL, and the server-side validation of a ticket (docs/deploy.md
says why python-cas).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import Any
from urllib.parse import urlencode, urlsplit
from xml.etree.ElementTree import ParseError

import requests
from cas import CASClient
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from lessons.ent.states import STATE_PARAMETER
from lessons.models import EntConnector

logger = logging.getLogger(__name__)

# The ticket check is on the sign-in request's thread: a CAS server that hangs must not hold it.
VALIDATION_TIMEOUT_SECONDS = 10


class _BoundedSession(requests.Session):
    """A requests session whose every call has a timeout (python-cas passes none)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        """Send with the timeout unless one was given."""
        kwargs.setdefault("timeout", VALIDATION_TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


def site_url() -> str:
    """Return this server's public address, from settings, never from a request's Host header.

    ENT_SITE_URL when set; else the first of ALLOWED_HOSTS, over https (http only under DEBUG).
    """
    configured = str(getattr(settings, "ENT_SITE_URL", "") or "").rstrip("/")
    if configured:
        return configured
    hosts = [host for host in settings.ALLOWED_HOSTS if host and host not in {"*"}]
    host = hosts[0].lstrip(".") if hosts else "localhost"
    scheme = "http" if settings.DEBUG else "https"
    return f"{scheme}://{host}"


def service_url(connector: EntConnector, state: str = "") -> str:
    """Return the service URL of one sign-in: the fixed callback with the sign-in's state.

    Without a state, the fixed callback alone: what the ENT admin registers, as a prefix (each
    sign-in adds `?state=…`). The same URL goes to the login page and to the ticket's
    validation: the ENT's server checks the ticket was issued for it, so a ticket serves only
    the sign-in, and the browser, that asked for it.
    """
    callback = site_url() + reverse("ent_callback", args=[connector.pk])
    return callback + "?" + urlencode({STATE_PARAMETER: state}) if state else callback


def server_base(connector: EntConnector) -> str:
    """Return the CAS server's base URL ending in a slash (python-cas joins paths to it)."""
    return connector.server_url.rstrip("/") + "/"


def server_is_secure(connector: EntConnector) -> bool:
    """Tell whether the server may be used: https, or http where ENT_ALLOW_HTTP says."""
    if connector.server_url.lower().startswith("https://"):
        return True
    return bool(getattr(settings, "ENT_ALLOW_HTTP", False))  # False unless DEBUG (settings)


def cas_client(connector: EntConnector, state: str) -> Any:
    """Return a python-cas client for the connector's server, protocol and sign-in."""
    return CASClient(
        version=connector.protocol,
        service_url=service_url(connector, state),
        server_url=server_base(connector),
        session=_BoundedSession(),
    )


def login_url(connector: EntConnector, state: str) -> str:
    """Return the CAS server's sign-in page for the sign-in's service URL."""
    return str(cas_client(connector, state).get_login_url())


def validate_ticket(
    connector: EntConnector, ticket: str, state: str
) -> tuple[str, dict[str, object]] | None:
    """Ask the connector's own server whether the ticket is good; return (user, attributes).

    None when the server refuses it (forged, replayed, expired, for another service) or cannot
    be reached: a sign-in never trusts anything the browser brought but the ticket itself.
    """
    try:
        user, attributes, _pgtiou = cas_client(connector, state).verify_ticket(ticket)
    except (requests.RequestException, ParseError, IndexError, ValueError) as error:
        logger.warning("ENT %s: ticket validation failed: %s", connector.pk, type(error).__name__)
        return None
    if not user:
        return None
    return str(user), dict(attributes or {})


# How long the CAS server's resolved addresses are kept (a logoutRequest is rare; a flood of
# forged ones must not make a DNS query each).
SERVER_ADDRESSES_SECONDS = 300


def _server_addresses(connector: EntConnector) -> frozenset[str]:
    """Return the addresses the connector's CAS server host resolves to (cached a while)."""
    host = urlsplit(connector.server_url).hostname or ""
    key = f"lessons:ent-server-addresses:{host[:200]}"
    known = cache.get(key)
    if isinstance(known, list):
        return frozenset(known)
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)} if host else set()
    except (OSError, UnicodeError):
        found = set()
    cache.set(key, sorted(found), SERVER_ADDRESSES_SECONDS)
    return frozenset(found)


def _same_address(one: str, other: str) -> bool:
    try:
        first = ipaddress.ip_address(one.split("%", 1)[0])
        second = ipaddress.ip_address(other.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(first, ipaddress.IPv6Address) and first.ipv4_mapped is not None:
        first = first.ipv4_mapped
    if isinstance(second, ipaddress.IPv6Address) and second.ipv4_mapped is not None:
        second = second.ipv4_mapped
    return first == second


def logout_sender_allowed(connector: EntConnector, address: str) -> bool:
    """Tell whether a single sign-out POST comes from the connector's CAS server.

    The CAS protocol has the server post the logoutRequest itself (back channel); python-cas
    and django-cas-ng take any sender, so a used ticket (a shared PC's history, a proxy log)
    would sign its session out. Accepted senders: the addresses the CAS server's host
    resolves to, and ENT_LOGOUT_ADDRESSES (an ENT whose back channel leaves from elsewhere).
    """
    allowed = set(_server_addresses(connector)) | set(getattr(settings, "ENT_LOGOUT_ADDRESSES", ()))
    return any(_same_address(address, known) for known in allowed)
