"""The attempt log: every judged fraction play and the equivalences a student missed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.classrooms import Classroom, Student
from lessons.models.sessions import ClassSession


class SeatStudent(models.Model):
    """The attempt log's facts about a seat a student holds: who, in which class and session.

    Written by the services that seat and move students (lessons.sessions.services,
    lessons.pupils.changes) and, for a seat no service wrote, on its first judged
    play; read with the seats by the table lock (games.store), so a move reads no lessons row.
    """

    seat = models.OneToOneField(
        "games.Seat",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("seat"),
    )
    # The seat's player when this was written: a row whose user no longer holds the seat is
    # stale (the attempt log writes it again).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="+", verbose_name=_("student")
    )
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="+", verbose_name=_("classroom")
    )
    session = models.ForeignKey(
        ClassSession,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("session"),
    )
    # The student's turn still open at the table (Attempt.turn of a refused play no accepted
    # play has ended yet), or None.
    open_turn = models.PositiveIntegerField(_("open turn"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat's student")
        verbose_name_plural = _("seats' students")

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.student_id}"


class Attempt(models.Model):
    """One judged fraction play: the evidence every dashboard and report is built from.

    A warm-up answer (source "probe", lessons.warmup) is an attempt too: an "equal" claim on
    a designed item, with the options shown as its hand, no table and its round in `warmup`.
    """

    class Source(models.TextChoices):
        GAME = "game", _("game")
        PROBE = "probe", _("warm-up")

    class Claim(models.TextChoices):
        EQUAL = "equal", _("equal fraction")
        DENOMINATOR = "denominator", _("same denominator")

    class ClaimSource(models.TextChoices):
        ASKED = "asked", _("asked")
        INFERRED = "inferred", _("inferred")

    class Outcome(models.TextChoices):
        EQUAL = "equal", _("equal ✓")
        DENOMINATOR = "denominator", _("denominator ✓")
        WRONG = "wrong", _("wrong")

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("classroom")
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("student")
    )
    session = models.ForeignKey(
        ClassSession,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="attempts",
        verbose_name=_("session"),
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)
    # The reference fraction (None after a +2/Joker/+4 named a denominator).
    reference_num = models.PositiveSmallIntegerField(_("reference numerator"), null=True)
    reference_den = models.PositiveSmallIntegerField(_("reference denominator"), null=True)
    named_denominator = models.PositiveSmallIntegerField(_("named denominator"), null=True)
    played_num = models.PositiveSmallIntegerField(_("played numerator"))
    played_den = models.PositiveSmallIntegerField(_("played denominator"))
    card = models.CharField(_("card"), max_length=12)
    claim = models.CharField(_("claimed rule"), max_length=12, choices=Claim.choices)
    claim_source = models.CharField(
        _("claim"), max_length=10, choices=ClaimSource.choices, default=ClaimSource.INFERRED
    )
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices)
    # Every misconception ID that fits (M0–M10, M2a, M3a, D1, U); empty for a right play.
    tags = models.JSONField(_("misconceptions"), default=list, blank=True)
    # Chance rate of each rule from this hand, and the rules that could have fired.
    p0 = models.JSONField(_("chance rates"), default=dict, blank=True)
    opportunities = models.JSONField(_("rules that could fire"), default=list, blank=True)
    skills = models.JSONField(_("skills"), default=list, blank=True)
    hand = models.JSONField(_("fraction cards in hand"), default=list, blank=True)
    response_ms = models.PositiveIntegerField(_("response time (ms)"), null=True, blank=True)
    rules_version = models.CharField(_("rules version"), max_length=20)
    # The student's turn at the table: the table's stored actions when the turn's first judged
    # play was made (lessons.attempts.log). Attempts of one turn share it; None: not known
    # (generated or older rows: each attempt is then a turn of its own).
    turn = models.PositiveIntegerField(_("turn"), null=True, blank=True)
    # The student's own answer to "Why did you think they were equal?" (a code of
    # lessons.diagnosis.REASONS), set after a wrong "equal" claim through attempt_set_reason.
    reason = models.CharField(_("reason given"), max_length=16, null=True, blank=True)
    # Whether the student drew later in the same turn.
    drew = models.BooleanField(_("drew in this turn"), default=False, db_default=False)
    source = models.CharField(
        _("source"), max_length=8, choices=Source.choices, default=Source.GAME, db_default="game"
    )
    warmup = models.ForeignKey(
        "WarmupRound",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="answers",
        verbose_name=_("warm-up round"),
    )
    # Played while the practice table showed pictures of the fractions (lessons.attempts
    # .pictures): the child may have matched shapes, so it is never diagnosis evidence.
    pictures = models.BooleanField(_("pictures shown"), default=False, db_default=False)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        indexes = [
            models.Index(fields=["classroom", "created_at"], name="attempt_class_time"),
            models.Index(fields=["student", "created_at"], name="attempt_student_time"),
            models.Index(fields=["session", "student"], name="attempt_session_student"),
            models.Index(fields=["table", "student", "turn"], name="attempt_table_turn"),
        ]

    @property
    def correct(self) -> bool:
        """Tell whether the claimed rule was right."""
        return self.outcome != self.Outcome.WRONG


class MissedEquivalence(models.Model):
    """A student drew while holding a fraction equal to the reference (an omission signal)."""

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="+", verbose_name=_("classroom")
    )
    student = models.ForeignKey(
        Student,
        on_delete=models.CASCADE,
        related_name="missed_equivalences",
        verbose_name=_("student"),
    )
    session = models.ForeignKey(
        ClassSession,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="missed_equivalences",
        verbose_name=_("session"),
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)
    reference = models.CharField(_("reference fraction"), max_length=8)
    equal_cards = models.JSONField(_("equal cards held"), default=list)
    rules_version = models.CharField(_("rules version"), max_length=20)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("missed equivalence")
        verbose_name_plural = _("missed equivalences")
        indexes = [
            models.Index(fields=["student", "created_at"], name="missed_student_time"),
        ]
