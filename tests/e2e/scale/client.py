"""A scripted player for real servers: a WebSocket seat client that picks legal moves.

The client sees only what a browser sees (its seat's `state` frames). To choose a legal move
it rebuilds a *shadow* game from its view: its own hand, the pile's top card and the public
facts are exact; the hidden cards (other hands, the draw pile) are filled in arbitrarily, which
is enough for the engine to list the seat's legal actions. The load benchmark uses it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

from games.engine import Game
from games.engine.cards import DECKS, KIND
from games.engine.state import STATE_VERSION
from tests.support.waiting import receive_until

# Reconnection: waits double from BACKOFF_FIRST up to BACKOFF_MAX, for RECONNECT_SECONDS at most.
BACKOFF_FIRST = 0.05
BACKOFF_MAX = 1.0
RECONNECT_SECONDS = 30.0
# Reading what is left of a socket while it closes stops after this long.
CLOSE_SECONDS = 15.0
# A table silent this long gets a `sync` from every client (an update may have been lost while
# Redis restarted); after MAX_IDLE_SYNCS silent syncs in a row the table counts as frozen.
IDLE_SYNC_SECONDS = 3.0
MAX_IDLE_SYNCS = 3


def acting_seat(view: dict[str, Any]) -> int | None:
    """Return the seat the game waits on: the turn owner, else the seat that must answer."""
    if view.get("turn") is not None:
        return int(view["turn"])
    awaiting = view.get("awaiting")
    if awaiting and awaiting.get("kind") != "uno":
        return int(awaiting["seat"])
    return None


def shadow_game(view: dict[str, Any]) -> Game:
    """Rebuild a game consistent with one seat's view (hidden cards are arbitrary)."""
    seat = int(view["seat"])
    ruleset = view["ruleset"]
    rest = Counter(DECKS[ruleset])
    rest.subtract(view["hand"])
    top = view["top"]
    rest.subtract([top])
    pool = sorted(rest.elements())
    hands: list[list[str]] = []
    for index, size in enumerate(view["hand_sizes"]):
        if index == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(pool[:size])
            del pool[:size]
    discard = pool[: view["discard_size"] - 1] + [top]
    del pool[: view["discard_size"] - 1]
    awaiting = view.get("awaiting")
    aw = None
    if awaiting and awaiting.get("kind") != "uno":
        aw = {
            "seat": awaiting["seat"],
            "kind": awaiting["kind"],
            "total": awaiting.get("total", 0),
            "by": -1,
            "bluff": False,
            "prev_colour": view["colour"],
            "prev_reference": None,
            "prev_denominator": 0,
        }
    uno_window = view.get("uno_window")
    state = {
        "version": STATE_VERSION,
        "ruleset": ruleset,
        "players": view["players"],
        "options": view["options"],
        "seed": 0,
        "shuffles": 0,
        "hands": hands,
        "pile": pool,
        "discard": discard,
        "dealer": view["dealer"],
        "turn": view["turn"] if view["turn"] is not None else -1,
        "direction": view["direction"],
        "colour": view["colour"],
        "reference": view.get("reference"),
        "denominator": view["denominator"] or 0,
        "awaiting": aw,
        "drawn": view.get("drawn"),
        "uno_called": -1,
        "uno_open": uno_window if uno_window is not None else -1,
        "last_player": -1,
        "dead_passes": 0,
        "round": view["round"],
        "round_over": view["round_over"],
        "round_winner": view["round_winner"],
        "winner": view["winner"],
        "over": view["game_over"],
        "scores": view["scores"],
        "team_scores": view.get("team_scores"),
        "out": view.get("eliminated", []),
    }
    return Game.from_dict(state)


def choose_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Pick the seat's move, or None when the game does not wait on this seat.

    Plays a card when one fits (fractions before specials), else accepts, draws or passes.
    Never calls UNO, catches or challenges: the scripted players stay on the main path.
    """
    if view.get("winner") is not None or view.get("game_over"):
        return None
    if view.get("round_over"):
        return {"type": "next_round"}
    if acting_seat(view) != view.get("seat"):
        return None
    legal = shadow_game(view).legal_actions(int(view["seat"]))
    plays = [a for a in legal if a["type"] == "play" and "denominator" not in a]
    if plays:
        fractions = [a for a in plays if KIND[a["card"]] == "frac"]
        return dict(rng.choice(fractions or plays))
    for kind in ("accept", "draw", "pass"):
        for action in legal:
            if action["type"] == kind:
                return dict(action)
    return None


@dataclass
class SeatLog:
    """Everything one seat received: state numbers per connection, errors, the last view."""

    connections: list[list[int]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    state_id: int = -1
    frames: int = 0
    reconnects: int = 0
    syncs: int = 0
    # (connection, state number) of each `event` frame: what a catch-up from the log sent.
    events: set[tuple[int, int]] = field(default_factory=set)

    def record(self, frame: dict[str, Any]) -> None:
        """Note a frame received on the current connection."""
        self.frames += 1
        if frame["type"] == "state":
            self.connections[-1].append(frame["state_id"])
            self.state_id = frame["state_id"]
            self.view = frame["view"]
        elif frame["type"] == "event":
            self.events.add((len(self.connections) - 1, frame.get("state_id", -1)))
        elif frame["type"] == "error":
            self.errors.append(frame)

    def problems(self) -> list[str]:
        """List ordering faults: within one connection (or since the last sync), state numbers
        go up by exactly one, or jump over states whose events all came (a catch-up from the
        log: games.catch_up, as after the layer watch's repair)."""
        found = []
        for number, ids in enumerate(self.connections):
            for before, after in zip(ids, ids[1:], strict=False):
                skipped = range(before + 1, after)
                if after > before + 1 and all((number, s) in self.events for s in skipped):
                    continue
                if after != before + 1:
                    kind = "duplicate" if after == before else "gap" if after > before else "back"
                    found.append(f"connection {number}: {kind} {before} -> {after}")
        return found


class SeatClient:
    """One player's socket: reconnects with backoff, records every state frame it gets."""

    def __init__(self, ws_base: str, table: int, session: str, origin: str) -> None:
        self.url = f"{ws_base}/ws/table/{table}/"
        self.headers = {"Cookie": f"sessionid={session}; django_language=en", "Origin": origin}
        self.sock: Any = None
        self.log = SeatLog()

    async def connect(self, deadline_seconds: float = RECONNECT_SECONDS) -> None:
        """Open the socket, retrying with exponential backoff until the deadline."""
        wait, deadline = BACKOFF_FIRST, time.monotonic() + deadline_seconds
        while True:
            try:
                self.sock = await websockets.connect(
                    self.url, additional_headers=self.headers, open_timeout=5, max_size=2**22
                )
                self.log.connections.append([])
                return
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                if time.monotonic() + wait > deadline:
                    raise
                await asyncio.sleep(wait)
                wait = min(wait * 2, BACKOFF_MAX)

    async def reconnect(self) -> None:
        """Close what is left of the socket and connect again (with backoff)."""
        await self.close()
        self.log.reconnects += 1
        await self.connect()

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one JSON frame."""
        await self.sock.send(json.dumps(frame))

    async def sync(self) -> None:
        """Ask for the current state again; the state numbers start a new sequence."""
        try:
            await self.send({"type": "sync"})
        except websockets.ConnectionClosed:
            return  # the next read notices the closed socket and reconnects
        self.log.syncs += 1
        self.log.connections.append([])

    async def act(self, action: dict[str, Any]) -> None:
        """Send an action for the last state seen."""
        await self.send({"type": "action", "action": action, "state_id": self.log.state_id})

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        """Receive one frame and record it."""
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.sock.recv(), timeout))
        self.log.record(frame)
        return frame

    async def next_state(self, timeout: float = 10) -> dict[str, Any]:
        """Receive frames until a `state` frame arrives (within `timeout` seconds); return it."""
        return await self.next_state_where(lambda view: True, timeout, "a state frame")

    async def next_state_where(
        self, test: Callable[[dict[str, Any]], bool], timeout: float, what: str
    ) -> dict[str, Any]:
        """Receive frames until a `state` frame whose view passes `test` arrives; return it.

        The whole wait has a deadline (not only each read): fail naming `what` when it passes.
        """
        return await receive_until(
            self.next_frame,
            lambda frame: frame["type"] == "state" and bool(test(frame["view"])),
            timeout,
            f"{what} on {self.url}",
        )

    async def close(self) -> None:
        """Close the socket, dropping the frames nobody read.

        Frames left unread (a watcher, a table stopped at `max_moves`) fill websockets' queue
        (max_queue) and pause reading: the server's closing frame was never read and close()
        waited out its close_timeout (10 s) every time. So the rest is read while it closes.
        """
        if self.sock is None:
            return
        closing = asyncio.ensure_future(self.sock.close())

        async def drain() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for _frame in self.sock:
                    pass

        # Past the deadline close() gives up after its own timeout and drops the connection.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(drain(), CLOSE_SECONDS)
        await closing


@dataclass
class Table:
    """The clients of one table and which state each has already answered."""

    clients: list[SeatClient]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    answered: dict[int, int] = field(default_factory=dict)
    moves: int = 0

    @property
    def over(self) -> bool:
        """Tell whether a client has seen the game end."""
        return any(c.log.view.get("winner") is not None for c in self.clients)

    async def _answer(self, index: int) -> bool:
        client = self.clients[index]
        if self.answered.get(index) == client.log.state_id or not client.log.view:
            return False
        self.answered[index] = client.log.state_id
        action = choose_action(client.log.view, self.rng)
        if action is None:
            return False
        try:
            await client.act(action)
        except websockets.ConnectionClosed:
            return False  # the next read notices the closed socket and reconnects
        self.moves += 1
        return True

    async def play(self, *, max_moves: int = 600, seconds: float = 120) -> None:
        """Let every client answer its state frames until the game is over or `max_moves`
        more moves were sent (then stop at once, leaving later frames unread)."""
        stop_at = self.moves + max_moves
        deadline = time.monotonic() + seconds
        pending: dict[int, asyncio.Task[dict[str, Any]]] = {}
        idle = 0
        try:
            for index in range(len(self.clients)):
                if self.moves < stop_at:
                    await self._answer(index)
            while self.moves < stop_at and not self.over:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"game not over after {seconds} s, {self.moves} moves")
                for index, client in enumerate(self.clients):
                    if index not in pending:
                        pending[index] = asyncio.ensure_future(client.next_frame(timeout=60))
                done, _ = await asyncio.wait(
                    pending.values(), timeout=IDLE_SYNC_SECONDS, return_when=asyncio.FIRST_COMPLETED
                )
                if not done:
                    idle += 1
                    if idle > MAX_IDLE_SYNCS:
                        raise TimeoutError("no frame after repeated syncs: the table is frozen")
                    for index, client in enumerate(self.clients):
                        await client.sync()
                        self.answered.pop(index, None)
                    continue
                idle = 0
                for index in [i for i, task in pending.items() if task in done]:
                    try:
                        frame = pending.pop(index).result()
                    except websockets.ConnectionClosed:
                        # As the page does: reconnect with backoff; the server sends the state.
                        await self.clients[index].reconnect()
                        self.answered.pop(index, None)
                        continue
                    if frame["type"] == "state" and self.moves < stop_at:
                        await self._answer(index)
        finally:
            for task in pending.values():
                task.cancel()
            await asyncio.gather(*pending.values(), return_exceptions=True)

    async def settle(self, state_id: int, seconds: float = 15) -> None:
        """Read frames until every client has seen `state_id` (within `seconds` each)."""
        for index, client in enumerate(self.clients):
            log = client.log
            if log.state_id < state_id:
                await receive_until(
                    client.next_frame,
                    lambda _frame, log=log: log.state_id >= state_id,  # type: ignore[misc]
                    seconds,
                    f"client {index} to see state {state_id}",
                )
