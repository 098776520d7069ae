"""The pupils' address and its QR code on the teacher's home and live session page, where the
box serves the Wi-Fi (`unoclass serve --lan`); nowhere else, and never to pupils."""

from __future__ import annotations

import copy
import re
from urllib.parse import unquote

import pytest
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.support.factories import student_client, teacher_client
from unoclass.box.context import pupil_address
from unoclass.box.qr import qr_data_uri

pytestmark = pytest.mark.django_db
URL = "http://192.168.1.20:8000/join/"


@pytest.fixture
def box(settings: Settings) -> Settings:
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["OPTIONS"]["context_processors"].append("unoclass.box.context.pupil_address")
    settings.TEMPLATES = templates
    settings.BOX_PUPIL_URL = URL
    return settings


def _shown(page: str) -> bool:
    return 'id="pupil-qr"' in page and f'href="{URL}"' in page


def test_the_teacher_s_home_and_live_session_show_the_address_and_its_code(
    class_a: ClassWorld, box: Settings
) -> None:
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    teacher = teacher_client(class_a.teacher)
    for url in (reverse("home"), reverse("session_overview", args=[session.pk])):
        page = teacher.get(url).content.decode()
        assert _shown(page), url
        # The image is the code of that very address, with words for a screen reader.
        source = re.search(r'id="pupil-qr" src="([^"]+)"', page)
        assert source is not None and source.group(1) == qr_data_uri(URL)
        assert f"QR code de l’adresse {URL}" in page
    assert not _shown(student_client(class_a.student.student).get(reverse("home")).content.decode())


def test_without_lan_no_address_is_shown(class_a: ClassWorld, box: Settings) -> None:
    box.BOX_PUPIL_URL = ""
    page = teacher_client(class_a.teacher).get(reverse("home")).content.decode()
    assert 'id="pupil-qr"' not in page
    assert pupil_address(None) == {}  # type: ignore[arg-type]


def test_the_code_is_an_svg_of_the_address() -> None:
    uri = qr_data_uri(URL)
    assert uri.startswith("data:image/svg+xml")
    svg = unquote(uri.split(",", 1)[1])
    assert "<svg" in svg and "<path" in svg and 'fill="#fff"' in svg.replace("'", '"')
    assert qr_data_uri("http://10.0.0.5:8000/join/") != uri
