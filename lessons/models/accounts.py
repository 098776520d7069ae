"""Who signs in: a teacher (password) or a student (class code + PIN)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


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
