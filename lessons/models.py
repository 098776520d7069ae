"""Teachers, classrooms and students: who plays, and in which class."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: a join code is read aloud and copied from a whiteboard.
JOIN_CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
JOIN_CODE_LENGTH = 6
DISPLAY_NAME_MAX_LENGTH = 40
CLASSROOM_NAME_MAX_LENGTH = 80
GRADE_MAX_LENGTH = 20


class User(AbstractUser):
    """A person who signs in: a teacher (password) or a student (class code + PIN)."""

    class Role(models.TextChoices):
        TEACHER = "teacher", _("Teacher")
        STUDENT = "student", _("Student")

    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.TEACHER)

    @property
    def is_teacher(self) -> bool:
        """Tell whether this user is a teacher."""
        return self.role == self.Role.TEACHER

    @property
    def is_student(self) -> bool:
        """Tell whether this user is a student."""
        return self.role == self.Role.STUDENT


class Classroom(models.Model):
    """A teacher's class; students join it with its code."""

    class Language(models.TextChoices):
        FR = "fr", _("French")
        EN = "en", _("English")

    teacher = models.ForeignKey(
        User,
        on_delete=models.CASCADE,
        related_name="classrooms",
        limit_choices_to={"role": User.Role.TEACHER},
        verbose_name=_("teacher"),
    )
    name = models.CharField(_("name"), max_length=CLASSROOM_NAME_MAX_LENGTH)
    grade = models.CharField(_("grade"), max_length=GRADE_MAX_LENGTH, blank=True)
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.FR
    )
    join_code = models.CharField(_("join code"), max_length=JOIN_CODE_LENGTH, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # Teachers who see and run everything of the class but may not archive or delete it.
    co_teachers = models.ManyToManyField(
        User,
        blank=True,
        related_name="co_taught_classrooms",
        limit_choices_to={"role": User.Role.TEACHER},
        verbose_name=_("co-teachers"),
    )
    # An archived class is read-only: off the home page, its dashboards and reports still open.
    archived_at = models.DateTimeField(_("archived at"), null=True, blank=True)
    # The archived class whose roster started this one (a new school year).
    previous = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("previous year's class"),
    )
    # Set once the retention period is over and its pupils' data were erased or pseudonymised.
    purged_at = models.DateTimeField(_("pupils' data erased at"), null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("classroom")
        verbose_name_plural = _("classrooms")
        constraints = [
            # An archived class starts one new year's class (school_year.classroom_new_year).
            models.UniqueConstraint(fields=["previous"], name="classroom_one_new_year"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        """Tell whether the class is archived (read-only)."""
        return self.archived_at is not None


class Student(models.Model):
    """A student's place in a classroom: display name, hashed PIN and lock state."""

    user = models.OneToOneField(
        User, on_delete=models.CASCADE, related_name="student", verbose_name=_("user")
    )
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="students", verbose_name=_("classroom")
    )
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX_LENGTH)
    pin_hash = models.CharField(_("PIN (hashed)"), max_length=128)
    failed_attempts = models.PositiveSmallIntegerField(_("failed attempts"), default=0)
    locked_until = models.DateTimeField(_("locked until"), null=True, blank=True)
    # Set when the student was removed but kept, pseudonymised, for the class's statistics:
    # the name is replaced, the PIN and the sign-in account are gone.
    pseudonymised_at = models.DateTimeField(_("pseudonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["display_name", "id"]
        verbose_name = _("student")
        verbose_name_plural = _("students")
        constraints = [
            models.UniqueConstraint(
                fields=["classroom", "display_name"], name="student_name_unique_in_classroom"
            )
        ]

    def __str__(self) -> str:
        return self.display_name

    def is_locked(self, *, now: datetime | None = None) -> bool:
        """Tell whether too many wrong PINs keep this student out right now."""
        moment = now or timezone.now()
        return self.locked_until is not None and self.locked_until > moment


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
    number = models.PositiveSmallIntegerField(_("table number"))

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("session table")
        verbose_name_plural = _("session tables")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="session_table_number")
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


class SeatStudent(models.Model):
    """The attempt log's facts about a seat a student holds: who, in which class and session.

    Written by the services that seat and move students (lessons.sessions.services,
    lessons.classrooms.student_changes) and, for a seat no service wrote, on its first judged
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


class SchoolPolicy(models.Model):
    """The school's data choices, one row per server (one server serves one school)."""

    retention_months = models.PositiveSmallIntegerField(
        _("months pupils' data are kept after a class is archived or its school year ends"),
        default=3,
    )
    keep_pseudonymised = models.BooleanField(
        _("keep plays pseudonymised for research when the retention period ends"),
        default=False,
    )

    class Meta:
        verbose_name = _("school policy")
        verbose_name_plural = _("school policies")


class TeacherInvitation(models.Model):
    """A one-use sign-up link a school admin gives a new teacher."""

    token = models.CharField(_("token"), max_length=64, unique=True)
    note = models.CharField(_("for whom"), max_length=80, blank=True)
    created_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("teacher invitation")
        verbose_name_plural = _("teacher invitations")


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


# --- Sign-in through the school's ENT (CAS): see lessons/ent/ and docs/deploy.md ---------------

ENT_ATTRIBUTE_MAX_LENGTH = 64
ENT_EXTERNAL_ID_MAX_LENGTH = 255


class EntConnector(models.Model):
    """One CAS server of an ENT the school admin added on /school/ (one per ENT, several allowed).

    The attribute names and role values say how this ENT's answer reads: the presets fill them
    for the Édifice/ONE shape and the GAR's shape, and "custom" lets the admin write them.
    """

    class Protocol(models.IntegerChoices):
        CAS2 = 2, _("CAS 2.0")
        CAS3 = 3, _("CAS 3.0")

    class Preset(models.TextChoices):
        EDIFICE = "edifice", _("Édifice / ONE / Open ENT NG")
        GAR = "gar", _("GAR (CAS 3.0)")
        CUSTOM = "custom", _("Custom")

    name = models.CharField(_("name"), max_length=80)
    # The CAS server's base URL (…/cas/): login, serviceValidate and logout hang under it.
    server_url = models.URLField(_("CAS server URL"), max_length=200)
    protocol = models.PositiveSmallIntegerField(
        _("CAS protocol"), choices=Protocol.choices, default=Protocol.CAS3
    )
    preset = models.CharField(
        _("preset"), max_length=10, choices=Preset.choices, default=Preset.EDIFICE
    )
    id_attribute = models.CharField(_("id attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH)
    name_attribute = models.CharField(
        _("display name attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    role_attribute = models.CharField(_("role attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH)
    classes_attribute = models.CharField(
        _("classes attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    school_attribute = models.CharField(
        _("school (UAI) attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    # Comma-separated role values: an ENT user whose role is in neither list is refused.
    teacher_roles = models.CharField(_("role values of teachers"), max_length=200)
    pupil_roles = models.CharField(_("role values of pupils"), max_length=200)
    # The school's UAI: when set, a user of another school on the same ENT is refused.
    school_uai = models.CharField(_("school UAI"), max_length=8, blank=True)
    # The admin's choice: may an ENT teacher with no unoclass account get a new one?
    creates_teachers = models.BooleanField(
        _("create an account for an unknown ENT teacher"), default=False
    )
    enabled = models.BooleanField(_("enabled"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("ENT connector")
        verbose_name_plural = _("ENT connectors")

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def split_roles(text: str) -> frozenset[str]:
        """Return the role values of a comma-separated list, blanks dropped."""
        return frozenset(part.strip() for part in text.split(",") if part.strip())

    @property
    def teacher_role_values(self) -> frozenset[str]:
        """Return the role values that make an ENT user a teacher here."""
        return self.split_roles(self.teacher_roles)

    @property
    def pupil_role_values(self) -> frozenset[str]:
        """Return the role values that make an ENT user a pupil here."""
        return self.split_roles(self.pupil_roles)


class EntIdentity(models.Model):
    """The link of one ENT account (its opaque id on one connector) to one unoclass user.

    Only the id is kept: the ENT's name, classes and role are read at each sign-in and never
    stored for a linked user. Erasing the user erases the link (CASCADE).
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="identities")
    external_id = models.CharField(_("ENT id"), max_length=ENT_EXTERNAL_ID_MAX_LENGTH)
    user = models.OneToOneField(
        User, on_delete=models.CASCADE, related_name="ent_identity", verbose_name=_("user")
    )
    linked_at = models.DateTimeField(_("linked at"), default=timezone.now)
    # The teacher who matched a pupil; None when the user linked themself (password once).
    linked_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("linked by"),
    )

    class Meta:
        verbose_name = _("ENT link")
        verbose_name_plural = _("ENT links")
        constraints = [
            models.UniqueConstraint(
                fields=["connector", "external_id"], name="ent_identity_unique_per_connector"
            )
        ]


class EntSeenPupil(models.Model):
    """A pupil who signed in through the ENT but is linked to no pupil yet: what the teacher's
    matching screen shows. Kept ENT_SEEN_RETENTION_DAYS after the last sign-in, then purged;
    deleted as soon as the pupil is linked.
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="seen")
    external_id = models.CharField(_("ENT id"), max_length=ENT_EXTERNAL_ID_MAX_LENGTH)
    display_name = models.CharField(_("name in the ENT"), max_length=150)
    # The ENT's class names, as a list of strings.
    classes = models.JSONField(_("classes in the ENT"), default=list, blank=True)
    seen_at = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        ordering = ["display_name", "id"]
        verbose_name = _("ENT pupil not yet linked")
        verbose_name_plural = _("ENT pupils not yet linked")
        constraints = [
            models.UniqueConstraint(
                fields=["connector", "external_id"], name="ent_seen_unique_per_connector"
            )
        ]


ENT_SEEN_RETENTION_DAYS = 30


class EntSignIn(models.Model):
    """One service ticket used to sign in: refused if used again, and mapped to the Django
    session it opened, so that the ENT's single sign-out can end that session.

    Only a SHA-256 of the ticket is kept; rows older than SESSION_COOKIE_AGE are purged.
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="+")
    ticket_hash = models.CharField(_("ticket (SHA-256)"), max_length=64, unique=True)
    user = models.ForeignKey(
        User, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    session_key = models.CharField(_("session key"), max_length=40, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("ENT sign-in")
        verbose_name_plural = _("ENT sign-ins")
        indexes = [models.Index(fields=["created_at"], name="ent_signin_time")]


# --- ENT pupils: which ENT classes a class is, and who linked or unlinked a pupil -------------

ENT_CLASS_NAME_MAX_LENGTH = 100


class EntClassName(models.Model):
    """An ENT class name a teacher said is this class: its unlinked ENT pupils are offered
    on the class's matching screen (besides the ENT classes named like the class itself).
    """

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="ent_class_names"
    )
    name = models.CharField(_("class name in the ENT"), max_length=ENT_CLASS_NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("ENT class name")
        verbose_name_plural = _("ENT class names")
        constraints = [
            models.UniqueConstraint(fields=["classroom", "name"], name="ent_class_name_unique")
        ]


class EntLinkEvent(models.Model):
    """Who linked or unlinked a pupil's ENT account, and when (the matching screen's audit).

    Holds no ENT id or ENT name: erasing the pupil erases their events (CASCADE).
    """

    class Action(models.TextChoices):
        LINKED = "linked", _("linked")
        IMPORTED = "imported", _("linked by a class list file")
        CARRIED = "carried", _("carried over from last year's class")
        UNLINKED = "unlinked", _("unlinked")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="ent_events")
    by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("ENT link event")
        verbose_name_plural = _("ENT link events")
