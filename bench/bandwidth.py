"""Bytes a class of 30 uses in a 45-minute lesson, against a 2 Mb/s school link (issue 25).

    .venv/bin/python bench/bandwidth.py                  # 120 s of play: about 3 minutes
    .venv/bin/python bench/bandwidth.py --seconds 60     # quicker

One real daphne (SQLite, in-memory layer) on loopback. A class of 30 joins a class session
through the product's services and is dealt at tables of four (lessons.sessions.services). Then:

- **Page loads**: every page a pupil and the teacher open in a lesson (the visit plan below) is
  fetched from daphne; its HTML counts as served (the deploy guide's nginx compresses no
  page: see docs/deploy.md on BREACH) plus its response headers and REQUEST_HEADER_BYTES for
  the request. The static files each page uses (its `<link>`, `<script>` and `<img>`, the CSS
  `url()`s and the JavaScript modules they import) count once per device, each as gzip -9
  (what collectstatic's whitenoise storage writes beside each file and the guide's
  `gzip_static on` serves; a file gzip does not shrink counts as is). Cold caches: the
  first lesson on every device; later lessons find them cached (`expires 30d`).
- **Play**: the 30 pupils' table sockets and the teacher's overview socket, over real
  sockets. At each table the seat whose move is due plays a legal move (tests/e2e/scale/
  client.py's chooser) at one move per table every `--pace` seconds (bench/load.py's paced
  scenario: 4 s); the overview asks for a sync every 20 s as overview.js does. Every frame's
  payload is counted both ways, plus its WebSocket header (2-4 bytes, +4 for the client's mask).
  The measured stretch (`--seconds`) is scaled to 45 minutes: average bytes per second of the
  stretch x 2,700 s (play runs the whole lesson: the stretch starts once every table plays).
- Besides: what per-message deflate would save (each socket's frames through one zlib stream
  with context takeover, as RFC 7692 does), and the per-message TCP/TLS overhead estimate.

Prints the figures and `PASS`/`FAIL` for the budget: at most 10% of a 2 Mb/s link on average
(200 kbit/s), down and up together. Not part of the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import re
import statistics
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from tests.e2e.scale.client import choose_action  # noqa: E402
from tests.support.live import LiveApp  # noqa: E402

BUDGET_KBIT_S = 200.0  # 10% of 2 Mb/s
LESSON_SECONDS = 45 * 60
PUPILS = 30
OVERVIEW_SYNC_SECONDS = 20.0  # static/js/overview.js REFRESH_MS
# A browser's GET (method line, Host, User-Agent, Accept*, Cookie with session and CSRF
# cookies, sec-ch-ua / sec-fetch headers): Chromium sends 500-700 bytes.
REQUEST_HEADER_BYTES = 650
# Per WebSocket message on the wire besides the WebSocket frame: a TLS record (5 header + 16
# AEAD tag + 8 explicit nonce at most) and one TCP/IPv4 segment with timestamps (52); the
# ACK the other way (52 more, delayed ACKs halve it: counted 26).
WIRE_BYTES_PER_MESSAGE = 29 + 52 + 26

# What each person opens in a 45-minute lesson (pages, by visit).
PUPIL_VISITS = {"join": 1, "join_name": 1, "join_pin": 1, "home": 1, "play": 6}
TEACHER_VISITS = {"home": 2, "classroom": 1, "overview": 2, "dashboard": 1}

SEED = """
import json
from lessons.sessions import services as sessions
from tests.support.factories import make_classroom, make_students, make_teacher
from tests.support.world import _session_key
teacher = make_teacher(username="bench_teacher")
classroom = make_classroom(teacher=teacher, name="CM2 Bandwidth")
names = [f"Élève {n:02d}" for n in range(PUPILS)]
logins = make_students(classroom=classroom, names=names)
session = sessions.session_start(teacher=teacher, classroom=classroom)
for login in logins:
    sessions.session_join(session=session, student=login.student)
sessions.session_seat_now(session=session, teacher=teacher)
from lessons.models import SessionMember
seats = {m.student_id: m.table.table_id for m in SessionMember.objects.filter(session=session)}
print(json.dumps({
    "teacher": _session_key(teacher), "classroom": classroom.pk, "session": session.pk,
    "join_code": classroom.join_code,
    "pupils": [{"session": _session_key(l.user), "student": l.student.pk,
                "table": seats[l.student.pk]} for l in logins],
}))
"""


# ------------------------------------------------------------------------------ page loads


def _get(url: str, cookie: str | None) -> tuple[bytes, int]:
    """GET a URL; return its body and the size of its response headers."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
        status_line = 17  # "HTTP/1.1 200 OK\r\n"
        header_bytes = status_line + sum(len(f"{k}: {v}\r\n") for k, v in response.headers.items())
        return body, header_bytes + 2


def _static_refs(text: str, kind: str, base: str) -> set[str]:
    """Return the /static/ paths a page, a stylesheet or a module uses."""
    refs: set[str] = set()
    if kind == "html":
        refs |= set(re.findall(r'(?:href|src)="(/static/[^"]+)"', text))
    elif kind == "css":
        for ref in re.findall(r"url\(['\"]?([^'\")]+)", text):
            refs.add(_join(base, ref))
    elif kind == "js":
        for ref in re.findall(r"""(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""", text):
            refs.add(_join(base, ref))
    return {ref for ref in refs if ref.startswith("/static/")}


def _join(base: str, ref: str) -> str:
    if ref.startswith("/") or ":" in ref:
        return ref
    parts = base.rsplit("/", 1)[0].split("/")
    for piece in ref.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


@dataclass
class PageCost:
    """One page: its HTML and headers, and the static files it needs (path -> gzip bytes)."""

    html: int
    html_gzip: int
    headers: int
    statics: dict[str, int] = field(default_factory=dict)


def static_bytes(path: str) -> tuple[int, str]:
    """Return a static file's size as nginx serves it (gzip -9 if that is smaller) and text."""
    source = ROOT / "static" / path.removeprefix("/static/")
    raw = source.read_bytes()
    packed = len(gzip.compress(raw, 9))
    # whitenoise keeps the .gz only when it saves more than 5%.
    return (packed if packed < 0.95 * len(raw) else len(raw)), raw.decode("utf-8", "replace")


def page_cost(base: str, path: str, cookie: str | None) -> PageCost:
    """Fetch a page; follow its static files (stylesheets' urls, modules' imports)."""
    body, headers = _get(base + path, cookie)
    html = body.decode()
    cost = PageCost(len(body), len(gzip.compress(body, 6)), headers + REQUEST_HEADER_BYTES)
    todo = list(_static_refs(html, "html", path))
    while todo:
        ref = todo.pop()
        if ref in cost.statics:
            continue
        size, text = static_bytes(ref)
        # Each static file: its response headers (about 300 bytes) and the request's.
        cost.statics[ref] = size + 300 + REQUEST_HEADER_BYTES
        kind = ref.rsplit(".", 1)[-1]
        todo += [r for r in _static_refs(text, kind, ref) if r not in cost.statics]
    return cost


def lesson_pages(base: str, world: dict[str, Any]) -> dict[str, Any]:
    """Return the page-load bytes of the lesson: per pupil, for the teacher, for the class."""
    pupil = world["pupils"][0]
    pupil_cookie = f"sessionid={pupil['session']}; django_language=fr"
    teacher_cookie = f"sessionid={world['teacher']}; django_language=fr"
    code = world["join_code"]
    pupil_pages = {
        "join": page_cost(base, "/join/", "django_language=fr"),
        "join_name": page_cost(base, f"/join/{code}/", "django_language=fr"),
        "join_pin": page_cost(base, f"/join/{code}/{pupil['student']}/", "django_language=fr"),
        "home": page_cost(base, "/", pupil_cookie),
        "play": page_cost(base, f"/tables/{pupil['table']}/", pupil_cookie),
    }
    teacher_pages = {
        "home": page_cost(base, "/", teacher_cookie),
        "classroom": page_cost(base, f"/classrooms/{world['classroom']}/", teacher_cookie),
        "overview": page_cost(base, f"/sessions/{world['session']}/", teacher_cookie),
        "dashboard": page_cost(
            base, f"/classrooms/{world['classroom']}/dashboard/", teacher_cookie
        ),
    }

    def person(pages: dict[str, PageCost], visits: dict[str, int]) -> dict[str, int]:
        html = sum(
            (pages[name].html + pages[name].headers) * count for name, count in visits.items()
        )
        statics: dict[str, int] = {}
        for page in pages.values():
            statics.update(page.statics)
        return {"html": html, "static": sum(statics.values()), "static_files": len(statics)}

    one_pupil = person(pupil_pages, PUPIL_VISITS)
    teacher = person(teacher_pages, TEACHER_VISITS)
    total = PUPILS * (one_pupil["html"] + one_pupil["static"]) + teacher["html"] + teacher["static"]
    return {
        "pupil": one_pupil,
        "teacher": teacher,
        "total": total,
        "play_html": pupil_pages["play"].html,
        "play_html_gzip": pupil_pages["play"].html_gzip,
        "play_statics": pupil_pages["play"].statics,
    }


# ------------------------------------------------------------------------------ play


@dataclass
class Counted:
    """One socket's bytes: payloads and WebSocket headers each way, and the frames."""

    down: int = 0
    up: int = 0
    down_messages: int = 0
    up_messages: int = 0
    frames_down: list[bytes] = field(default_factory=list)
    frames_up: list[bytes] = field(default_factory=list)
    # The bytes the socket really carried (WebSocket frames, compressed when deflate was
    # negotiated), read at the TCP transport.
    wire_down: int = 0
    wire_up: int = 0

    def received(self, payload: bytes) -> None:
        self.down += len(payload) + _ws_header(len(payload))
        self.down_messages += 1
        self.frames_down.append(payload)

    def sent(self, payload: bytes) -> None:
        self.up += len(payload) + _ws_header(len(payload)) + 4
        self.up_messages += 1
        self.frames_up.append(payload)


def _ws_header(length: int) -> int:
    return 2 if length < 126 else 4 if length < 65536 else 10


def tap(sock: Any, counted: Counted, play: Play) -> None:
    """Count the bytes the connection's transport reads and writes while `play.counting`."""
    received = sock.data_received
    transport = sock.transport
    write = transport.write

    def data_received(data: bytes) -> None:
        if play.counting:
            counted.wire_down += len(data)
        received(data)

    def counted_write(data: Any) -> None:
        if play.counting:
            counted.wire_up += len(data)
        write(data)

    sock.data_received = data_received
    transport.write = counted_write


class Play:
    """The class at play: 30 table sockets and the overview, counted while `counting`."""

    def __init__(
        self, ws: str, world: dict[str, Any], pace: float, seed: int, deflate: bool
    ) -> None:
        self.ws = ws
        self.compression = "deflate" if deflate else None
        self.world = world
        self.pace = pace
        self.rng = random.Random(seed)
        self.counting = False
        self.playing = True
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.sockets: list[Counted] = []
        self.overview = Counted()
        self.next_slot: dict[int, float] = {}
        self.last: dict[int, int] = {}
        self.elapsed = 0.0

    def _count(self, counted: Counted, payload: bytes, *, sent: bool) -> None:
        if self.counting:
            (counted.sent if sent else counted.received)(payload)

    async def seat(self, pupil: dict[str, Any], origin: str) -> None:
        counted = Counted()
        self.sockets.append(counted)
        table = pupil["table"]
        headers = {"Cookie": f"sessionid={pupil['session']}; django_language=fr", "Origin": origin}
        async with websockets.connect(
            f"{self.ws}/ws/table/{table}/",
            additional_headers=headers,
            compression=self.compression,
            ping_interval=None,
            max_size=2**22,
        ) as sock:
            tap(sock, counted, self)
            async for raw in sock:
                payload = raw.encode() if isinstance(raw, str) else raw
                self._count(counted, payload, sent=False)
                frame = json.loads(payload)
                if frame.get("type") == "error":
                    self.errors[frame.get("code", "?")] = self.errors.get(frame.get("code"), 0) + 1
                if frame.get("type") != "state":
                    continue
                state_id = frame["state_id"]
                self.last[table] = max(self.last.get(table, -1), state_id)
                action = choose_action(frame["view"], self.rng)
                if action is None or not self.playing:
                    continue
                if action["type"] == "next_round" and frame["view"].get("seat") != 0:
                    continue
                asyncio.get_running_loop().create_task(
                    self._move(sock, counted, table, state_id, action)
                )

    async def _move(
        self, sock: Any, counted: Counted, table: int, state_id: int, action: dict[str, Any]
    ) -> None:
        now = time.monotonic()
        slot = max(self.next_slot.get(table, now), now)
        self.next_slot[table] = slot + self.pace
        await asyncio.sleep(slot - now)
        if not self.playing or self.last.get(table) != state_id:
            return
        payload = json.dumps({"type": "action", "action": action, "state_id": state_id}).encode()
        self._count(counted, payload, sent=True)
        if self.counting:
            self.moves += 1
        try:
            await sock.send(payload.decode())
        except websockets.ConnectionClosed:
            self.errors["closed"] = self.errors.get("closed", 0) + 1

    async def teacher(self, origin: str) -> None:
        headers = {
            "Cookie": f"sessionid={self.world['teacher']}; django_language=fr",
            "Origin": origin,
        }
        async with websockets.connect(
            f"{self.ws}/ws/session/{self.world['session']}/",
            additional_headers=headers,
            compression=self.compression,
            ping_interval=None,
            max_size=2**22,
        ) as sock:
            tap(sock, self.overview, self)

            async def sync() -> None:
                while self.playing:
                    await asyncio.sleep(OVERVIEW_SYNC_SECONDS)
                    payload = b'{"type":"sync"}'
                    self._count(self.overview, payload, sent=True)
                    await sock.send(payload.decode())

            task = asyncio.get_running_loop().create_task(sync())
            try:
                async for raw in sock:
                    payload = raw.encode() if isinstance(raw, str) else raw
                    self._count(self.overview, payload, sent=False)
            finally:
                task.cancel()


async def play(base_ws: str, origin: str, world: dict[str, Any], args: argparse.Namespace) -> Play:
    """Play `args.warmup` seconds uncounted, then `args.seconds` counted; return the counts."""
    game = Play(base_ws, world, args.pace, args.seed, not args.no_deflate)
    tasks = [asyncio.create_task(game.seat(p, origin)) for p in world["pupils"]]
    tasks.append(asyncio.create_task(game.teacher(origin)))
    await asyncio.sleep(args.warmup)
    game.counting = True
    started = time.monotonic()
    await asyncio.sleep(args.seconds)
    game.counting = False
    game.playing = False
    game.elapsed = time.monotonic() - started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return game


# ------------------------------------------------------------------------------ report


def kbit_s(total_bytes: float, seconds: float) -> float:
    return total_bytes * 8 / 1000 / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="counted play")
    parser.add_argument("--warmup", type=float, default=10.0, help="uncounted play first")
    parser.add_argument("--pace", type=float, default=4.0, help="seconds between moves of a table")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument(
        "--no-deflate", action="store_true", help="do not offer per-message deflate (browsers do)"
    )
    args = parser.parse_args()

    app = LiveApp({"GAMES_BOT_DELAY": "1.2", "GAMES_ROUND_PAUSE": "10"})
    try:
        app.migrate()
        world = app.script(SEED.replace("PUPILS", str(PUPILS)))
        daphne = app.start()
        tables = sorted({p["table"] for p in world["pupils"]})
        pages = lesson_pages(daphne.http, world)
        game = asyncio.run(play(daphne.ws, daphne.http, world, args))
    finally:
        app.close()

    report(args, pages, game, len(tables))


def report(args: argparse.Namespace, pages: dict[str, Any], game: Play, tables: int) -> None:
    """Scale the counted stretch to a lesson; print the figures and the PASS/FAIL line.

    The tables' bytes scale by moves (a table whose game ended in the stretch would lower a
    per-second figure; in a lesson the class is dealt again): per move, times the moves the
    pace asks in 45 minutes. The overview's bytes scale by time.
    """
    elapsed = game.elapsed
    seats = game.sockets
    lesson_moves = tables * LESSON_SECONDS / args.pace
    by_moves = lesson_moves / max(game.moves, 1)
    by_time = LESSON_SECONDS / elapsed

    def lesson(table_bytes: float, overview_bytes: float) -> float:
        return table_bytes * by_moves + overview_bytes * by_time

    # What the sockets carried (compressed if deflate was negotiated), and the JSON inside.
    wire = lesson(
        sum(s.wire_down + s.wire_up for s in seats), game.overview.wire_down + game.overview.wire_up
    )
    wire_down = lesson(sum(s.wire_down for s in seats), game.overview.wire_down)
    payload = lesson(sum(s.down + s.up for s in seats), game.overview.down + game.overview.up)
    messages = lesson(
        sum(s.down_messages + s.up_messages for s in seats),
        game.overview.down_messages + game.overview.up_messages,
    )
    overhead = messages * WIRE_BYTES_PER_MESSAGE
    total = pages["total"] + wire
    average = kbit_s(total, LESSON_SECONDS)
    average_tcp = kbit_s(total + overhead, LESSON_SECONDS)
    states = [f for s in seats for f in s.frames_down if f.startswith(b'{"type":"state"')]
    overviews = [json.loads(f) for f in game.overview.frames_down]
    overviews = [f for f in overviews if f.get("type") == "overview"]
    deflate = "offered (as browsers do)" if not args.no_deflate else "not offered"

    print(
        f"class of {PUPILS} at {tables} tables, one move per table every {args.pace:g} s; "
        f"counted {elapsed:.0f} s of play after {args.warmup:g} s; per-message deflate "
        f"{deflate}"
    )
    print(
        f"moves counted: {game.moves} ({game.moves / elapsed:.2f}/s; asked "
        f"{tables / args.pace:.2f}/s), {lesson_moves:.0f} in 45 min; errors "
        f"{game.errors or 0}"
    )
    print(
        f"page loads: per pupil {pages['pupil']['html'] / 1000:.0f} kB of pages "
        f"({sum(PUPIL_VISITS.values())} visits) + {pages['pupil']['static'] / 1000:.0f} kB of "
        f"{pages['pupil']['static_files']} static files (gzip, cold cache); teacher "
        f"{(pages['teacher']['html'] + pages['teacher']['static']) / 1000:.0f} kB; class "
        f"{pages['total'] / 1e6:.2f} MB"
    )
    statics = ", ".join(
        f"{k.removeprefix('/static/')} {v / 1000:.1f}"
        for k, v in sorted(pages["play_statics"].items())
    )
    print(
        f"play page: HTML {pages['play_html'] / 1000:.1f} kB (gzip would make it "
        f"{pages['play_html_gzip'] / 1000:.1f}); static files in kB with headers: {statics}"
    )
    print(
        f"sockets in 45 min: {wire / 1e6:.1f} MB carried ({wire_down / 1e6:.1f} MB down), "
        f"{payload / 1e6:.1f} MB of JSON inside; table sockets "
        f"{sum(x.wire_down + x.wire_up for x in seats) / max(game.moves, 1) / 1000:.2f} kB a "
        f"move; overview {kbit_s(game.overview.wire_down + game.overview.wire_up, elapsed):.1f} "
        f"kbit/s"
    )
    if states:
        sizes = [len(f) for f in states]
        print(
            f"state frames: {len(states)}, JSON median {statistics.median(sizes):.0f} B, "
            f"max {max(sizes)} B"
        )
    if overviews:
        html = statistics.median(len(f["html"].encode()) for f in overviews)
        data = statistics.median(len(json.dumps(f["data"]).encode()) for f in overviews)
        print(
            f"overview frames: {len(overviews)} ({len(overviews) / elapsed:.2f}/s), JSON "
            f"median {statistics.median(len(f) for f in game.overview.frames_down):.0f} B "
            f"(html {html:.0f} B, data {data:.0f} B)"
        )
    verdict = "PASS" if average <= BUDGET_KBIT_S and not game.errors else "FAIL"
    print(
        f"{verdict} class of {PUPILS}, 45-minute lesson: {total / 1e6:.1f} MB, "
        f"{average:.1f} kbit/s on average, down and up (budget {BUDGET_KBIT_S:g} kbit/s: 10% "
        f"of 2 Mb/s); with TLS and TCP/IP ({WIRE_BYTES_PER_MESSAGE} B a message) "
        f"{average_tcp:.1f} kbit/s"
    )


if __name__ == "__main__":
    main()
