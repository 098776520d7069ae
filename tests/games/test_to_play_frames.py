"""Every state frame a page gets says what may go on the pile (`to_play`) (issue 30 §1.3).

After a Joker or a +4, after a refused card and after a catch-up, "You can play" showed "–":
the catch-up's state frame (also the one that follows a refusal) was built without the page's
language, so it had no `to_play`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.catch_up import frames_since
from tests.games.helpers import act, hold_still, make_table, receive_until, socket

# Seat 1 plays first (dealer 0); both seats are students.
SETUP: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["2/6r", "5/6v", "1/2b", "+04"],
        ["4/12j", "2/3r", "10/12v", "1/6b", "joker", "+04"],
    ],
    "start": "1/3v",
}


_still = pytest.fixture(autouse=True)(hold_still)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "play", "card": "joker", "denominator": 12}, "une fraction avec 12 en bas"),
        ({"type": "play", "card": "joker"}, "une fraction égale à 1/3 ou avec 3 en bas"),
        ({"type": "play", "card": "+04", "denominator": 6}, "une fraction avec 6 en bas"),
    ],
)
def test_the_catch_up_state_says_what_to_play(pair: Any, action: Any, words: str) -> None:
    table = make_table(list(pair), setup=SETUP, options={"plus4_challenge": False})
    act(table, pair[1], action)
    for seat, lang in ((0, "fr"), (1, "fr"), (None, "fr"), (0, "en")):
        found = frames_since(table_id=table.pk, seat=seat, since=0, lang=lang)
        state = found.frames[-1]
        assert state["type"] == "state"
        assert state["to_play"], (seat, lang)
        if lang == "fr":
            assert state["to_play"][0] == words


@pytest.mark.django_db
@pytest.mark.parametrize("card", ["joker", "+04"])
def test_the_first_state_of_the_page_says_what_to_play(pair: Any, card: str) -> None:
    table = make_table(list(pair), setup=SETUP, options={"plus4_challenge": False})
    act(table, pair[1], {"type": "play", "card": card, "denominator": 12})
    client = Client()
    client.force_login(pair[0])
    page = client.get(reverse("games:play", args=[table.pk])).content.decode()
    listed = re.search(r'<ul class="to-play" id="play-to-play">(.*?)</ul>', page, re.S)
    assert listed is not None
    assert "<li>–</li>" not in listed.group(1)
    assert "12" in listed.group(1)
    first = re.search(r'id="play-first-state"[^>]*>(.*?)</script>', page, re.S)
    assert first is not None
    assert json.loads(first.group(1))["to_play"]


@pytest.mark.django_db(transaction=True)
async def test_the_state_after_a_refused_card_says_what_to_play(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=SETUP)
    comm = await socket(table.pk, pair[1])
    await comm.connect()
    first = await receive_until(comm, "state")
    assert first["to_play"]
    action = {"type": "play", "card": "2/3r", "claim": "equal"}
    await comm.send_to(text_data=json.dumps({"type": "action", "action": action, "state_id": 0}))
    assert (await receive_until(comm, "error"))["code"] == "not_equivalent"
    after = await receive_until(comm, "state")
    assert after["state_id"] == 0
    assert after["to_play"] == first["to_play"]  # the cookie asks for English
    assert after["to_play"][0] == "a fraction equal to 1/3 or with 3 at the bottom"
    await comm.disconnect()
