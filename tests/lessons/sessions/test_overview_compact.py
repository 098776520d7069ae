"""The overview frame's HTML is sent compact: one space for each run of white space, and the
page reads the same (issue 25: the frame goes out on every move of every table)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from lessons.sessions.overview import session_overview
from lessons.sessions.present import _SPACES, overview_context, overview_html
from tests.lessons.sessions.test_overview import _scripted_session, _wrong_play


class _Text(HTMLParser):
    """The text a reader gets, with HTML's own white-space collapsing."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _read(html: str) -> list[str]:
    reader = _Text()
    reader.feed(html)
    words = "".join(reader.parts)
    for space in "\t\n\r\f":
        words = words.replace(space, " ")
    return [word for word in words.split(" ") if word]


@pytest.mark.django_db
def test_the_sent_overview_is_compact_and_reads_the_same(class_a: Any) -> None:
    session, table = _scripted_session(class_a)
    _wrong_play(table, class_a.other_student.user)
    overview = session_overview(session=session)
    with translation.override("fr"):
        full = render_to_string("lessons/sessions/_overview.html", overview_context(overview))
        sent = overview_html(overview)
    assert "\n" not in sent and "  " not in sent
    assert len(sent) < 0.8 * len(full)
    assert sent.count("\u202f") == full.count("\u202f")
    assert _read(sent) == _read(full)


def test_french_no_break_spaces_are_kept() -> None:
    # A no-break space is white space to Python's \\s, not to HTML: it must survive.
    assert _SPACES.sub(" ", "Léa\u202f: 3 \u00a0\n\n  cartes") == "Léa\u202f: 3 \u00a0 cartes"
