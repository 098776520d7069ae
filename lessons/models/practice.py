"""Practice against robots: what a teacher assigns and the tables a student plays."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User
from lessons.models.classrooms import Classroom, Student


class PracticeAssignment(models.Model):
    """Practice a teacher assigns: N games of Uno Fractions against robots before a date."""

    classroom = models.ForeignKey(
        Classroom,
        on_delete=models.CASCADE,
        related_name="practice_assignments",
        verbose_name=_("classroom"),
    )
    # None chosen: the whole class (its present students, also those who join later).
    students = models.ManyToManyField(
        Student, blank=True, related_name="practice_assignments", verbose_name=_("students")
    )
    games = models.PositiveSmallIntegerField(_("games to play"))
    deck = models.CharField(_("deck"), max_length=12)
    # The last day the games count (inclusive, in the school's time zone).
    due_on = models.DateField(_("due on"))
    created_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # Each student answers a warm-up round (lessons.warmup) before their first game.
    warmup = models.BooleanField(_("warm-up round first"), default=False, db_default=False)
    # At most one game a day counts (a group plan's games: spaced practice).
    one_a_day = models.BooleanField(_("one game a day"), default=False, db_default=False)
    # Pictures of the fractions on the cards ("bar", "line"; "": none), fading after a few right
    # plays (lessons.attempts.pictures). Practice only: a class session's cards never show them.
    pictures = models.CharField(
        _("pictures of fractions"), max_length=4, blank=True, default="", db_default=""
    )

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = _("practice assignment")
        verbose_name_plural = _("practice assignments")


class PracticeTable(models.Model):
    """A practice table a student started for an assignment (the games app knows nothing of it)."""

    assignment = models.ForeignKey(
        PracticeAssignment,
        on_delete=models.CASCADE,
        related_name="tables",
        verbose_name=_("practice assignment"),
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="+", verbose_name=_("student")
    )
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="practice_assignment",
        verbose_name=_("table"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("assigned practice table")
        verbose_name_plural = _("assigned practice tables")
        indexes = [
            models.Index(fields=["assignment", "student"], name="practice_table_assignment"),
        ]
