"""The statuses' plain words carry exactly the model's figures, in both languages.

Every number of every status text is compared with one worked out here from the model's
constants (lessons.diagnosis.model), written without the page's own `percent()`: a sentence
that says "0.03%" where the model means 99.97%, or loses a figure, fails.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from lessons.diagnosis import ALPHA_EMERGING, ALPHA_LIKELY, KAPPA_MIN_ANSWERS
from lessons.diagnosis.model import (
    EMERGING_MIN_MATCHES,
    FALSE_LIKELY_GOAL,
    FALSE_LIKELY_TURNS,
    HABIT_FLOOR,
    HELD_MIN_DAYS,
    LIKELY_MIN_REFERENCES,
    RESOLVED_MIN_CLEAN,
    RESOLVED_MISS,
)
from lessons.evidence.reading import LowAccuracy
from lessons.reporting.words import low_accuracy_figures, status_meanings, status_summary

# The resolved sentence's share: whole percents (RESOLVED_MISS is 0.01 since the re-check).
RESOLVED_DIGITS = 0
# A number standing alone: not the digits of a rule's code (M0, D1).
NUMBER = re.compile(r"(?<![A-Za-z\d])\d+(?:[.,]\d+)?")


def _share(share: float, digits: int) -> str:
    """Write a share as the percentage's digits ("99.97" for 0.9997, two digits)."""
    return f"{share * 100:.{digits}f}"


def _expected() -> dict[str, list[str]]:
    """Return each status text's figures, in the order the sentence says them (English)."""
    return {
        "likely": [
            str(LIKELY_MIN_REFERENCES),
            _share(FALSE_LIKELY_GOAL, 0),
            str(FALSE_LIKELY_TURNS),
            _share(ALPHA_LIKELY, 1),
        ],
        "emerging": [str(EMERGING_MIN_MATCHES), _share(ALPHA_EMERGING, 0)],
        "resolved": [
            str(RESOLVED_MIN_CLEAN),
            _share(HABIT_FLOOR, 0),
            _share(1 - RESOLVED_MISS, RESOLVED_DIGITS),
        ],
        # "held": the week, and the floor a habit that came back would show.
        "held": [str(HELD_MIN_DAYS), _share(HABIT_FLOOR, 0)],
        "none": [],
        "not_possible": [],
        "untested": [],
        # Cohen's kappa's two ends (1 and 0) are the scale's, not the model's.
        "kappa": ["1", "0", str(KAPPA_MIN_ANSWERS)],
    }


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_figure_of_every_status_text_is_the_models(language: str) -> None:
    with translation.override(language):
        meanings = status_meanings()
        summary = status_summary()
    expected = _expected()
    assert set(meanings) == set(expected)
    for status, text in meanings.items():
        found = [n.replace(",", ".") for n in NUMBER.findall(text)]
        assert sorted(found) == sorted(expected[status]), (status, text)
    # The summary under the dashboards says the same figures.
    summary_figures = sorted(n.replace(",", ".") for n in NUMBER.findall(summary))
    wanted = sorted(
        expected["likely"] + expected["emerging"] + expected["resolved"] + expected["held"]
    )
    assert summary_figures == wanted


def test_the_resolved_sentence_says_how_sure_not_how_unsure() -> None:
    with translation.override("en"):
        resolved = status_meanings()["resolved"]
    assert f"({_share(1 - RESOLVED_MISS, RESOLVED_DIGITS)}%)" in resolved
    assert f"({_share(RESOLVED_MISS, RESOLVED_DIGITS)}%)" not in resolved
    with translation.override("fr"):
        resolved = status_meanings()["resolved"]
    # French: a decimal comma, then the catalogue's space before the percent sign.
    sure = _share(1 - RESOLVED_MISS, RESOLVED_DIGITS).replace(".", ",")
    assert re.search(rf"\({sure}\s%\)", resolved), resolved


@pytest.mark.parametrize(
    ("right", "claims", "english"),
    [
        (1, 12, "1 right of 12 first claims, 8%"),
        (0, 10, "0 right of 10 first claims, 0%"),
        (0, 1, "0 right of 1 first claim, 0%"),
    ],
)
def test_low_accuracy_figures_agree_with_the_number_of_claims(
    right: int, claims: int, english: str
) -> None:
    # The noun is the claims': "1 right of 12 first claims", never "first claim".
    with translation.override("en"):
        assert low_accuracy_figures(LowAccuracy(right, claims)) == english
