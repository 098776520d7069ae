"""The RGAA 4.1 self-assessment of the sampled pages, read from rgaa.toml beside this module.

rgaa.toml holds each of the 106 criteria with its verdict, why, and how it was checked, in
French and English together (one row per criterion, not 400 .po entries). The accessibility
statement (/accessibility/) renders it and computes its rate from it; the tests read the same
rows: tests/lessons/notices/test_rgaa.py counts them against the page, and
tests/e2e/browser/test_accessibility_statement.py runs the axe-core rules and page probes the
automated rows name on the sampled pages in Chromium. No Django here: the page picks the language.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("rgaa.toml")
THEME_COUNT = 13
CRITERION_COUNT = 106


class Verdict(StrEnum):
    """What the assessment concluded for a criterion."""

    CONFORMING = "C"
    NOT_CONFORMING = "NC"
    NOT_APPLICABLE = "NA"
    NOT_ASSESSED = "NT"


class How(StrEnum):
    """How a verdict was reached."""

    # axe-core rules or page probes, re-run by the browser test on every sampled page.
    AUTOMATED = "auto"
    # An existing browser test of the suite (named in `tests`).
    TEST = "test"
    # Reading the templates, style sheets and scripts, on the assessment's date.
    REVIEW = "review"
    # Not checked: the reason says why.
    NONE = "none"


@dataclass(frozen=True)
class Criterion:
    """One RGAA criterion and what this assessment says of it."""

    number: str
    title_fr: str
    title_en: str
    verdict: Verdict
    reason_fr: str
    reason_en: str
    how: How
    axe_rules: tuple[str, ...] = ()
    probes: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()

    @property
    def theme(self) -> int:
        """Return the number of the criterion's theme."""
        return int(self.number.split(".")[0])


@dataclass(frozen=True)
class Assessment:
    """The whole self-assessment: when, with what, on which pages, and each criterion."""

    assessed_on: date
    tools: str
    # (French name, English name, address) of each sampled page.
    sample: tuple[tuple[str, str, str], ...]
    themes: dict[int, tuple[str, str]]
    criteria: tuple[Criterion, ...]


def _criterion(row: dict[str, Any], reasons: dict[str, list[str]]) -> Criterion:
    reason = row["reason"]
    french, english = reasons[reason[1:]] if isinstance(reason, str) else reason
    return Criterion(
        number=row["number"],
        title_fr=row["title"][0],
        title_en=row["title"][1],
        verdict=Verdict(row["verdict"]),
        reason_fr=french,
        reason_en=english,
        how=How(row["how"]),
        axe_rules=tuple(row.get("axe", ())),
        probes=tuple(row.get("probes", ())),
        tests=tuple(row.get("tests", ())),
    )


@cache
def assessment() -> Assessment:
    """Read rgaa.toml (once per process)."""
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    return Assessment(
        assessed_on=data["assessed_on"],
        tools=data["tools"],
        sample=tuple((page["fr"], page["en"], page["address"]) for page in data["sample"]),
        themes={int(number): (fr, en) for number, (fr, en) in data["themes"].items()},
        criteria=tuple(_criterion(row, data["reasons"]) for row in data["criterion"]),
    )


@dataclass(frozen=True)
class Tally:
    """How many criteria got each verdict, and the compliance rate."""

    conforming: int
    not_conforming: int
    not_applicable: int
    not_assessed: int

    @property
    def rate(self) -> int:
        """Return conforming / (conforming + not conforming), in whole percent (rounded down)."""
        applicable = self.conforming + self.not_conforming
        return 100 * self.conforming // applicable if applicable else 0

    @property
    def status(self) -> str:
        """Return the RGAA's status: "full" (100 %), "partial" (50 % or more) or "none".

        A criterion not assessed keeps a site from "full": nothing unchecked is claimed.
        """
        if self.rate == 100 and not self.not_assessed:
            return "full"
        return "partial" if self.rate >= 50 else "none"


def tally(criteria: tuple[Criterion, ...] | None = None) -> Tally:
    """Count the verdicts (of the assessment's criteria by default)."""
    rows = assessment().criteria if criteria is None else criteria
    verdicts = [criterion.verdict for criterion in rows]
    return Tally(
        conforming=verdicts.count(Verdict.CONFORMING),
        not_conforming=verdicts.count(Verdict.NOT_CONFORMING),
        not_applicable=verdicts.count(Verdict.NOT_APPLICABLE),
        not_assessed=verdicts.count(Verdict.NOT_ASSESSED),
    )
