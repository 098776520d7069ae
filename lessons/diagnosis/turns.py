"""Build diagnose()'s turn dicts from a stored attempt log, or from the attempts CSV (pure).

The dashboards (lessons.evidence.loading) and a researcher re-running the diagnosis on an
exported CSV go through the same function, turns_from_attempts(), so both get the same turns
and therefore the same statuses.

An attempt record is a plain dict, oldest first, one student:
`{"id": int, "table": int | None, "turn": int | None, "reference": "a/b" | None,
"denominator": int | None (the named denominator, after a +2/Joker/+4), "hand": ["a/b", ...],
"played": "a/b", "claim": "equal" | "denominator", "asked": bool, "reason": str | None,
"correct": bool, "drew": bool}`, and optionally `"source": "game" | "probe"` and `"at"` (the
time of the claim, ISO 8601 with its offset: a game turn takes its first attempt's, and only
timed warm-up rounds can give "held").

A warm-up answer (`"source": "probe"`, lessons.warmup) is a turn of its own in diagnose()'s
probe format: its options are the hand, whatever the deck (designed items may go beyond it),
its reference's denominator is the turn's, the claim is "equal" and asked, and its reason
counts only on a wrong answer (the prompt follows every answer, right or wrong).

Consecutive records of one (table, turn) make one turn (the attempt log gives every attempt
its turn: lessons.attempts.log). A record without a turn (generated or older rows) is a turn
of its own. An accepted play ends a turn, and a change of reference starts a new one, so a
log that says otherwise still gives well-formed turns. The turn's hand is its first
attempt's (the cards held before acting); values outside the deck in use cannot come from a
game and are left out of the hand (a play of such a value is left out).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any, Final

from games.engine.fractions import parse_fraction

from .classifier import CLAIM_EQUAL
from .stream import SOURCE_PROBE, Card, deck_values, instant

__all__ = [
    "CSV_COLUMNS",
    "first_claim_indices",
    "probe_turn",
    "turns_from_attempts",
    "turns_from_csv",
]

# The attempts CSV columns turns_from_csv() reads (lessons.reporting.exports writes them).
CSV_COLUMNS: Final = (
    "student_id",
    "attempt_id",
    "table_id",
    "turn",
    "a",
    "b",
    "named_denominator",
    "c",
    "d",
    "hand",
    "claimed_rule",
    "claim_source",
    "reason",
    "correct",
    "drew",
)


@lru_cache(maxsize=1 << 12)
def _card(value: str) -> Card | None:
    try:
        return parse_fraction(value)
    except ValueError:
        return None


@lru_cache(maxsize=1 << 14)
def _hand(values: tuple[str, ...], deck: frozenset[Card]) -> tuple[str, ...]:
    return tuple(v for v in values if _card(v) in deck)


def _grouped(
    attempts: Iterable[Mapping[str, Any]], cards: frozenset[Card]
) -> Iterator[tuple[int, Mapping[str, Any], bool]]:
    """Yield (index, record, whether it begins a turn) for the records a turn can hold.

    A record outside the deck in use is left out; a record without a turn, another turn,
    table or reference, or one after an accepted play begins a new turn.
    """
    key: tuple[object, ...] | None = None
    ended = True
    for index, record in enumerate(attempts):
        if record.get("source") == SOURCE_PROBE:
            yield index, record, True  # a warm-up answer is a turn of its own
            key, ended = None, True
            continue
        played = str(record["played"])
        reference = record["reference"]
        if _card(played) not in cards or (reference is not None and _card(reference) not in cards):
            continue
        named = None if reference is not None else record["denominator"]
        turn = record["turn"]
        this = (record["table"], turn, reference, named)
        yield index, record, turn is None or this != key or ended
        key = this
        ended = bool(record["correct"])


def first_claim_indices(attempts: Iterable[Mapping[str, Any]], deck: object = None) -> list[int]:
    """Return the indices of the records that are the first claim of their turn.

    The turns are turns_from_attempts()'s: diagnose() weighs only these claims (the later
    tries of a turn are probes), so every count of right and wrong plays reads these. Warm-up
    answers are not game plays: they are left out.
    """
    return [
        index
        for index, record, begins in _grouped(attempts, deck_values(deck))
        if begins and record.get("source") != SOURCE_PROBE
    ]


def turns_from_attempts(
    attempts: Iterable[Mapping[str, Any]], deck: object = None
) -> list[dict[str, Any]]:
    """Return one student's turn dicts for diagnose(), from attempt records oldest first."""
    cards = deck_values(deck)
    turns: list[dict[str, Any]] = []
    for _index, record, begins in _grouped(attempts, cards):
        if record.get("source") == SOURCE_PROBE:
            turns.append(probe_turn(record))
            continue
        played = str(record["played"])
        reference = record["reference"]
        named = None if reference is not None else record["denominator"]
        turn = record["turn"]
        if begins:
            turns.append(
                {
                    "turn": int(turn if turn is not None else record["id"]),
                    "reference": reference,
                    "denominator": named,
                    "hand": list(_hand(tuple(record["hand"] or ()), cards)),
                    "attempts": [],
                    "drew": False,
                }
            )
            if record.get("at") is not None:
                turns[-1]["at"] = record["at"]
        current = turns[-1]
        reason = record["reason"]
        wrong_equal = not record["correct"] and record["claim"] == CLAIM_EQUAL
        current["attempts"].append(
            {
                "played": played,
                "claim": record["claim"],
                "asked": bool(record["asked"]),
                # A reason can only explain a wrong "equal" claim on a reference fraction.
                "reason": reason if wrong_equal and reference is not None else None,
            }
        )
        current["drew"] = current["drew"] or bool(record["drew"])
    return turns


def probe_turn(record: Mapping[str, Any]) -> dict[str, Any]:
    """Return a warm-up answer's record as diagnose()'s probe turn."""
    reference = str(record["reference"])
    denominator = int(reference.split("/")[1])
    played = str(record["played"])
    wrong = not record["correct"]
    turn: dict[str, Any] = {
        "turn": int(record["turn"] if record["turn"] is not None else record["id"]),
        "source": SOURCE_PROBE,
        "reference": reference,
        "denominator": denominator,
        "hand": [str(option) for option in record["hand"] or ()],
        "attempts": [
            {
                "played": played,
                "claim": CLAIM_EQUAL,
                "asked": True,
                "reason": record["reason"] if wrong else None,
            }
        ],
        "drew": False,
        "round": record.get("round"),
    }
    if record.get("at") is not None:
        turn["at"] = record["at"]
    return turn


def _int(value: str) -> int | None:
    return int(value) if value not in ("", None) else None


def _fraction(num: str, den: str) -> str | None:
    return f"{int(num)}/{int(den)}" if num not in ("", None) and den not in ("", None) else None


def _at(value: str | None, index: int) -> str | None:
    """Return a row's "at" cell checked (ISO 8601 with its offset), None when empty."""
    if value in ("", None):
        return None
    instant(value, f"row {index}")  # raises the ValueError that names the row
    return value


def turns_from_csv(
    rows: Iterable[Mapping[str, str]], deck: object = None
) -> dict[str, list[dict[str, Any]]]:
    """Return each student's turn dicts from the rows of the attempts CSV (csv.DictReader).

    The rows are the plain (machine) export, oldest first, as downloaded; the result maps each
    pseudonymous student id to the turns diagnose() takes. A missing column raises ValueError.
    The "at" column (the claim's time, ISO 8601 with its offset) is optional: older exports
    have none, and their turns are untimed (never "held"); a bad time raises ValueError.
    Marker rows (a group plan's events: "row_kind" "marker") are left out.
    """
    records: dict[str, list[dict[str, Any]]] = {}
    for index, row in enumerate(rows):
        if row.get("row_kind") == "marker":
            continue  # a group plan's event: no card, no evidence
        missing = [column for column in CSV_COLUMNS if column not in row]
        if missing:
            raise ValueError(f"row {index}: missing columns {missing}")
        hand = json.loads(row["hand"] or "[]")
        if not isinstance(hand, list):
            raise ValueError(f"row {index}: 'hand' must be a JSON list")
        records.setdefault(row["student_id"], []).append(
            {
                "id": int(row["attempt_id"]),
                "table": _int(row["table_id"]),
                "turn": _int(row["turn"]),
                "reference": _fraction(row["a"], row["b"]),
                "denominator": _int(row["named_denominator"]),
                "hand": hand,
                "played": _fraction(row["c"], row["d"]),
                "claim": row["claimed_rule"],
                "asked": row["claim_source"] == "asked",
                "reason": row["reason"] or None,
                "correct": row["correct"] == "1",
                "drew": row["drew"] == "1",
                # Older exports have no "source" column: every row is a game's.
                "source": row.get("source") or "game",
                "round": _int(row.get("warmup_round") or ""),
                "at": _at(row.get("at"), index),
            }
        )
    return {student: turns_from_attempts(attempts, deck) for student, attempts in records.items()}
