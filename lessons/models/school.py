"""The school's choices and the teachers it invites."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User


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
