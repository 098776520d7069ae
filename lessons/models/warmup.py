"""The warm-up round a class session may open with."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User
from lessons.models.attempts import Attempt
from lessons.models.classrooms import Classroom, Student
from lessons.models.sessions import ClassSession


class WarmupRound(models.Model):
    """One student's warm-up round: designed items answered one by one (lessons.warmup).

    For a class session (before tables are seated), an assignment ("warm-up before Friday")
    or a re-check a teacher asked for. Its answers are attempts (source "probe").
    """

    class Kind(models.TextChoices):
        SESSION = "session", _("class session")
        PRACTICE = "practice", _("assigned")
        RECHECK = "recheck", _("re-check")

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="+", verbose_name=_("classroom")
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="warmups", verbose_name=_("student")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    session = models.ForeignKey(
        ClassSession,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="warmups",
        verbose_name=_("session"),
    )
    assignment = models.ForeignKey(
        "PracticeAssignment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="warmups",
        verbose_name=_("practice assignment"),
    )
    # The deck level whose fractions the items stay within.
    level = models.CharField(_("deck"), max_length=12, default="full")
    seed = models.PositiveIntegerField(_("seed"), default=0)
    due_on = models.DateField(_("due on"), null=True, blank=True)
    created_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # The item on the student's screen ({"reference": "a/b", "options": [...]}), or None.
    item = models.JSONField(_("item shown"), null=True, blank=True)
    # The answer whose reason is asked now (the prompt follows every answer), or None.
    asking = models.ForeignKey(
        Attempt, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered = models.PositiveSmallIntegerField(_("items answered"), default=0)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Set when the round ended before its last item (the teacher seated the class).
    stopped = models.BooleanField(_("stopped early"), default=False)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("warm-up round")
        verbose_name_plural = _("warm-up rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student"],
                condition=models.Q(session__isnull=False),
                name="warmup_session_student",
            )
        ]
        indexes = [models.Index(fields=["student", "created_at"], name="warmup_student_time")]

    @property
    def finished(self) -> bool:
        """Tell whether the round is over."""
        return self.finished_at is not None
