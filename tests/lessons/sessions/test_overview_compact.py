"""The overview frame's HTML is sent compact: one space for each run of white space, and the
page reads the same (issue 25: the frame goes out on every move of every table); while tables
keep moving, one frame every few seconds at most."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from lessons.sessions.consumers import CHANGES_EVERY_SECONDS, COALESCE_SECONDS, refresh_delay
from lessons.sessions.overview import session_overview
from lessons.sessions.present import _SPACES, overview_context, overview_html
from tests.lessons.sessions.helpers import scripted_session
from tests.lessons.sessions.test_overview import _wrong_play


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
    session, table = scripted_session(class_a)
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


def test_a_stream_of_changes_gets_one_overview_every_few_seconds() -> None:
    # A lone change (or the first after the page opened) is sent after the short coalescing.
    assert refresh_delay(100.0, None) == COALESCE_SECONDS
    assert refresh_delay(100.0, 100.0 - CHANGES_EVERY_SECONDS - 5) == COALESCE_SECONDS
    # Tables moving all the time: the next overview waits until the interval has passed.
    assert refresh_delay(100.1, 100.0) == pytest.approx(CHANGES_EVERY_SECONDS - 0.1)
    assert refresh_delay(101.9, 100.0) == COALESCE_SECONDS
    # Over a minute of constant moves (one change every 0.1 s): at most one overview per interval.
    now, last, built = 0.0, None, []
    while now < 60:
        at = now + refresh_delay(now, last)
        built.append(at)
        last, now = at, at + 0.1
    assert len(built) <= 60 / CHANGES_EVERY_SECONDS + 1
    gaps = [b - a for a, b in zip(built, built[1:], strict=False)]
    assert min(gaps) >= CHANGES_EVERY_SECONDS - 1e-9
