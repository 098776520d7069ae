"""Create the first school admin (a teacher who manages the school's teachers and data)."""

from __future__ import annotations

import os
from argparse import ArgumentParser
from getpass import getpass
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from lessons.classrooms.services import teacher_create
from lessons.models import User


class Command(BaseCommand):
    """Make a teacher account a school admin, creating it if needed."""

    help = (
        "Create a school admin (or make an existing teacher one). The password comes from "
        "SCHOOL_ADMIN_PASSWORD, else it is asked for."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        """Add the username."""
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        """Create or promote the account."""
        username = str(options["username"])
        user = User.objects.filter(username=username).first()
        if user is not None:
            if not user.is_teacher:
                raise CommandError(f"{username} is a student account.")
        else:
            password = os.environ.get("SCHOOL_ADMIN_PASSWORD") or getpass("Password: ")
            try:
                validate_password(password)
                user = teacher_create(username=username, password=password)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
        User.objects.filter(pk=user.pk).update(is_staff=True, is_active=True)
        self.stdout.write(f"{username} is a school admin: sign in and open /school/.")
