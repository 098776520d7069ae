"""A class with real plays: a table, its events, attempts, a missed equivalence, a session."""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.db import models

from games.models import Table
from games.services import SeatSpec, table_act, table_create
from lessons.models import ClassSession, MissedEquivalence, SessionMember, SessionTable
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP


def plays_make(world: ClassWorld) -> Table:
    """Seat both pupils of the class at a table of a class session; one plays a fraction."""
    pupils = [world.student, world.other_student]
    seats = [SeatSpec(name=p.student.display_name, user_id=p.user.pk) for p in pupils]
    table = table_create(ruleset="fractions", seats=seats, seed=7, setup=FRACTIONS_SETUP)
    session = ClassSession.objects.create(classroom=world.classroom)
    session_table = SessionTable.objects.create(session=session, table=table, number=1)
    for pupil in pupils:
        SessionMember.objects.create(session=session, student=pupil.student, table=session_table)
    table.refresh_from_db()
    # Seat 1 plays 4/12 on 1/3 (an attempt and a table event).
    table_act(
        table_id=table.pk,
        user=world.other_student.user,
        action={"type": "play", "card": "4/12j", "claim": "equal"},
        state_id=table.state_id,
    )
    for pupil in pupils:
        MissedEquivalence.objects.create(
            classroom=world.classroom,
            student=pupil.student,
            table=table,
            reference="1/3",
            equal_cards=["2/6"],
            rules_version="test",
        )
    return table


def texts_with(needle: str) -> list[str]:
    """Return 'model.field' of every stored text, char or JSON value that contains `needle`."""
    found = []
    for model in apps.get_models():
        fields = [
            field
            for field in model._meta.concrete_fields
            if isinstance(field, models.CharField | models.TextField | models.JSONField)
        ]
        for field in fields:
            for value in model._default_manager.values_list(field.attname, flat=True):
                text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                if needle in text:
                    found.append(f"{model._meta.label}.{field.name}")
    return found


def row_counts(*querysets: Any) -> list[int]:
    """Return how many rows each queryset holds (to show other rows were left alone)."""
    return [queryset.count() for queryset in querysets]
