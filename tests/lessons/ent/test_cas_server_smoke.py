"""The test CAS server is real: it signs a user in at its form and vouches for the ticket."""

from __future__ import annotations

import requests
from cas import CASClient

from tests.support.cas.server import CasServer, ticket_of

SERVICE = "http://testserver/ent/1/callback/"


def test_the_cas_server_releases_both_shapes(cas: CasServer) -> None:
    for version, username, id_name, expected in [
        (2, "prof.edifice", "externalId", "EDI-T-0001"),
        (3, "eleve.gar", "IDO", "GAR-elv-0004"),
    ]:
        with requests.Session() as browser:
            ticket = ticket_of(cas.sign_in(browser, SERVICE, username))
        client = CASClient(version=version, service_url=SERVICE, server_url=cas.url)
        user, attributes, _ = client.verify_ticket(ticket)
        assert user == username
        assert attributes[id_name] == expected
        # Single use: the server refuses the same ticket again.
        again, _, _ = client.verify_ticket(ticket)
        assert again is None
