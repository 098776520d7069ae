"""Issue 31 §1.2: the attempts CSV carries each claim's time ("at"), read back offline."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.diagnosis import diagnose, turns_from_csv
from lessons.evidence.loading import statuses_of, student_rows
from lessons.models import Attempt
from lessons.reporting.exports import ATTEMPT_HEADER, pseudonym
from tests.conftest import ClassWorld
from tests.lessons.reporting.test_held_end_to_end import resolved_then_checked
from tests.support.factories import teacher_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db


def _rows(world: ClassWorld, **params: str) -> list[dict[str, str]]:
    client = teacher_client(world.teacher)
    response = client.get(reverse("export_attempts", args=[world.classroom.pk]), params)
    assert response.status_code == 200
    text = body_of(response).decode("utf-8-sig")
    delimiter = ";" if params.get("for") == "spreadsheet" and ";" in text.split("\n")[0] else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def test_the_at_column_is_last_and_is_the_stored_moment_with_its_offset(
    class_a: ClassWorld,
) -> None:
    anais = resolved_then_checked(class_a, days=8)
    # The last attempt column; only the group plans' marker columns come after it (issue 31).
    assert ATTEMPT_HEADER[ATTEMPT_HEADER.index("at") + 1 :] == ("row_kind", "marker", "marker_rule")
    rows = _rows(class_a)
    stored = {a.pk: a.created_at for a in Attempt.objects.filter(student=anais)}
    assert len(rows) == len(stored)
    for row in rows:
        moment = datetime.fromisoformat(row["at"])
        assert moment.utcoffset() is not None
        assert moment == stored[int(row["attempt_id"])]
        assert moment == datetime.fromisoformat(row["timestamp_utc"])
        # Written in the installation's local time, with its offset.
        assert moment.utcoffset() == timezone.localtime(moment).utcoffset()


def test_the_spreadsheet_writes_at_to_the_second_with_its_offset(class_a: ClassWorld) -> None:
    resolved_then_checked(class_a, days=8)
    client = teacher_client(class_a.teacher)
    response = client.get(
        reverse("export_attempts", args=[class_a.classroom.pk]), {"for": "spreadsheet"}
    )
    text = body_of(response).decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text[:200] else ","))
    position = ATTEMPT_HEADER.index("at")  # the group plans' marker columns follow it
    last = [line[position] for line in lines[1:]]
    assert last and all(datetime.fromisoformat(v).utcoffset() is not None for v in last)
    assert all("." not in v for v in last)


def test_the_csv_rediagnosed_offline_says_held_as_the_pupils_page(class_a: ClassWorld) -> None:
    anais = resolved_then_checked(class_a, days=8)
    offline: dict[str, dict[str, Any]] = diagnose(
        turns_from_csv(_rows(class_a))[pseudonym("student", anais.pk)]
    )
    shown = statuses_of(student_rows(anais.pk))["M1"]
    assert shown.status == offline["M1"]["status"] == "held"
    assert [c["offers"] for c in offline["M1"]["checks"]] == [c.offers for c in shown.checks]


def test_an_older_export_without_at_is_read_untimed(class_a: ClassWorld) -> None:
    anais = resolved_then_checked(class_a, days=8)
    rows = [{k: v for k, v in row.items() if k != "at"} for row in _rows(class_a)]
    offline: dict[str, dict[str, Any]] = diagnose(
        turns_from_csv(rows)[pseudonym("student", anais.pk)]
    )
    # Untimed rounds never give held: the habit stays resolved, as before "at" existed.
    assert offline["M1"]["status"] == "resolved"


@pytest.mark.parametrize(
    "bad",
    [
        "yesterday",
        "2026-12-02T09:15:00",  # no offset: 7 days could not be 168 hours
        "2026-12-02",
        "2026-13-02T09:15:00+01:00",
        "2026-12-02T09:15:00\ud800+01:00",  # a lone surrogate
        "\udcff",
        "99999-12-02T09:15:00+01:00",  # a year beyond datetime's
        "2026-12-02T09:15:00+99:00",  # an offset beyond a day
        "2026-12-02T09:15:00+01:00" + "0" * 1_000_000,  # a huge cell
        "9" * 400,
    ],
)
def test_a_bad_at_cell_is_a_clear_error_naming_its_row(class_a: ClassWorld, bad: str) -> None:
    resolved_then_checked(class_a, days=8)
    rows = _rows(class_a)
    rows[3]["at"] = bad
    with pytest.raises(ValueError, match=r"^row 3: 'at' must be an ISO 8601 time") as caught:
        turns_from_csv(rows)
    # The message stays short whatever the cell held.
    assert len(str(caught.value)) < 200
