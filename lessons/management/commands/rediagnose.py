"""Re-run the diagnosis over the stored attempt log after a change of the rules."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from lessons.attempts.log import attempt_figures
from lessons.diagnosis import RULE_IDS, RULES_VERSION, diagnose
from lessons.evidence.loading import by_student, student_rows, turns_of
from lessons.models import Attempt, Classroom

BATCH = 1000
FIGURES = ("tags", "p0", "opportunities", "skills")


class Command(BaseCommand):
    help = (
        "Re-run the diagnosis over the stored attempt log after a rules change. Statuses are "
        "never stored: every dashboard, report and export computes them on read with "
        "lessons.diagnosis.diagnose() from each attempt's turn, top card, hand, card played, "
        "claim and reason, so a change of the status model shows at once. What is stored is "
        "what the classifier gave each attempt when it was logged: its tags, chance rates (p0), "
        "opportunities, skills and rules version. This command recomputes those from the "
        "stored play and hand with the current rules, saves the attempts whose figures "
        "changed under the current RULES_VERSION, then runs diagnose() over every student's "
        "log and prints how many students each rule has per status."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--classroom", type=int, help="only this classroom (id)")
        parser.add_argument(
            "--dry-run", action="store_true", help="count what would change, save nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        query = Attempt.objects.order_by("id")
        if options["classroom"] is not None:
            if not Classroom.objects.filter(pk=options["classroom"]).exists():
                raise CommandError(f"no classroom {options['classroom']}")
            query = query.filter(classroom_id=options["classroom"])
        changed = seen = 0
        batch: list[Attempt] = []
        fields = [*FIGURES, "rules_version"]
        for attempt in query.iterator(chunk_size=BATCH):
            seen += 1
            if self._refresh(attempt):
                changed += 1
                batch.append(attempt)
            if len(batch) >= BATCH:
                self._save(batch, fields, options["dry_run"])
                batch = []
        self._save(batch, fields, options["dry_run"])
        verb = "would change" if options["dry_run"] else "changed"
        self.stdout.write(f"{seen} attempts read, {verb} {changed} (rules {RULES_VERSION})")
        self._statuses(query)

    def _refresh(self, attempt: Attempt) -> bool:
        """Recompute the classifier's figures of one attempt; tell whether they changed."""
        reference = (
            (attempt.reference_num, attempt.reference_den)
            if attempt.reference_num is not None and attempt.reference_den is not None
            else None
        )
        wrong = attempt.outcome == Attempt.Outcome.WRONG
        tags, p0, opportunities, skills = attempt_figures(
            reference,
            int(attempt.named_denominator or 0),
            (attempt.played_num, attempt.played_den),
            attempt.claim,
            list(attempt.hand or []),
            wrong,
        )
        new = {"tags": tags if wrong else [], "p0": p0, "opportunities": opportunities}
        new["skills"] = skills
        if all(getattr(attempt, name) == value for name, value in new.items()):
            return False
        for name, value in new.items():
            setattr(attempt, name, value)
        attempt.rules_version = RULES_VERSION
        return True

    def _save(self, batch: list[Attempt], fields: list[str], dry_run: bool) -> None:
        if batch and not dry_run:
            with transaction.atomic():
                Attempt.objects.bulk_update(batch, fields)

    def _statuses(self, query: Any) -> None:
        """Diagnose every student's whole log and print the students per rule and status."""
        students = query.values_list("student_id", flat=True).distinct().order_by()
        counts: dict[str, Counter[str]] = {rule: Counter() for rule in RULE_IDS}
        for student_id in sorted(set(students)):
            rows = by_student(student_rows(student_id)).get(student_id, [])
            result = diagnose(turns_of(rows))
            for rule in RULE_IDS:
                counts[rule][str(result[rule]["status"])] += 1
        for rule in RULE_IDS:
            shown = ", ".join(f"{status} {n}" for status, n in sorted(counts[rule].items()))
            self.stdout.write(f"{rule}: {shown}")
