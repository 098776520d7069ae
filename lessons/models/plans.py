"""A plan for a misconception group: a teacher-led activity, three aimed games, a re-check."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User
from lessons.models.classrooms import Classroom, Student
from lessons.models.practice import PracticeAssignment
from lessons.models.warmup import WarmupRound


class GroupPlan(models.Model):
    """What a teacher plans for the children likely to hold one misconception (lessons.plans).

    The activity is led by the teacher (15-20 minutes); the three practice games are an
    assignment played at most one a day; the re-check is a warm-up round each member may
    start from `recheck_on`, at least a week after the last game.
    """

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="plans", verbose_name=_("classroom")
    )
    rule = models.CharField(_("misconception"), max_length=8)
    activity = models.CharField(_("activity"), max_length=20)
    members: models.ManyToManyField[Student, PlanMember] = models.ManyToManyField(
        Student, through="PlanMember", related_name="plans", verbose_name=_("children")
    )
    deck = models.CharField(_("deck"), max_length=12, default="full")
    # The days the three games are planned for (the last is the assignment's due date).
    game1_on = models.DateField(_("first game"))
    game2_on = models.DateField(_("second game"))
    game3_on = models.DateField(_("third game"))
    recheck_on = models.DateField(_("re-check"))
    # The day the teacher did the activity with the group (None: not yet).
    activity_done_on = models.DateField(_("activity done on"), null=True, blank=True)
    # The day the group was found: the first wrong claim fitting the rule among its members.
    found_on = models.DateField(_("found on"), null=True, blank=True)
    assignment = models.OneToOneField(
        PracticeAssignment,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="group_plan",
        verbose_name=_("practice assignment"),
    )
    created_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("group plan")
        verbose_name_plural = _("group plans")
        indexes = [models.Index(fields=["classroom", "rule"], name="plan_classroom_rule")]

    @property
    def game_dates(self) -> tuple[object, object, object]:
        """Return the three game days, in order."""
        return (self.game1_on, self.game2_on, self.game3_on)


class PlanMember(models.Model):
    """A child of a plan, and the re-check round they started from it (None: not yet)."""

    plan = models.ForeignKey(
        GroupPlan, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("plan")
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="+", verbose_name=_("student")
    )
    recheck = models.ForeignKey(
        WarmupRound,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("re-check round"),
    )

    class Meta:
        ordering = ["id"]
        verbose_name = _("plan member")
        verbose_name_plural = _("plan members")
        constraints = [models.UniqueConstraint(fields=["plan", "student"], name="plan_member_once")]
