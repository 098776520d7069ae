"""The real app with a clock the test moves, for daphne in the browser tests.

`daphne tests.support.clocked_asgi:application` with UNOCLASS_TEST_CLOCK naming a file: before
each connection the app reads the file (an ISO 8601 time, or nothing) and, when it changed,
moves this process's clock there (time-machine; the clock then runs on from it). The test
writes the file to move the server a week on: no sleep, no wait for a real date.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

import time_machine

from unoclass.asgi import application as real_application

CLOCK = Path(os.environ.get("UNOCLASS_TEST_CLOCK", "/nonexistent"))
_now: dict[str, Any] = {"text": "", "travel": None}


def _follow_the_clock() -> None:
    """Move this process's clock to the file's time if it changed."""
    try:
        text = CLOCK.read_text(encoding="utf-8").strip()
    except OSError:
        text = ""
    if text == _now["text"]:
        return
    if _now["travel"] is not None:
        _now["travel"].stop()
        _now["travel"] = None
    if text:
        travel = time_machine.travel(datetime.fromisoformat(text), tick=True)
        travel.start()
        _now["travel"] = travel
    _now["text"] = text


async def application(scope: Any, receive: Any, send: Any) -> None:
    """Serve the real app at the test's time."""
    if scope.get("type") in {"http", "websocket"}:
        _follow_the_clock()
    await real_application(scope, receive, send)
