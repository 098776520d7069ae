"""A TCP proxy that cuts every connection a fixed time after it opened, whatever flows on it.

Some school networks (a filter's idle or session timer, a NAT's table, a load balancer) end a
long connection hard after so many seconds. This proxy does that to every connection: both
sides are closed at once after `--cut-after` seconds, in the middle of whatever they were
saying. Run as its own process (the tests' fixture: tests/support/proxies.py):

    python -m tests.support.cutting_proxy --port 8001 --to 127.0.0.1:8000 --cut-after 30

It prints one line per event to stdout (`open N`, `cut N`, `closed N`), flushed, so a test can
wait on what happened instead of on a clock.

SIGUSR1 takes the link down at once, as a network that drops: every open connection is cut,
and every new one is cut as soon as it is accepted (`refused N`), until SIGUSR2 brings it back
(the lines `down` and `up` say when each took effect).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import signal
import socket
import struct
import sys

_numbers = itertools.count(1)
# While down (SIGUSR1 to SIGUSR2) no connection lives: the open ones are cut.
_link = {"down": False}
_open: set[tuple[int, asyncio.StreamWriter, asyncio.StreamWriter]] = set()


def _say(line: str) -> None:
    print(line, flush=True)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy bytes one way until the reader ends; then half-close the other side."""
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()


async def _serve(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    target: tuple[str, int],
    cut_after: float,
) -> None:
    number = next(_numbers)
    if _link["down"]:
        _hard_cut(client_writer)
        client_writer.close()
        _say(f"refused {number}")
        return
    try:
        server_reader, server_writer = await asyncio.open_connection(*target)
    except OSError:
        client_writer.close()
        return
    _say(f"open {number}")
    pair = (number, client_writer, server_writer)
    _open.add(pair)
    both = asyncio.gather(_pipe(client_reader, server_writer), _pipe(server_reader, client_writer))
    try:
        await asyncio.wait_for(both, cut_after)
        if pair in _open:
            _say(f"closed {number}")
    except TimeoutError:
        # The hard cut: an RST to both sides (SO_LINGER 0), as a filter that drops the flow.
        _cut(pair)
    finally:
        _open.discard(pair)
        for writer in (client_writer, server_writer):
            writer.close()


def _cut(pair: tuple[int, asyncio.StreamWriter, asyncio.StreamWriter]) -> None:
    """Cut both sides of a connection at once (an RST each); say so."""
    number, *writers = pair
    _open.discard(pair)
    for writer in writers:
        _hard_cut(writer)
        writer.transport.abort()
    _say(f"cut {number}")


def _hard_cut(writer: asyncio.StreamWriter) -> None:
    """Make the connection's close an RST (SO_LINGER 0)."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def _set_down(down: bool) -> None:
    """Take the link down (cutting every open connection) or bring it back."""
    _link["down"] = down
    if down:
        for pair in list(_open):
            _cut(pair)
    _say("down" if down else "up")


async def main(port: int, target: tuple[str, int], cut_after: float) -> None:
    """Listen on the loopback port and proxy every connection to `target`."""
    server = await asyncio.start_server(
        lambda r, w: _serve(r, w, target, cut_after), "127.0.0.1", port
    )
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, _set_down, True)
    loop.add_signal_handler(signal.SIGUSR2, _set_down, False)
    _say(f"listening {port}")
    async with server:
        await server.serve_forever()


def parse(argv: list[str]) -> argparse.Namespace:
    """Read the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--to", required=True, help="host:port to forward to")
    parser.add_argument("--cut-after", type=float, default=30.0, help="seconds")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse(sys.argv[1:])
    host, _, target_port = args.to.rpartition(":")
    asyncio.run(main(args.port, (host, int(target_port)), args.cut_after))
