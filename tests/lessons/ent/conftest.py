"""The ENT sign-in tests' fixtures: one real CAS server for the module, and two connectors to it
(the Édifice/ONE shape over CAS 2.0, the GAR shape over CAS 3.0).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from pytest_django.fixtures import Settings

from lessons.ent.presets import PRESETS
from lessons.models import EntConnector
from tests.support.cas.server import CasServer, cas_server
from tests.support.cas.users import SCHOOL_UAI

SITE = "http://testserver"


@pytest.fixture(scope="session")
def cas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CasServer]:
    """Run django-cas-server (its own process and environment) for the whole session."""
    with cas_server(tmp_path_factory.mktemp("cas-server")) as server:
        yield server


@pytest.fixture
def ent_settings(settings: Settings) -> Settings:
    """Build service URLs on the test client's host; allow the loopback CAS server's http."""
    settings.ENT_SITE_URL = SITE
    settings.ENT_ALLOW_HTTP = True
    return settings


def make_connector(server_url: str, preset: str, **values: object) -> EntConnector:
    """Create a connector filled by a preset."""
    fields: dict[str, object] = {**PRESETS[preset], **values}
    return EntConnector.objects.create(
        name=f"ENT {preset}", server_url=server_url, preset=preset, **fields
    )


@pytest.fixture
def edifice(db: None, cas: CasServer, ent_settings: Settings) -> EntConnector:
    """A connector of the Édifice/ONE shape (CAS 2.0) to the test CAS server."""
    return make_connector(cas.url, "edifice", school_uai=SCHOOL_UAI)


@pytest.fixture
def gar(db: None, cas: CasServer, ent_settings: Settings) -> EntConnector:
    """A connector of the GAR shape (CAS 3.0) to the test CAS server."""
    return make_connector(cas.url, "gar", school_uai=SCHOOL_UAI)


@pytest.fixture
def browser_session() -> Iterator[requests.Session]:
    """A cookie jar standing for the browser at the CAS server."""
    with requests.Session() as session:
        yield session
