"""What the accessibility statement shows, in the page's language: the self-assessment's rows
grouped by theme, its tally and its status (lessons.notices.rgaa holds the verdicts)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from lessons.notices import rgaa


@dataclass(frozen=True)
class Row:
    """One criterion as the page shows it."""

    number: str
    title: str
    verdict: str
    verdict_label: str
    reason: str
    how: str


@dataclass(frozen=True)
class Theme:
    """One RGAA theme and its criteria."""

    number: int
    name: str
    rows: list[Row]


def _french() -> bool:
    return (get_language() or "fr").startswith("fr")


def verdict_labels() -> dict[str, str]:
    """Return each verdict's words in the page's language."""
    return {
        rgaa.Verdict.CONFORMING: _("conforming"),
        rgaa.Verdict.NOT_CONFORMING: _("not conforming"),
        rgaa.Verdict.NOT_APPLICABLE: _("not applicable"),
        rgaa.Verdict.NOT_ASSESSED: _("not assessed"),
    }


def how_labels() -> dict[str, str]:
    """Return how each verdict was reached, in the page's language."""
    return {
        rgaa.How.AUTOMATED: _("automated, re-run by the tests"),
        rgaa.How.TEST: _("a browser test of the suite"),
        rgaa.How.REVIEW: _("read in the code"),
        rgaa.How.NONE: _("not checked"),
    }


def themes() -> list[Theme]:
    """Return the criteria grouped by theme, in the page's language."""
    french, verdicts, hows = _french(), verdict_labels(), how_labels()
    data = rgaa.assessment()
    grouped: list[Theme] = []
    for number, (name_fr, name_en) in data.themes.items():
        rows = [
            Row(
                number=c.number,
                title=c.title_fr if french else c.title_en,
                verdict=c.verdict.value,
                verdict_label=verdicts[c.verdict],
                reason=c.reason_fr if french else c.reason_en,
                how=hows[c.how] + "".join(f" · {test}" for test in c.tests),
            )
            for c in data.criteria
            if c.theme == number
        ]
        grouped.append(Theme(number=number, name=name_fr if french else name_en, rows=rows))
    return grouped


def status_label(status: str | None = None) -> str:
    """Return the footer's words for the RGAA status ("Accessibility: partially compliant")."""
    labels = {
        "full": _("Accessibility: fully compliant"),
        "partial": _("Accessibility: partially compliant"),
        "none": _("Accessibility: not compliant"),
    }
    return labels[status or rgaa.tally().status]


def sample() -> list[tuple[str, str]]:
    """Return the sampled pages (name, address) in the page's language."""
    french = _french()
    return [(fr if french else en, address) for fr, en, address in rgaa.assessment().sample]
