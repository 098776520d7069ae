"""Student-facing explanations of wrong plays, in French and English."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.explain import (
    equal_forms,
    explain_named_denominator,
    explain_wrong_play,
)

CASES = [
    (
        "2/3",
        "3/4",
        "equal",
        "2/3 ≠ 3/4 : 2/3 = 8/12 mais 3/4 = 9/12.",
        "2/3 ≠ 3/4: 2/3 = 8/12 but 3/4 = 9/12.",
    ),
    (
        "2/3",
        "6/12",
        "equal",
        "2/3 ≠ 6/12 : 2/3 = 8/12, pas 6/12.",
        "2/3 ≠ 6/12: 2/3 = 8/12, not 6/12.",
    ),
    (
        (9, 12),
        (3, 6),
        "equal",
        "9/12 ≠ 3/6 : 3/6 = 6/12, pas 9/12. Une fraction égale à 9/12 : 18/24.",
        "9/12 ≠ 3/6: 3/6 = 6/12, not 9/12. A fraction equal to 9/12: 18/24.",
    ),
    (
        "1/2",
        "9/6",
        "equal",
        "1/2 ≠ 9/6 : 1/2 = 3/6, pas 9/6. 9/6 est plus grand que 1, mais 1/2 est plus petit que 1.",
        "1/2 ≠ 9/6: 1/2 = 3/6, not 9/6. 9/6 is more than 1, but 1/2 is less than 1.",
    ),
    (
        "5/12",
        "9/12",
        "equal",
        "5/12 ≠ 9/12 : même dénominateur, mais pas le même numérateur. Tu peux la poser "
        "avec la règle « même dénominateur ».",
        "5/12 ≠ 9/12: same denominator, but not the same numerator. You can play it with the "
        "“same denominator” rule.",
    ),
    (
        "10/12",
        "4/6",
        "denominator",
        "10/12 et 4/6 n’ont pas le même dénominateur (le nombre du bas) : 12 et 6. Il faut "
        "une carte avec 12 en bas.",
        "10/12 and 4/6 do not have the same denominator (bottom number): 12 and 6. You need a "
        "card with 12 at the bottom.",
    ),
    (
        "1/3",
        "2/6",
        "denominator",
        "1/3 et 2/6 n’ont pas le même dénominateur (le nombre du bas) : 3 et 6. Mais elles "
        "sont égales : choisis la règle « égale ».",
        "1/3 and 2/6 do not have the same denominator (bottom number): 3 and 6. But they are "
        "equal: choose the “equal” rule.",
    ),
    (
        "2/3",
        "5/7",
        "equal",
        "2/3 ≠ 5/7 : 2/3 = 14/21 mais 5/7 = 15/21. Une fraction égale à 2/3 : 4/6.",
        "2/3 ≠ 5/7: 2/3 = 14/21 but 5/7 = 15/21. A fraction equal to 2/3: 4/6.",
    ),
]


@pytest.mark.parametrize(("reference", "played", "rule", "fr", "en"), CASES)
def test_explanations_in_both_languages(
    reference: str, played: str, rule: str, fr: str, en: str
) -> None:
    assert explain_wrong_play(reference, played, rule, "fr") == fr
    assert explain_wrong_play(reference, played, rule, "en") == en


def test_equal_forms_use_the_deck_denominators() -> None:
    assert equal_forms("2/3") == ["2/3", "4/6", "8/12", "16/24", "32/48"]
    assert equal_forms((9, 12)) == ["9/12", "18/24", "36/48"]
    assert equal_forms("5/6") == ["5/6", "10/12", "20/24", "40/48"]
    assert equal_forms("3/2") == ["3/2", "9/6", "18/12", "36/24", "72/48"]
    assert equal_forms("5/7") == []


def test_named_denominator() -> None:
    assert explain_named_denominator(12, "2/3", "fr") == (
        "Il faut une fraction avec 12 en bas. 2/3 a 3 en bas."
    )
    assert explain_named_denominator(12, (2, 3), "en") == (
        "You need a fraction with 12 at the bottom. 2/3 has 3 at the bottom."
    )
    with pytest.raises(ValueError):
        explain_named_denominator(12, "5/12", "fr")
    with pytest.raises(ValueError):
        explain_named_denominator(0, "5/12", "fr")


@pytest.mark.parametrize(
    ("reference", "played", "rule", "lang"),
    [
        ("1/3", "2/6", "equal", "fr"),  # the play fits
        ("4/12", "10/12", "denominator", "en"),  # the play fits
        ("1/3", "2/5", "same", "fr"),
        ("1/3", "2/5", "equal", "de"),
        ("1/0", "2/5", "equal", "fr"),
        ("a/3", "2/5", "equal", "fr"),
        ("1/3", "2", "equal", "fr"),
        ((1, 3, 4), "2/5", "equal", "fr"),
        ((-1, 3), "2/5", "equal", "fr"),
    ],
)
def test_bad_calls_are_refused(reference: Any, played: str, rule: str, lang: str) -> None:
    # `reference`: a bad one on purpose (a 3-tuple, a zero denominator).
    with pytest.raises(ValueError):
        explain_wrong_play(reference, played, rule, lang)


deck_card = st.sampled_from([(n, d) for d in (2, 3, 6, 12, 24, 48) for n in range(1, 2 * d + 1)])


rules = st.sampled_from(["equal", "denominator"])
langs = st.sampled_from(["fr", "en"])


@given(deck_card, deck_card, rules, langs)
def test_every_wrong_play_gets_a_short_explanation_naming_both_cards(
    ref: tuple[int, int], card: tuple[int, int], rule: str, lang: str
) -> None:
    fits = ref[0] * card[1] == ref[1] * card[0] if rule == "equal" else ref[1] == card[1]
    if fits:
        with pytest.raises(ValueError):
            explain_wrong_play(ref, card, rule, lang)
        return
    text = explain_wrong_play(ref, card, rule, lang)
    assert f"{ref[0]}/{ref[1]}" in text and f"{card[0]}/{card[1]}" in text
    assert text.count(".") <= 3 and len(text) < 220


def test_a_huge_common_denominator_is_not_shown() -> None:
    assert explain_wrong_play("1/49", "1/50", "equal", "en") == "1/49 ≠ 1/50."
    assert explain_wrong_play("2/3", "1/50", "equal", "fr") == (
        "2/3 ≠ 1/50. Une fraction égale à 2/3 : 4/6."
    )
