"""Tables, their seats and their stored actions: everything a live game needs to resume."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Table(models.Model):
    """A game table: a ruleset, its options, its seats and the engine's state."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    class Kind(models.TextChoices):
        PRACTICE = "practice", _("Practice")
        LESSON = "lesson", _("Class session")

    ruleset = models.CharField(_("ruleset"), max_length=20)
    options = models.JSONField(_("options"), default=dict, blank=True)
    play_settings = models.JSONField(
        _("table settings"),
        default=dict,
        blank=True,
        help_text=_("Table-level settings: turn timer, accessible mode, playable hints."),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.PRACTICE)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    seed = models.BigIntegerField(_("seed"))
    setup = models.JSONField(_("scripted setup"), null=True, blank=True)
    state = models.JSONField(_("game state"))
    # state_id counts committed changes (what clients see); moves counts stored actions.
    state_id = models.PositiveIntegerField(_("state number"), default=0)
    moves = models.PositiveIntegerField(_("stored actions"), default=0)
    # When the current human actor's turn timer runs out (None: no timer running).
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # Each seat's last stored action ({"<seat>": TableEvent.seq}), kept with the row a move
    # locks anyway, so a move reads no event to tell whether another seat acted since a
    # given action (the attempt log's turns). Null on a table that did not keep it from its
    # first move: readers then ask the events. Never sent to players.
    last_moves = models.JSONField(_("each seat's last action"), null=True, blank=True)
    # The fraction cards refused to the turn seat at one state, without a wrong-attempt
    # penalty ({"state_id": N, "seat": s, "cards": {card: rules ruled out}}): a refusal changes
    # no state, so the engine's own `refused` (games.engine.game) is kept here until the table
    # moves on (valid only while state_id is N). Never sent to other seats.
    refused = models.JSONField(_("cards refused this turn"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.pk}"

    @property
    def group_name(self) -> str:
        """Name the Channels group of this table (built from the id, never from user text)."""
        return f"table_{self.pk}"


class Seat(models.Model):
    """A seat at a table: a student, a bot, or a student temporarily played by a bot."""

    class Bot(models.TextChoices):
        RANDOM = "random", _("Random bot")
        HEURISTIC = "heuristic", _("Sensible bot")
        STUDENT = "student", _("Student-like bot")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    bot = models.CharField(_("bot"), max_length=20, choices=Bot.choices, blank=True)
    bot_profile = models.JSONField(_("bot error profile"), default=dict, blank=True)
    # A teacher can let a bot play for an absent student, and give the seat back.
    bot_takeover = models.BooleanField(_("played by a bot"), default=False)
    name = models.CharField(_("name"), max_length=60)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_index_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_user_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index} {self.name}"

    @property
    def is_automatic(self) -> bool:
        """Tell whether the server plays this seat."""
        return bool(self.bot) and (self.user_id is None or self.bot_takeover)


class TableEvent(models.Model):
    """One applied action, in order: enough to replay the whole game from its seed."""

    class Actor(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        TIMER = "timer", _("Turn timer")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="events", verbose_name=_("table")
    )
    seq = models.PositiveIntegerField(_("number"))
    # The table's state this action led to (Table.state_id after its commit): a client that
    # missed states is sent the events after the state it has (games.catch_up). One commit may
    # store several actions (a bot's penalised wrong attempt, then its move). None: a row of an
    # older table whose states could not be told from its actions (migration 0003).
    state_id = models.PositiveIntegerField(_("state number"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    actor = models.CharField(_("actor"), max_length=10, choices=Actor.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    action = models.JSONField(_("action"))
    result = models.JSONField(_("events"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        ordering = ["table", "seq"]
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="table_event_seq_unique"),
        ]
