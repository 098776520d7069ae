"""The end of a game (issue 30 §2), chromium at 390×844, French and English.

- No ranking during play: the standings are hidden and empty until the game is over.
- At the end, every seat's line, the winner first with the points the sheet counts (the
  cards left in the others' hands), each line "rank. name" and its points in words; the
  child's own line in words ("Tu as trouvé 1 fraction égale.").
- Built last to first: with motion the last line rises first and the winner's last; under
  reduced motion every line is there at once (no animation at all).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# Alice (seat 0) plays first on 1/3 her one card, 2/6 (equal): the game is over at once.
# As the sheet counts, the winner scores the cards left in the others' hands: 25 points
# (a fraction counts its numerator: 5 + 1 + 10 and 5 + 4); the others none.
LAST_CARD = {
    "dealer": 2,
    "hands": [["2/6j"], ["5/6v", "1/2b", "10/12j"], ["5/6b", "4/6r"]],
    "start": "1/3v",
}
WORDS = {
    "fr": {
        "own": "Tu as trouvé 1 fraction égale.",
        "won": "25 points",
        "how": "une fraction vaut son numérateur",
    },
    "en": {
        "own": "You found 1 equal fraction.",
        "won": "25 points",
        "how": "a fraction counts its numerator",
    },
}
# The others' cards left, fewest first: seat 2 holds two, seat 1 three.
LEFT = {"fr": ["2 cartes", "3 cartes"], "en": ["2 cards", "3 cards"]}


@pytest.mark.parametrize(
    ("lang", "motion"), [("fr", "no-preference"), ("en", "reduce")], ids=["fr-motion", "en-reduce"]
)
def test_the_standings_last_to_first_and_the_childs_own_line(
    server: Server, browser: Browser, lang: str, motion: str
) -> None:
    world = server.world(students=["Alice"], bots=2, setup=LAST_CARD)
    context = signed_in(
        browser, server, world["students"][0]["session"], lang=lang, viewport=PHONE,
        is_mobile=True, has_touch=True, reduced_motion=motion,
    )  # fmt: skip
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        standings = page.locator("#play-standings")
        # During play: no ranking anywhere.
        expect(standings).to_be_hidden()
        expect(standings.locator("li")).to_have_count(0)
        expect(page.locator("#play-own")).to_be_hidden()
        expect(page.locator("#play-points-how")).to_be_hidden()
        page.tap(card_selector("2/6j"))
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        expect(standings).to_be_visible()
        lines = standings.locator("li")
        expect(lines).to_have_count(3)
        seats = lines.evaluate_all("els => els.map(e => e.dataset.seat)")
        # The winner, then the others by fewest cards left (all have 0 points after one round).
        assert seats == ["0", "2", "1"], seats
        texts = [" ".join(t.split()) for t in lines.all_inner_texts()]
        assert [t.split(" ", 1)[0] for t in texts] == ["1.", "2.", "3."], texts
        assert texts[0].endswith(WORDS[lang]["won"]), texts
        # Each other line says the cards the winner counted; the rule of the count is said once.
        assert [t.rsplit(" · ", 1)[-1] for t in texts[1:]] == LEFT[lang], texts
        expect(page.locator("#play-points-how")).to_be_visible()
        expect(page.locator("#play-points-how")).to_contain_text(WORDS[lang]["how"])
        expect(page.locator("#play-own")).to_have_text(WORDS[lang]["own"])
        delays = lines.evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).animationDelay))"
        )
        names_of = lines.evaluate_all("els => els.map(e => getComputedStyle(e).animationName)")
        if motion == "reduce":
            assert set(names_of) == {"none"}, names_of
            assert page.evaluate("document.getAnimations().length") == 0
        else:
            # Last to first: the last line starts first, the winner's line last.
            assert set(names_of) == {"play-rise"}, names_of
            assert delays == sorted(delays, reverse=True) and delays[0] > delays[-1], delays
    finally:
        context.close()
