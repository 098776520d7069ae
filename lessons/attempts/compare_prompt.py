"""Ask a child to compare after a refused trap at a practice table, and log the answer.

The table socket calls these through the table host (lessons.attempts.hooks.LessonsHost):
`compare_prompt` when a refusal carries the worked example (practice tables only), and
`compare_answer` when the page answers. After a refused play that fits a misconception (a
trap; "a card that did not fit" is none), the page keeps the example's number line and asks
one question: "Which one is at the same place as the pile's card?", the played fraction and
an equal one (the child's own equal card, else the pile's fraction with twice its parts), in
an order drawn from the table's seed and the attempt (the variant). Then it says the principle
in one sentence. The question is logged when shown (lessons.models.CompareAnswer) and its
answer when tapped; neither is ever evidence: nothing of lessons.diagnosis or the reports
reads that table (tests/lessons/attempts/test_compare_prompt.py checks the diagnosis is the
same with and without the answers).
"""

from __future__ import annotations

import random
from typing import Any, Final

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import TableError
from games.host import NO_COMPARE_ASKED
from games.models import Table
from lessons.models import Attempt, CompareAnswer, Student

# Tags that are no trap: a card that did not fit any habit, a wrong "same denominator".
NOT_TRAPS: Final = frozenset({"U", "D1"})
# The longest fraction text an answer may name ("99/100").
MAX_CHOICE: Final = 12

NOT_A_STUDENT = gettext_lazy("Only a student answers this question.")
UNKNOWN_CHOICE = gettext_lazy("This answer is not one of the choices.")
ALREADY_COMPARED = gettext_lazy("You have already answered this comparison.")


def _student(user: Any) -> Student | None:
    if not getattr(user, "is_student", False):
        return None
    return Student.objects.filter(user_id=user.pk).first()


def _trap(student: Student, table: Table) -> Attempt | None:
    """Return the student's latest attempt at the table if it is a refused trap."""
    latest = Attempt.objects.filter(student=student, table_id=table.pk).order_by("-id").first()
    if (
        latest is None
        or latest.outcome != Attempt.Outcome.WRONG
        or latest.reference_den is None
        or not set(latest.tags or []) - NOT_TRAPS
    ):
        return None
    return latest


def _equal_choice(attempt: Attempt, example: dict[str, Any]) -> str:
    """Return the equal fraction offered: the child's own equal card, else twice the parts."""
    own = example.get("own_card")
    if isinstance(own, dict) and isinstance(own.get("text"), str):
        return str(own["text"])
    return f"{(attempt.reference_num or 0) * 2}/{(attempt.reference_den or 1) * 2}"


def _words(row: CompareAnswer, reference: str, lang: str) -> dict[str, Any]:
    """Return the example's `compare`: question, choices shown, feedback, principle."""
    played = next(text for text in row.choices if text != row.equal)
    values = {"pile": reference, "equal": row.equal, "played": played}
    with translation.override(lang):
        return {
            "question": _("Which one is at the same place as the pile's card?"),
            "choices": [{"text": text} for text in row.choices],
            "equal": row.equal,
            "right": _("Yes: %(equal)s is at the same place as %(pile)s.") % values,
            "wrong": _("No: %(played)s is not at the same place as %(pile)s; %(equal)s is.")
            % values,
            "principle": _("Two equal fractions fall at the same place on the number line."),
        }


def compare_prompt(
    table_id: int, user: Any, example: dict[str, Any], lang: str
) -> dict[str, Any] | None:
    """Return the compare question for the user's refused trap (logged as shown), or None."""
    student = _student(user)
    table = Table.objects.filter(pk=table_id).first()
    if student is None or table is None or table.kind != Table.Kind.PRACTICE:
        return None  # a class session's table never asks
    attempt = _trap(student, table)
    reference = example.get("reference")
    if attempt is None or not isinstance(reference, dict):
        return None
    played = f"{attempt.played_num}/{attempt.played_den}"
    equal = _equal_choice(attempt, example)
    rng = random.Random(f"compare:{table.seed}:{attempt.pk}")
    variant = rng.choice([CompareAnswer.Variant.EQUAL_FIRST, CompareAnswer.Variant.PLAYED_FIRST])
    choices = [equal, played] if variant == CompareAnswer.Variant.EQUAL_FIRST else [played, equal]
    row, _created = CompareAnswer.objects.get_or_create(
        attempt=attempt,
        defaults={"student": student, "variant": variant, "choices": choices, "equal": equal},
    )
    if row.answer is not None:
        return None  # asked and answered already: one extra action at most
    return _words(row, str(reference.get("text", "")), "en" if lang == "en" else "fr")


def compare_answer(table_id: int, user: Any, choice: object) -> None:
    """Log the child's answer to the latest compare question at the table; TableError if not."""
    student = _student(user)
    if student is None:
        raise TableError("not_a_student", NOT_A_STUDENT)
    if not isinstance(choice, str) or not 0 < len(choice) <= MAX_CHOICE:
        raise TableError("unknown_choice", UNKNOWN_CHOICE)
    with transaction.atomic():
        row = (
            CompareAnswer.objects.select_for_update()
            .filter(student=student, attempt__table_id=table_id)
            .order_by("-id")
            .first()
        )
        if row is None:
            raise TableError("no_compare_asked", NO_COMPARE_ASKED)
        if choice not in row.choices:
            raise TableError("unknown_choice", UNKNOWN_CHOICE)
        if row.answer is not None:
            if row.answer == choice:
                return  # the same answer again (a resend on the fallback link)
            raise TableError("already_compared", ALREADY_COMPARED)
        row.answer = choice
        row.answered_at = timezone.now()
        row.save(update_fields=["answer", "answered_at"])


__all__ = ["compare_answer", "compare_prompt"]
