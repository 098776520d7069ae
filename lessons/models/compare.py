"""The compare question after a refused trap at a practice table, and the child's answer."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.attempts import Attempt
from lessons.models.classrooms import Student


class CompareAnswer(models.Model):
    """What the play page asked after a refused trap ("Which one is at the same place as the
    pile's card?") and what the child tapped (lessons.attempts.compare_prompt).

    Written when the question is shown, so a question dismissed without an answer is logged
    too. Never evidence: lessons.diagnosis and the reports read attempts, never this table.
    """

    class Variant(models.TextChoices):
        EQUAL_FIRST = "equal_first", _("the equal fraction first")
        PLAYED_FIRST = "played_first", _("the played fraction first")

    attempt = models.OneToOneField(
        Attempt, on_delete=models.CASCADE, related_name="compare", verbose_name=_("attempt")
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="+", verbose_name=_("student")
    )
    variant = models.CharField(_("variant shown"), max_length=16, choices=Variant.choices)
    # The two fractions offered, in the order shown ("a/b"): the played one and an equal one.
    choices = models.JSONField(_("choices shown"), default=list)
    equal = models.CharField(_("the equal fraction"), max_length=12)
    shown_at = models.DateTimeField(_("shown at"), default=timezone.now)
    # The fraction tapped (None: not answered, or closed without an answer).
    answer = models.CharField(_("answer"), max_length=12, null=True, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        ordering = ["shown_at", "id"]
        verbose_name = _("compare answer")
        verbose_name_plural = _("compare answers")

    @property
    def right(self) -> bool | None:
        """Tell whether the tapped fraction was the equal one (None: not answered)."""
        return None if self.answer is None else self.answer == self.equal
