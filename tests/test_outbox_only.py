"""Nothing reaches the channel layer but through the outbox (games.outbox).

Each service queues its messages with `send_on_commit`; a table link passes the mover's update
on with `send_soon`. A direct `group_send` from a service was how a blocking send once raised
after a committed move (issue 32): this test reads the code, so a new one fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "lessons", "unoclass")
# The outbox, and the transport behind it (which alone calls the layer): the publishing
# module, and the layer watch's probes and repairs.
OUTBOX = "games/outbox.py"
PUBLISHING = "games/realtime/publishing.py"
TRANSPORT = {PUBLISHING, "games/realtime/layer_watch.py"}
# Not a message: the health check sends a ping to a channel of its own to see the layer work.
HEALTH = "unoclass/health.py"
LAYER_CALLS = {"group_send", "send"}
# The publishing module's ways out, which only the outbox may use.
TRANSPORT_SENDS = {"publish", "publish_soon", "publish_from_thread", "send_or_log"}


def _sources() -> list[Path]:
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    return [p for p in files if "migrations" not in p.parts]


def _layer_calls(tree: ast.AST) -> list[int]:
    """Return the lines that use a channel layer's group_send or send (called or passed on)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in LAYER_CALLS:
            receiver = ast.unparse(node.value)
            if "layer" in receiver.lower():
                lines.append(node.lineno)
    return lines


def _transport_uses(tree: ast.AST) -> list[int]:
    """Return the lines that use publishing's ways out, or import the module itself."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in TRANSPORT_SENDS:
            used = ast.unparse(node.value).endswith("publishing")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("publishing"):
            used = any(alias.name in TRANSPORT_SENDS for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("realtime"):
            used = any(alias.name == "publishing" for alias in node.names)
        elif isinstance(node, ast.Import):
            used = any(alias.name.endswith("realtime.publishing") for alias in node.names)
        else:
            used = False
        if used and isinstance(node, ast.Attribute | ast.ImportFrom | ast.Import):
            lines.append(node.lineno)
    return lines


def _where(check: object, allowed: set[str]) -> list[str]:
    found = []
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        if name in allowed or "realtime/" in name and name.endswith("_layer.py"):
            continue  # the layers themselves implement group_send and send
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{line}" for line in check(tree)]  # type: ignore[operator]
    return found


def test_the_allowed_files_exist() -> None:
    # A module renamed away from these names would leave its new name unchecked.
    assert [name for name in {OUTBOX, HEALTH} | TRANSPORT if not (ROOT / name).is_file()] == []


def test_only_the_transport_calls_the_channel_layer() -> None:
    assert _where(_layer_calls, TRANSPORT | {HEALTH}) == []


def test_only_the_outbox_uses_the_transport() -> None:
    assert _where(_transport_uses, {PUBLISHING, OUTBOX}) == []


@pytest.mark.parametrize(
    ("code", "caught"),
    [
        ("async_to_sync(layer.group_send)(group, message)", True),
        ("await self.channel_layer.send(channel, message)", True),
        ("get_channel_layer().group_send('g', {})", True),
        ("await self.send(text_data=text)", False),  # a socket's own frame
        ("mail.send()", False),
    ],
)
def test_the_check_sees_a_direct_call(code: str, caught: bool) -> None:
    assert bool(_layer_calls(ast.parse(code))) is caught


@pytest.mark.parametrize(
    ("code", "caught"),
    [
        ("publishing.publish_from_thread(group, message)", True),
        ("from games.realtime.publishing import send_or_log", True),
        ("from games.realtime import publishing", True),
        ("import games.realtime.publishing", True),
        ("from games.realtime.layer_watch import attach", False),
        ("from games.realtime import delivery_ledger, layer_watch", False),
        ("outbox.send_on_commit(group, message)", False),
    ],
)
def test_the_check_sees_the_transport_used(code: str, caught: bool) -> None:
    assert bool(_transport_uses(ast.parse(code))) is caught
