"""Claims about practice state what is measured (issue 31 §9).

Aimed practice puts a pupil's trap in hand more often (exposure) and finds a habit sooner
(detection). How fast it removes the habit depends on how children learn from the game: the
robust-evaluation matrix (lessons.diagnosis.simulation.learners) runs four learner models,
and no text of the product (README, docs, templates, translations) may state a removal
speed-up larger than the matrix's minimum.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lessons.diagnosis.simulation import learners

ROOT = Path(__file__).resolve().parents[3]
# A speed-up: "2.5×", "2,0-2,5 ×", "2 times as fast", "3 fois plus", "twice as fast".
_NUMBER = r"\d+(?:[.,]\d+)?"
_SPEED = re.compile(
    rf"(?P<a>{_NUMBER})(?:\s*[-–]\s*(?P<b>{_NUMBER}))?\s*(?:×|x(?![a-z])|times\b|fois\b)",
    re.IGNORECASE,
)
_TWICE = re.compile(r"\b(?:twice|deux fois)\b", re.IGNORECASE)
_PRACTICE = re.compile(r"practi[cs]|aim(?:ed|ing)\b|cibl|entra[îi]n|pratique", re.IGNORECASE)
# What aimed practice is measured to do: show the trap more often and find the habit sooner.
_MEASURED = re.compile(
    r"\bfind|\bfound|detect|détect|expos|likely|trouv|repér|fitting card|turns to",
    re.IGNORECASE,
)
# What it is not measured to do.
_REMOVAL = re.compile(
    r"remov|unlearn|go(?:es)? away|disappear|dispara|élimin|corrig|\bcure|\bfix",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def speed_ups(sentence: str) -> list[float]:
    """Return every speed-up stated in a sentence (the top of a range)."""
    found = [
        float((m.group("b") or m.group("a")).replace(",", ".")) for m in _SPEED.finditer(sentence)
    ]
    return found + [2.0] * len(_TWICE.findall(sentence))


def removal_claims(text: str) -> list[tuple[float, str]]:
    """Return (speed-up, sentence) for each sentence stating how much faster practice removes
    a habit: a speed-up about practice that is not said to be about exposure or detection,
    or one said to be about removal. The matrix's own rows (a learner model named) are not
    claims but its figures."""
    claims = []
    for paragraph in re.split(r"\n\s*\n", text):
        for sentence in _SENTENCE.split(" ".join(paragraph.split())):
            numbers = speed_ups(sentence)
            if not numbers or any(model in sentence for model in learners.LEARNER_MODELS):
                continue
            practice = _PRACTICE.search(sentence) and not _MEASURED.search(sentence)
            if practice or (_PRACTICE.search(sentence) and _REMOVAL.search(sentence)):
                claims.append((max(numbers), sentence))
    return claims


def product_texts() -> Iterator[Path]:
    """Yield the README, the docs, every template and every translation."""
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield from sorted((ROOT / "templates").rglob("*.html"))
    yield from sorted((ROOT / "locale").rglob("django.po"))


@pytest.fixture(scope="module")
def minimum() -> float:
    cells = learners.removal_matrix(("M1", "M2", "M3"), pupils=8)
    return learners.minimum_speed_up(cells)


def test_the_matrix_minimum_is_at_most_one(minimum: float) -> None:
    # A pupil who learns nothing from the game is removed by neither dealing.
    assert minimum <= 1.0


def test_no_text_claims_a_removal_speed_up_beyond_the_matrix(minimum: float) -> None:
    too_large = [
        f"{path.relative_to(ROOT)}: {sentence}"
        for path in product_texts()
        for number, sentence in removal_claims(path.read_text(encoding="utf-8"))
        if number > minimum
    ]
    assert not too_large, "\n".join(too_large)


@pytest.mark.parametrize(
    "sentence",
    [
        "Aimed practice: 2.0-2.5× faster.",
        "La pratique ciblée fait disparaître une habitude 2 fois plus vite.",
        "Aimed practice removes a habit twice as fast, and finds it sooner too.",
        "Practice games aimed at the habit: 2.3 times as fast.",
    ],
)
def test_a_removal_claim_is_caught(sentence: str) -> None:
    assert removal_claims(f"Intro.\n\n{sentence}\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "Aimed practice finds a habit 2.3 times as fast (median turns to likely).",
        "Aimed dealing puts a fitting card in hand 2.8× as often (exposure).",
        "The engine is 4.2× faster than RLCard.",
        "info  removal, learns on refused traps: M1 speed-up 2.82",
    ],
)
def test_a_measured_figure_is_not_a_removal_claim(sentence: str) -> None:
    assert not removal_claims(sentence)
