"""Walk the CAS flow in process: the app's test client for our side, requests for the browser
at the real CAS server (the test client cannot follow a redirect to another server).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlencode, urlparse

import requests
from django.test import Client
from django.urls import reverse

from lessons.models import EntConnector
from tests.support.cas.server import CasServer

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse


def callback_url(
    cas: CasServer,
    client: Client,
    connector: EntConnector,
    username: str,
    *,
    next_url: str | None = None,
) -> str:
    """Start at /ent/<id>/login/, sign in at the CAS server; return the callback with its ticket.

    The service URL is the one the app sent the browser with (asserted fixed by the tests).
    """
    query = {"next": next_url} if next_url is not None else {}
    start = client.get(reverse("ent_login", args=[connector.pk]), query)
    assert start.status_code == 302, start.content[:500]
    service = parse_qs(urlparse(start["Location"]).query)["service"][0]
    with requests.Session() as browser:
        return cas.sign_in(browser, service, username)


def started_state(client: Client, connector: EntConnector) -> str:
    """Press the connector's ENT button in `client`; return the state of that sign-in."""
    start = client.get(reverse("ent_login", args=[connector.pk]))
    assert start.status_code == 302, start.content[:500]
    service = parse_qs(urlparse(start["Location"]).query)["service"][0]
    return parse_qs(urlparse(service).query)["state"][0]


def with_query(url: str, **changes: str | None) -> str:
    """Return the URL with query values changed (None drops one)."""
    parts = urlparse(url)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    for key, value in changes.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    return parts._replace(query=urlencode(query)).geturl()


def local(url: str) -> str:
    """Return the path and query of an absolute URL of the app (what the test client takes)."""
    parts = urlparse(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def ent_sign_in(
    cas: CasServer,
    client: Client,
    connector: EntConnector,
    username: str,
    *,
    next_url: str | None = None,
) -> ClientResponse:
    """Sign in through the ENT as `username`; return the callback's response."""
    url = callback_url(cas, client, connector, username, next_url=next_url)
    return client.get(local(url))


def signed_in_user_id(client: Client) -> int | None:
    """Return the id of the user the client's session signs in, or None."""
    value = client.session.get("_auth_user_id")
    return int(value) if value is not None else None
