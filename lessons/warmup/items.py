"""The next warm-up item, from lessons.diagnosis.probe_next (pure), checked before it is shown.

probe_next chooses from the student's turns so far (game turns and earlier warm-up answers);
this module only checks the shape it gives (a reference and 2 to 6 distinct options) so that
a page never shows a broken item, and shuffles nothing: the order is probe_next's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from games.engine.fractions import parse_fraction
from lessons.diagnosis import probe_next

MIN_OPTIONS: Final = 2
MAX_OPTIONS: Final = 6


def next_item(
    turns: Sequence[dict[str, Any]], *, level: str, seed: int, round_id: int | None = None
) -> dict[str, Any] | None:
    """Return the next item {"reference": "a/b", "options": ["a/b", ...]}, or None (the end).

    `round_id`: the warm-up round asked for; its answers carry it as "round" (a round that
    follows another with no game between is still a round of its own: a re-check).
    """
    item = probe_next(list(turns), level=level, seed=seed, round_id=round_id)
    if item is None:
        return None
    reference = str(item["reference"])
    shown = item["options"]
    if not isinstance(shown, list):
        raise ValueError(f"probe_next gave a malformed item: {item!r}")
    options = [str(option) for option in shown]
    parse_fraction(reference)
    for option in options:
        parse_fraction(option)
    if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS or len(set(options)) != len(options):
        raise ValueError(f"probe_next gave a malformed item: {item!r}")
    return {"reference": reference, "options": options}


__all__ = ["next_item"]
