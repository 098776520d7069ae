"""Per-message deflate (RFC 7692) on daphne's WebSockets, which daphne never offers itself.

daphne builds its autobahn WebSocketFactory without a `perMessageCompressionAccept`, so
autobahn refuses every browser's `permessage-deflate` offer. `enable` gives daphne a factory
that accepts it. The teacher's overview frame (the HTML of 30 pupils' rows, about 50 kB) and
the table states are JSON and HTML that deflate shrinks tenfold or more: the figures are in
docs/performance.md, "Slow links (issue 25)".

Memory stays small with thousands of sockets: the server compresses each message on its own
(no compressor kept between messages, with a small window), and asks the browser for a
512-byte window (`client_max_window_bits=9`), so the inflater each socket keeps is small.

daphne's private parts used (the module global `daphne.server.WebSocketFactory`, read by
`Server.run`): tests/unoclass/test_private_apis.py::test_daphne_websocket_factory_seam.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

# The window the server asks browsers to compress with (2**9 bytes): their frames are small.
CLIENT_WINDOW_BITS = 9
# The server's own compressor, made anew for each message: a 4 KB window and zlib's memory
# level 4 compress a table state (1.4 kB) or an overview (50 kB) as well as zlib's defaults
# (32 KB, 8) do, and start far quicker (docs/performance.md, "Slow links").
SERVER_WINDOW_BITS = 12
SERVER_MEM_LEVEL = 4


def accept_deflate(offers: list[Any]) -> PerMessageDeflateOfferAccept | None:
    """Accept the browser's first permessage-deflate offer, one message at a time."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(  # type: ignore[no-untyped-call]
                offer,
                request_max_window_bits=CLIENT_WINDOW_BITS if offer.accept_max_window_bits else 0,
                no_context_takeover=True,
                window_bits=SERVER_WINDOW_BITS,
                mem_level=SERVER_MEM_LEVEL,
            )
    return None


def enable(daphne_server: ModuleType) -> None:
    """Make daphne's server (the `daphne.server` module) accept per-message deflate."""
    factory = daphne_server.WebSocketFactory
    if getattr(factory, "accepts_deflate", False):
        return

    class DeflatingWebSocketFactory(factory):  # type: ignore[misc,valid-type]
        """daphne's factory, accepting `permessage-deflate` offers."""

        accepts_deflate = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)

    setattr(daphne_server, "WebSocketFactory", DeflatingWebSocketFactory)  # noqa: B010
