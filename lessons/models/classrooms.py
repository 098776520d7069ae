"""A teacher's class and its students: names, PINs and lock state."""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: a join code is read aloud and copied from a whiteboard.
JOIN_CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
JOIN_CODE_LENGTH = 6
DISPLAY_NAME_MAX_LENGTH = 40
CLASSROOM_NAME_MAX_LENGTH = 80
GRADE_MAX_LENGTH = 20


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
            # An archived class starts one new year's class (school.class_years).
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
