"""Load the demo teacher and classroom, and print how to sign in (safe to run again)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lessons.demo.data import DEMO_TEACHER_PASSWORD, demo_classroom_ensure, demo_history_ensure


class Command(BaseCommand):
    help = "Create or restore the demo teacher and classroom and print their logins."

    def handle(self, *args: Any, **options: Any) -> None:
        demo = demo_classroom_ensure()
        sessions = demo_history_ensure(demo)
        out = self.stdout
        out.write(self.style.SUCCESS("Demo data ready."))
        out.write(f"Teacher sign-in: /login/  username: {demo.teacher.username}")
        out.write(f"                          password: {DEMO_TEACHER_PASSWORD}")
        out.write(f"Class: {demo.classroom.name}  join code: {demo.classroom.join_code}")
        out.write(
            f"{len(sessions)} past sessions played by simulated students; class dashboard: "
            f"/classrooms/{demo.classroom.pk}/dashboard/"
        )
        out.write("Students sign in at /join/ with the code, their name and their PIN:")
        for name, pin in demo.pins.items():
            out.write(f"  {name:<10} {pin}")
