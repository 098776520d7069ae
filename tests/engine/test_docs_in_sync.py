"""docs/engine.md names every option (with the values it takes), error code and event type."""

from __future__ import annotations

import re
from pathlib import Path

from games.engine.cards import FRACTION_DECK_LEVELS
from games.engine.errors import MESSAGES
from games.engine.options import DEFAULTS, FQ_FUNCTIONS, INT_VALUES, MAX_AIM_PAIRS, SCORINGS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_every_option_is_documented() -> None:
    for defaults in DEFAULTS.values():
        for key in defaults:
            assert f"`{key}`" in DOC, key


def test_every_error_code_is_documented() -> None:
    for code in MESSAGES:
        assert f"`{code}`" in DOC, code


def test_every_event_type_is_documented() -> None:
    found: set[str] = set()
    for name in ("game.py", "deal.py", "scoring.py"):
        found |= set(re.findall(r'"type": "([a-z_]+)"', (ENGINE / name).read_text()))
    actions = {"play", "draw", "pass", "uno", "catch", "challenge", "accept", "quickos"}
    for event in found - actions | {"uno", "quickos"}:
        assert f"| `{event}` |" in DOC, event


def _option_rows() -> dict[str, list[str]]:
    """Return the cells of each row of the "Options" table of docs/engine.md, by key."""
    section = DOC.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"^\| `([a-z0-9_]+)` \|", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in line.strip("|").split("|")]
    return rows


def _documented_values(cell: str) -> object:
    """Read a `values` cell: "a–b" is a range, "x, y" a list, backticks name strings."""
    span = re.fullmatch(r"(\d+)–(\d+)", cell)
    if span:
        return range(int(span.group(1)), int(span.group(2)) + 1)
    named = re.findall(r"`([^`]+)`", cell)
    if named:
        return tuple(named)
    return tuple(int(v) if v.isdigit() else v for v in cell.split(", "))


def test_option_table_lists_each_option_once() -> None:
    keys = {key for defaults in DEFAULTS.values() for key in defaults}
    assert set(_option_rows()) == keys


def test_option_values_in_the_docs_are_the_values_the_engine_takes() -> None:
    header = DOC.split("\n## Options\n", 1)[1].split("| key |", 1)[1].split("\n", 1)[0]
    column = [c.strip() for c in ("key |" + header).strip("|").split("|")].index("values")
    for key, cells in _option_rows().items():
        documented = _documented_values(cells[column])
        default = next(d[key] for d in DEFAULTS.values() if key in d)
        if key in INT_VALUES:
            assert documented == INT_VALUES[key], key
        elif isinstance(default, bool):
            assert documented == ("true", "false"), key
        elif key == "scoring":
            assert documented == SCORINGS, key
        elif key == "deck":
            assert documented == FRACTION_DECK_LEVELS, key
        elif key == "aim_pairs":
            assert f"at most {MAX_AIM_PAIRS} distinct" in cells[column]
        else:
            assert key == "family_quick_functions", key
            assert documented == FQ_FUNCTIONS, key
            assert "non-empty list of distinct" in cells[column]


def test_every_integer_option_has_its_values() -> None:
    ints = {
        key
        for defaults in DEFAULTS.values()
        for key, value in defaults.items()
        if isinstance(value, int) and not isinstance(value, bool)
    }
    assert ints == set(INT_VALUES)
    assert INT_VALUES["fractions_plus4_draws"] == (2, 4)  # the rules README gives these two
