"""Hypothesis strategies for hostile table-socket frames: anything a broken or malicious
client could send, and valid-looking actions with bad fields."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from games.engine.cards import DECKS

# Stands for "the table's current state number", filled in when the frame is sent, so that
# some actions get past the state check and reach the rules.
CURRENT = "<current>"

CARDS = sorted(set(DECKS["fractions"]) | set(DECKS["classic"]))
ACTION_TYPES = ["play", "draw", "pass", "uno", "catch", "challenge", "accept", "quickos",
                "next_round", "sync", "since", "action", "", "PLAY", "play ",
                "__proto__"]  # fmt: skip

huge_ints = st.sampled_from([2**31, 2**63, -(2**63), 10**100, 10**4000, -1, 0])
numbers = st.one_of(st.integers(), huge_ints, st.floats(allow_nan=True, allow_infinity=True))
any_text = st.text(alphabet=st.characters(codec=None), max_size=40)  # unicode, surrogates too
scalars = st.one_of(st.none(), st.booleans(), numbers, any_text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(any_text, inner, max_size=4)
    ),
    max_leaves=12,
)
fields = st.one_of(
    json_values, st.sampled_from(CARDS), st.sampled_from(["1/3", "2/6r ", "+4", "0/0"])
)
state_ids = st.one_of(st.just(CURRENT), st.just(CURRENT), numbers, json_values, st.none())

action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES)},
    optional={
        "card": fields,
        "colour": st.one_of(st.sampled_from(["r", "j", "v", "b", "x", ""]), fields),
        "denominator": st.one_of(st.sampled_from([2, 3, 6, 12, 24, 48, 0, 5, -12]), fields),
        "claim": st.one_of(st.sampled_from(["equal", "denominator", "both"]), fields),
        "target": fields,
        "function": fields,
        "extra": fields,
    },
)
action_frames = st.fixed_dictionaries(
    {"type": st.just("action"), "action": st.one_of(action_like, json_values)},
    optional={"state_id": state_ids, "seat": fields, "table": fields},
)
# Plausible moves at the current state: some are legal and move the game, most are refused.
plausible_actions = st.builds(
    lambda action: {"type": "action", "action": action, "state_id": CURRENT},
    st.one_of(
        st.sampled_from([{"type": t} for t in ("draw", "pass", "uno", "accept", "challenge")]),
        st.builds(lambda c: {"type": "play", "card": c}, st.sampled_from(CARDS)),
        st.builds(
            lambda c, claim: {"type": "play", "card": c, "claim": claim},
            st.sampled_from(CARDS),
            st.sampled_from(["equal", "denominator"]),
        ),
        st.builds(lambda t: {"type": "catch", "target": t}, st.integers(-2, 6)),
    ),
)
other_dict_frames = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(ACTION_TYPES), json_values)},
    optional={"state_id": state_ids, "action": json_values},
)


RAW_TEXTS = [
    '{"type": "sync"}',
    "{",
    "[1,",
    "NaN",
    "null",
    '{"type": "action",',
    '{"type": "since", "state_id": NaN}',
    '{"type": "since", "state_id": 0}',
    '{"type": "since", "state_id": -0.0}',
]


def _deep(depth: int, kind: str) -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


deep_json = st.builds(
    _deep, st.integers(min_value=50, max_value=6000), st.sampled_from(["list", "dict"])
)
# Frames sent as text: JSON documents, broken JSON, raw unicode, deep nesting, oversized.
text_frames = st.one_of(
    plausible_actions.map(lambda f: ("json", f)),
    action_frames.map(lambda f: ("json", f)),
    other_dict_frames.map(lambda f: ("json", f)),
    json_values.map(lambda v: ("json", v)),
    st.sampled_from(RAW_TEXTS).map(lambda t: ("text", t)),
    any_text.map(lambda t: ("text", t)),
    deep_json.map(lambda t: ("text", t)),
    st.integers(min_value=4000, max_value=9000).map(lambda n: ("text", "x" * n)),
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
)


def render(frame: tuple[str, Any], state_id: int) -> tuple[str | None, bytes | None]:
    """Return the (text, bytes) payload of a generated frame for the current state number."""
    kind, value = frame
    if kind == "bytes":
        return None, value
    if kind == "text":
        return value, None
    if isinstance(value, dict) and value.get("state_id") == CURRENT:
        value = {**value, "state_id": state_id}
    return json.dumps(value), None
