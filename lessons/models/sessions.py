"""A lesson: a class session, its tables and who sits where."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.classrooms import Classroom, Student


class ClassSession(models.Model):
    """A lesson: the teacher's class plays at tables under one set of rules, for a while."""

    class Status(models.TextChoices):
        OPEN = "open", _("In progress")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("classroom")
    )
    ruleset = models.CharField(_("game"), max_length=20, default="fractions")
    options = models.JSONField(_("rule options"), default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=4)
    play_settings = models.JSONField(_("table settings"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # Students answer a warm-up round (lessons.warmup) before they are seated at tables.
    warmup = models.BooleanField(_("warm-up round first"), default=False, db_default=False)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("class session")
        verbose_name_plural = _("class sessions")

    def __str__(self) -> str:
        return f"{self.classroom} {self.started_at:%Y-%m-%d %H:%M}"


class SessionTable(models.Model):
    """A table of a class session (the game itself lives in games.Table)."""

    session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="tables", verbose_name=_("session")
    )
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="lesson_table",
        verbose_name=_("table"),
    )
    # The number the teacher and the children see; the next game of the same children keeps
    # it (1, 2, 3… within a session), `game` telling that table's games apart.
    number = models.PositiveSmallIntegerField(_("table number"))
    game = models.PositiveSmallIntegerField(_("game at this table"), default=1)

    class Meta:
        ordering = ["session", "number", "game"]
        verbose_name = _("session table")
        verbose_name_plural = _("session tables")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number", "game"], name="session_table_number_game"
            )
        ]


class SessionMember(models.Model):
    """A student who joined a class session: seated at a table, or waiting for one."""

    session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="members", verbose_name=_("session")
    )
    student = models.ForeignKey(
        Student,
        on_delete=models.CASCADE,
        related_name="session_memberships",
        verbose_name=_("student"),
    )
    table = models.ForeignKey(
        SessionTable,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("table"),
    )
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        ordering = ["session", "joined_at", "id"]
        verbose_name = _("session member")
        verbose_name_plural = _("session members")
        constraints = [
            models.UniqueConstraint(fields=["session", "student"], name="session_member_unique")
        ]
