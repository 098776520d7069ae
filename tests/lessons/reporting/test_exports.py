"""The exports: the attempts CSV re-diagnosed offline gives the dashboard's statuses; the
spreadsheet flavour opens in columns in a French spreadsheet; the machine CSV stays stable."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.attempts.reasons import attempt_set_reason
from lessons.diagnosis import RULE_IDS, diagnose, turns_from_csv
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.exports import ATTEMPT_HEADER, STUDENT_HEADER, pseudonym
from tests.conftest import ClassWorld
from tests.games.helpers import make_table
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_attempt, log_plays
from tests.support.factories import teacher_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db

# The columns a researcher's scripts read by position: they never move (new ones go last).
STABLE_PREFIX = (
    "class_id", "student_id", "attempt_id", "timestamp_utc", "session_id", "table_id", "a", "b",
    "named_denominator", "c", "d", "card", "claimed_rule", "claim_source", "outcome", "correct",
    "rt_ms", "hand",
)  # fmt: skip


def _download(world: ClassWorld, name: str, **params: str) -> bytes:
    client = teacher_client(world.teacher)
    response = client.get(reverse(name, args=[world.classroom.pk]), params)
    assert response.status_code == 200
    return body_of(response)


def _play_a_class(world: ClassWorld) -> None:
    """Anaïs: an M1 habit over turns with refused tries, reasons and a draw; Basile: right."""
    anais, basile = world.student.student, world.other_student.student
    table = make_table([world.student.user, world.other_student.user])
    start = timezone.now() - timedelta(hours=2)
    moment = start
    turn = 0
    for reference, played, _claim in M1_PLAYS * 2:
        moment += timedelta(minutes=1)
        wrong = log_attempt(anais, reference, played, at=moment, table=table, turn=turn, drew=True)
        attempt_set_reason(student=anais, attempt_id=wrong.pk, reason="added_same")
        # A probe in the same turn (another card tried), then the draw.
        moment += timedelta(seconds=5)
        log_attempt(anais, reference, (1, 6), at=moment, table=table, turn=turn, drew=True)
        turn += 3
    log_plays(basile, RIGHT_PLAYS + M1_PLAYS[:1])
    log_attempt(anais, None, (5, 6), "denominator", named_denominator=12, table=table, turn=99)


def test_the_attempts_csv_rediagnosed_offline_gives_the_dashboards_statuses(
    class_a: ClassWorld,
) -> None:
    _play_a_class(class_a)
    rows = list(csv.DictReader(io.StringIO(_download(class_a, "export_attempts").decode())))
    offline = {student: diagnose(turns) for student, turns in turns_from_csv(rows).items()}

    dash = class_dashboard(class_a.classroom)
    shown = {
        pseudonym("student", line.student.pk): {
            rule: (status.status, status.k, status.n, status.reasons)
            for rule, status in line.evidence.items()
        }
        for line in dash.lines
    }
    assert set(offline) == set(shown)
    for student, result in offline.items():
        assert {
            rule: (f["status"], f["k"], f["n"], f["reasons"]) for rule, f in result.items()
        } == shown[student]
    anais = pseudonym("student", class_a.student.student.pk)
    assert shown[anais]["M1"][0] == "likely" and shown[anais]["M1"][3] == 8
    # The probes (1/6 after each M1 card) are in the CSV but never weigh.
    assert sum(1 for row in rows if row["student_id"] == anais) == 17
    assert offline[anais]["M1"]["k"] == 8 and offline[anais]["M1"]["probes"] == 0


def test_the_machine_csv_keeps_its_columns_and_adds_the_turn_at_the_end(
    class_a: ClassWorld,
) -> None:
    _play_a_class(class_a)
    data = _download(class_a, "export_attempts")
    assert not data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode())))
    assert tuple(rows[0][: len(STABLE_PREFIX)]) == STABLE_PREFIX
    assert rows[0][-10:-4] == ["turn", "reason", "drew", "source", "warmup_round", "at"]
    assert rows[0][-4:-1] == ["row_kind", "marker", "marker_rule"]  # group plans' marker rows
    assert rows[0][-1] == "pictures"  # played with pictures of fractions shown: not evidence
    assert tuple(rows[0]) == ATTEMPT_HEADER
    first = dict(zip(rows[0], rows[1], strict=True))
    assert (first["turn"], first["reason"], first["drew"]) == ("0", "added_same", "1")
    assert first["source"] == "game"
    # One timestamp precision: UTC to the microsecond on every row.
    stamps = [dict(zip(rows[0], row, strict=True))["timestamp_utc"] for row in rows[1:]]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", s) for s in stamps)


def test_the_spreadsheet_export_of_a_french_class(class_a: ClassWorld) -> None:
    _play_a_class(class_a)
    data = _download(class_a, "export_students", **{"for": "spreadsheet"})
    assert data.startswith("\ufeff".encode())
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    header = rows[0]
    assert len(header) == len(STUDENT_HEADER) and len({len(row) for row in rows}) == 1
    assert "élève" in header and "réussite" in header and "statut M1" in header
    line = dict(zip(header, rows[1], strict=True))
    assert re.fullmatch(r"\d,\d{4}", line["réussite"])  # a decimal comma
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line["première partie"])
    attempts = _download(class_a, "export_attempts", **{"for": "spreadsheet"}).decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(attempts), delimiter=";"))
    assert "tour" in header and "raison donnée" in header


def test_the_spreadsheet_export_of_an_english_class_keeps_commas(class_b: ClassWorld) -> None:
    log_plays(class_b.student.student, RIGHT_PLAYS)
    data = _download(class_b, "export_students", **{"for": "spreadsheet"})
    assert data.startswith("\ufeff".encode())
    header = next(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert "student" in header and "accuracy" in header and "status M1" in header


@pytest.mark.parametrize("flavour", ["excel", "SPREADSHEET", "machine2", "<x>"])
def test_an_unknown_flavour_is_not_found(class_a: ClassWorld, flavour: str) -> None:
    client = teacher_client(class_a.teacher)
    for name in ("export_attempts", "export_students"):
        response = client.get(reverse(name, args=[class_a.classroom.pk]), {"for": flavour})
        assert response.status_code == 404


def test_turns_from_csv_refuses_rows_without_the_diagnosis_columns(class_a: ClassWorld) -> None:
    _play_a_class(class_a)
    rows = list(csv.DictReader(io.StringIO(_download(class_a, "export_attempts").decode())))
    for row in rows:
        del row["turn"]
    with pytest.raises(ValueError, match="turn"):
        turns_from_csv(rows)


def test_the_student_csv_statuses_are_the_dashboards(class_a: ClassWorld) -> None:
    _play_a_class(class_a)
    rows = list(csv.DictReader(io.StringIO(_download(class_a, "export_students").decode())))
    dash = class_dashboard(class_a.classroom)
    by_id = {row["student_id"]: row for row in rows}
    for line in dash.lines:
        row = by_id[pseudonym("student", line.student.pk)]
        assert [row[f"status_{r}"] for r in RULE_IDS] == [line.evidence[r].status for r in RULE_IDS]


def test_the_data_dictionary_shows_how_to_rediagnose_and_that_code_runs(
    class_a: ClassWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons.reporting.exports import REDIAGNOSE_CODE

    client = teacher_client(class_a.teacher)
    text = client.get(reverse("export_dictionary")).content.decode()
    assert "turns_from_csv(csv.DictReader(f))" in text
    for column in ("turn", "reason", "drew"):
        assert f"<code>{column}</code>" in text
    # The snippet, run as printed on an export, gives the dashboard's statuses.
    _play_a_class(class_a)
    (tmp_path / "attempts.csv").write_bytes(_download(class_a, "export_attempts"))
    namespace: dict[str, object] = {}
    monkeypatch.chdir(tmp_path)
    exec(REDIAGNOSE_CODE, namespace)  # noqa: S102 - our own constant
    statuses = namespace["statuses"]
    assert isinstance(statuses, dict)
    anais = pseudonym("student", class_a.student.student.pk)
    assert statuses[anais]["M1"]["status"] == "likely"
