"""Issue 31 §1.5: the "How we diagnose" page prints the residual-habit table, recomputed here."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from lessons.diagnosis.chance import binomial_cdf
from lessons.diagnosis.model import HABIT_FLOOR, RESOLVED_MIN_CLEAN, RESOLVED_MISS
from lessons.diagnosis.residual import RESIDUAL_RATES
from tests.support.responses import page_text


def _passes(rate: float) -> float:
    """One round passes: no trap in the first clean offers, or one there and none after it."""
    clean = RESOLVED_MIN_CLEAN
    one = next(n for n in range(clean, 100) if binomial_cdf(1, n, HABIT_FLOOR) <= RESOLVED_MISS)
    return (1 - rate) ** clean + clean * rate * (1 - rate) ** (one - 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "What a re-check does not show"), ("fr", "Ce qu’une revérification ne montre pas")],
)
def test_the_page_prints_each_residual_habits_pass_rates(language: str, heading: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    page = page_text(client.get(reverse("diagnosis")))
    assert heading in page
    table = page[page.index('class="roster residual"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>", table)
    assert len(rows) == len(RESIDUAL_RATES)
    decimal = "," if language == "fr" else "."
    for (rate_text, one_text, two_text), rate in zip(rows, RESIDUAL_RATES, strict=True):
        one = _passes(rate)
        assert rate_text.startswith(f"{rate * 100:.0f}")
        assert one_text.startswith(f"{one * 100:.1f}".replace(".", decimal)), (rate, one_text)
        assert two_text.startswith(f"{one * one * 100:.1f}".replace(".", decimal)), rate
    # The status is explained with the other ones.
    said = {"en": "Still resolved a week later", "fr": "Toujours résolue une semaine plus tard"}
    assert said[language] in page
