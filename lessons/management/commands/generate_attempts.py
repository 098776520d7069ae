"""Fill the attempt log with simulated classes, fast (for the dashboard scale benchmark)."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from lessons.classrooms.services import join_code_generate
from lessons.demo.history import (
    PlannedSession,
    PlayPool,
    Row,
    insert_rows,
    row_time,
    session_moment,
    session_rows,
)
from lessons.demo.simulate import PROFILES
from lessons.models import Attempt, Classroom, ClassSession, MissedEquivalence, Student, User

PREFIX = "bench"


class Command(BaseCommand):
    help = (
        "Create simulated classes (teacher, students, a year of sessions) and about "
        "--attempts judged plays per student. Students cannot sign in (no PIN)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--classes", type=int, default=30)
        parser.add_argument("--students", type=int, default=30, help="students per class")
        parser.add_argument("--attempts", type=int, default=1100, help="plays per student")
        parser.add_argument("--sessions", type=int, default=40, help="sessions per class")
        parser.add_argument("--days", type=int, default=365, help="span of the history")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pool", type=int, default=600, help="pre-tagged plays per error type to draw from"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = {k: options[k] for k in ("classes", "students", "attempts", "sessions", "days")}
        counts_checked = {**counts, "pool": options["pool"]}
        for name, value in counts_checked.items():
            if value < 1:
                raise CommandError(f"--{name} must be at least 1 (got {value}).")
        if options["students"] > 100:
            raise CommandError("--students: a class holds at most 100 students.")
        started = time.monotonic()
        if connection.vendor == "sqlite" and not connection.in_atomic_block:
            # Generated data can be regenerated: skip the fsyncs that dominate bulk inserts.
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA synchronous=OFF")
        rng = random.Random(options["seed"])
        pool = PlayPool.build(rng, size=options["pool"])
        attempt_rows: list[Row] = []
        miss_rows: list[Row] = []
        with transaction.atomic():
            for _index in range(options["classes"]):
                rows, misses = self._one_class(rng, pool, **counts)
                attempt_rows.extend(rows)
                miss_rows.extend(misses)
            # Stored in time order across classes, as a live server writes them: each class's
            # rows end up spread over the table, which is what the dashboards must cope with.
            attempt_rows.sort(key=row_time)
            miss_rows.sort(key=row_time)
            insert_rows(Attempt, attempt_rows)
            insert_rows(MissedEquivalence, miss_rows)
        total = len(attempt_rows)
        elapsed = time.monotonic() - started
        self.stdout.write(f"Generated {total} attempts in {elapsed:.1f} s.")

    def _one_class(
        self,
        rng: random.Random,
        pool: PlayPool,
        *,
        classes: int,
        students: int,
        attempts: int,
        sessions: int,
        days: int,
    ) -> tuple[list[Row], list[Row]]:
        """Create one class, its students and sessions; return its attempt and miss rows."""
        number = User.objects.filter(username__startswith=f"{PREFIX}-teacher-").count() + 1
        teacher = User.objects.create(
            username=f"{PREFIX}-teacher-{number}", role=User.Role.TEACHER, password="!"
        )
        code = join_code_generate()
        while Classroom.objects.filter(join_code=code).exists():
            code = join_code_generate()
        classroom = Classroom.objects.create(
            teacher=teacher, name=f"Classe {number}", grade="CM2", language="fr", join_code=code
        )
        users = User.objects.bulk_create(
            User(username=f"{PREFIX}-{number}-{i}", role=User.Role.STUDENT, password="!")
            for i in range(students)
        )
        roster = Student.objects.bulk_create(
            Student(user=user, classroom=classroom, display_name=f"Élève {i + 1:02d}", pin_hash="!")
            for i, user in enumerate(users)
        )
        profiles = list(PROFILES)
        cast = [(student, rng.choice(profiles)) for student in roster]
        now = timezone.now()
        first = now - timedelta(days=days)
        step = timedelta(days=days) / sessions
        planned = []
        for index in range(sessions):
            start = session_moment(first + step * index, rng)
            if start > now:
                start = now - timedelta(hours=2)
            planned.append(
                ClassSession(
                    classroom=classroom,
                    status=ClassSession.Status.ENDED,
                    started_at=start,
                    ended_at=start + timedelta(minutes=45),
                )
            )
        created = ClassSession.objects.bulk_create(planned)
        per_session = max(1, round(attempts / sessions))
        attempt_rows: list[Row] = []
        miss_rows: list[Row] = []
        for index, session in enumerate(created):
            plan = PlannedSession(session, cast, per_session, progress=index / sessions)
            rows, misses = session_rows(plan, rng, pool)
            attempt_rows.extend(rows)
            miss_rows.extend(misses)
        return attempt_rows, miss_rows
