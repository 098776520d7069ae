"""The statuses in plain words for teachers and families, with the model's real figures.

Every number here is read from lessons.diagnosis (the status model's levels, the deck's chance
rates, the rules the deck cannot show), never typed by hand, so the words change when the
model does. Texts go through Django's translations (French first, English second).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from django.utils.formats import date_format, number_format
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.engine.fractions import parse_fraction
from lessons.diagnosis import (
    ALPHA_EMERGING,
    ALPHA_LIKELY,
    DEFAULT_DECK_VALUES,
    HELD_MIN_DAYS,
    KAPPA_MIN_ANSWERS,
    RULE_IDS,
    STATUS_HELD,
    STATUS_LABELS,
    STATUS_RESOLVED,
    deck_chance_rates,
    possible_rules,
)
from lessons.diagnosis.model import (
    EMERGING_MIN_MATCHES,
    FALSE_LIKELY_GOAL,
    FALSE_LIKELY_TURNS,
    HABIT_FLOOR,
    LIKELY_MIN_REFERENCES,
    RESOLVED_MIN_CLEAN,
    RESOLVED_MISS,
    UNTESTED_RULES,
)
from lessons.diagnosis.residual import residual_pass_rates
from lessons.evidence.loading import Check, RuleStatus
from lessons.evidence.reading import LOW_ACCURACY_BELOW, LOW_ACCURACY_MIN_CLAIMS, LowAccuracy

__all__ = [
    "DeckFigures",
    "check_words",
    "deck_figures",
    "low_accuracy_family",
    "low_accuracy_figures",
    "low_accuracy_meaning",
    "percent",
    "residual_table",
    "status_meanings",
    "status_summary",
]


def percent(share: float, digits: int = 1) -> str:
    """Write a share as a percentage in the active language (0.0123 -> "1,2 %" / "1.2%")."""
    value = number_format(round(share * 100, digits), decimal_pos=digits)
    return _("%(value)s%%") % {"value": value}


@dataclass(frozen=True)
class DeckFigures:
    """The default deck's figures: chance rates per rule, rules it cannot show."""

    chance: dict[str, float]  # share of wrong "equal" pairs of the deck that fit each rule
    impossible: tuple[str, ...]
    values: int


@lru_cache(maxsize=1)
def deck_figures() -> DeckFigures:
    """Return the default deck's chance rates (every wrong "equal" pair) and impossible rules."""
    cards = [parse_fraction(value) for value in DEFAULT_DECK_VALUES]
    chance = deck_chance_rates(cards, different_denominators_only=False)
    possible = possible_rules(cards)
    impossible = tuple(rule for rule in RULE_IDS if rule not in possible)
    return DeckFigures(chance, impossible, len(DEFAULT_DECK_VALUES))


def status_meanings() -> dict[str, str]:
    """Return what each status means, in plain words, with the model's figures."""
    return {
        "likely": _(
            "Likely: the child keeps making this same kind of mistake far more often than luck "
            "would explain, given the cards they held, and on at least %(refs)d different "
            "cards on the pile. Before saying so we accept a small risk of being wrong: a child "
            "with no such habit, who plays wrong cards at random, is shown “likely” for some "
            "mistake in at most %(goal)s of cases over a lesson of %(turns)d turns (each time "
            "we look, at most %(alpha)s for all the mistakes together)."
        )
        % {
            "refs": LIKELY_MIN_REFERENCES,
            "goal": percent(FALSE_LIKELY_GOAL, 0),
            "turns": FALSE_LIKELY_TURNS,
            "alpha": percent(ALPHA_LIKELY),
        },
        "emerging": _(
            "Emerging: at least %(k)d wrong cards of this kind, a little more often than luck "
            "would give (a %(alpha)s risk for this mistake alone). A hint to watch, not a "
            "diagnosis: the class panel does not count these children as affected."
        )
        % {"k": EMERGING_MIN_MATCHES, "alpha": percent(ALPHA_EMERGING, 0)},
        "resolved": _(
            "Resolved: the mistake was likely, and a later warm-up checked it again: offered a "
            "card that would show it at least %(clean)d times, the child chose it so rarely "
            "that a habit still there (%(floor)s of the times or more) would almost surely "
            "(%(sure)s) have shown. Games alone never resolve a mistake, and only a mistake "
            "that was likely can be resolved."
        )
        % {
            "clean": RESOLVED_MIN_CLEAN,
            "floor": percent(HABIT_FLOOR, 0),
            "sure": percent(1 - RESOLVED_MISS, 0),
        },
        "held": _(
            "Still resolved a week later: after the re-check that resolved it, another "
            "warm-up at least %(days)d days later checked it again by the same standard and "
            "the child still did not choose the trap card often enough for a habit of "
            "%(floor)s or more. It says the habit did not come back at that rate; a weaker "
            "habit may still be there, and a later re-check that fails makes it likely again."
        )
        % {"days": HELD_MIN_DAYS, "floor": percent(HABIT_FLOOR, 0)},
        "none": _(
            "Nothing to say: no more mistakes of this kind than luck alone would give. One card "
            "never decides anything."
        ),
        "not_possible": _(
            "Not possible with this deck: no two cards of the deck in use can show this mistake, "
            "so the game cannot tell whether the child makes it."
        ),
        "untested": _("%(rules)s describe cards, not children: they never get a status.")
        % {"rules": ", ".join(sorted(UNTESTED_RULES, key=RULE_IDS.index))},
        "kappa": _(
            "When children are asked why they thought two cards were equal, the dashboard shows "
            "how often their answer and the card agree (Cohen's kappa: 1 always, 0 no better "
            "than luck), from %(n)d answers on."
        )
        % {"n": KAPPA_MIN_ANSWERS},
    }


def residual_table() -> list[dict[str, str]]:
    """Return, per weaker habit still there, the chance one re-check and two re-checks pass.

    The model's own figures (lessons.diagnosis.residual), for the "How we diagnose" page:
    "resolved" certifies a habit below HABIT_FLOOR, not a habit gone.
    """
    return [
        {"rate": percent(rate, 0), "one": percent(one, 1), "two": percent(two, 1)}
        for rate, (one, two) in residual_pass_rates().items()
    ]


def status_summary() -> str:
    """Return the statuses in one short paragraph (under the dashboards' grids)."""
    meanings = status_meanings()
    return " ".join(meanings[key] for key in ("likely", "emerging", "resolved", "held"))


def _day(day: date) -> str:
    return date_format(day, "j F Y")


def _check(check: Check) -> str:
    """Say one passed re-check round: its day, the trap offered, how often it was taken."""
    if check.taken == 0:
        what = ngettext(
            "the trap never taken in %(offers)d chance",
            "the trap never taken in %(offers)d chances",
            check.offers,
        ) % {"offers": check.offers}
    else:
        what = ngettext(
            "the trap taken %(taken)d time in %(offers)d chances",
            "the trap taken %(taken)d times in %(offers)d chances",
            check.taken,
        ) % {"taken": check.taken, "offers": check.offers}
    return _("on %(date)s, %(what)s") % {"date": _day(check.day), "what": what}


def check_words(status: RuleStatus, lang: str | None = None) -> str:
    """Say what the re-checks of a resolved or held rule saw, with their dates ("" otherwise).

    The one reading every page gives (student page, report and its PDF, class dashboard):
    the status, each passed round's day and figures, and what it does not show.
    """
    if status.status not in (STATUS_RESOLVED, STATUS_HELD):
        return ""
    labels = STATUS_LABELS[status.status]
    label = capfirst(labels.get(lang or (get_language() or "fr")[:2], labels["en"]))
    if not status.checks:
        # Untimed evidence (older rows): only the day of the clean re-check is known.
        if status.rechecked_on is None:
            return str(label)
        checked = _("we checked again on %(date)s") % {"date": _day(status.rechecked_on)}
        return _("%(status)s: %(checks)s.") % {"status": label, "checks": checked}
    rounds = _("; then ").join(_check(check) for check in status.checks)
    checked = _("we checked again %(rounds)s") % {"rounds": rounds}
    if status.status == STATUS_HELD:
        after = _("A weaker habit may still be there.")
    else:
        after = _("A check at least %(days)d days after the first is still to come.") % {
            "days": HELD_MIN_DAYS
        }
    return _("%(status)s: %(checks)s. %(after)s") % {
        "status": label,
        "checks": checked,
        "after": after,
    }


def low_accuracy_meaning() -> str:
    """Say what "low accuracy" means for a teacher: the mark and the claims it needs."""
    return _(
        "Fewer than %(mark)s of their first claims of a turn right (counted from %(min)d "
        "claims in the evidence window), and no kind of mistake “likely”: a need too, not a "
        "diagnosis. Go back over equal fractions with them, on a number line or with fraction "
        "strips, and watch which cards they choose."
    ) % {"mark": percent(LOW_ACCURACY_BELOW, 0), "min": LOW_ACCURACY_MIN_CLAIMS}


def low_accuracy_figures(need: LowAccuracy) -> str:
    """Write the figures of one child's low accuracy ("6 right of 20 first claims, 30 %")."""
    return ngettext(
        "%(right)d right of %(claims)d first claim, %(share)s",
        "%(right)d right of %(claims)d first claims, %(share)s",
        need.claims,
    ) % {"right": need.right, "claims": need.claims, "share": percent(need.share, 0)}


def low_accuracy_family(need: LowAccuracy, days: int) -> str:
    """Say a child's low accuracy to the family: the figures, no cause, what helps."""
    return ngettext(
        "In the %(days)d day up to the class's last game, %(right)d of %(claims)d first tries "
        "were right (%(share)s), fewer than %(mark)s. No single kind of mistake stands out: "
        "going back over equal fractions together will help.",
        "In the %(days)d days up to the class's last game, %(right)d of %(claims)d first tries "
        "were right (%(share)s), fewer than %(mark)s. No single kind of mistake stands out: "
        "going back over equal fractions together will help.",
        days,
    ) % {
        "days": days,
        "right": need.right,
        "claims": need.claims,
        "share": percent(need.share, 0),
        "mark": percent(LOW_ACCURACY_BELOW, 0),
    }
