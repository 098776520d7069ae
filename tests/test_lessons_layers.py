"""The lessons rooms keep their layers contract in pyproject.toml (lint-imports checks it).

Dropping the contract, or loosening it (a room out of its layer, siblings made dependent),
fails here; tests/unoclass/test_contracts.py shows the contract catches a planted import.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS = [
    "management | templatetags",
    "notices",
    "home | pupils",
    "demo | school",
    "reporting",
    "plans",
    "practice | sessions",
    "warmup",
    "attempts",
    "aiming | ent | printing",
    "classrooms | evidence",
    "diagnosis | live | models",
]


def _contract() -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    matching = [contract for contract in contracts if contract["id"] == "lessons-layers"]
    assert len(matching) == 1, "one lessons-layers contract in pyproject.toml"
    contract: dict[str, object] = matching[0]
    return contract


def test_the_lessons_rooms_have_a_layers_contract() -> None:
    contract = _contract()
    assert contract["type"] == "layers"
    assert contract["containers"] == ["lessons"]
    assert contract["layers"] == LAYERS
    assert not contract.get("ignore_imports"), "no import is excused from the layers"


def test_every_lessons_room_sits_in_a_layer() -> None:
    rooms = {
        path.name
        for path in (ROOT / "lessons").iterdir()
        if (path / "__init__.py").exists() and path.name != "migrations"
    }
    named = {room.strip() for layer in LAYERS for room in layer.replace(":", "|").split("|")}
    assert rooms == named
