#!/usr/bin/env python
"""Run Django's command-line utility for unoclass."""

import os
import sys


def main() -> None:
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoclass.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as missing:
        # The environment lacks a setting (SECRET_KEY without DEBUG, say): say what and how,
        # not a traceback (README, "Running a command").
        sys.stderr.write(
            f"unoclass: {missing}\n"
            "On your own machine run commands as make run does, with DEBUG=1:\n"
            "  DEBUG=1 .venv/bin/python manage.py <command>\n"
            "On a server, run them with the deployment's environment (docs/deploy.md).\n"
        )
        sys.exit(2)


if __name__ == "__main__":
    main()
