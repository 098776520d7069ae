"""The network check page, and the fallback's POSTed frames (echoes)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games.realtime.addresses import address_group
from unoclass.network_check.capacity import (
    ECHOES,
    PAGE_LOADS_PER_ADDRESS,
    WINDOW_SECONDS,
    counted_within,
)
from unoclass.network_check.consumers import post_check_frame
from unoclass.network_check.words import page_words


def _address_parts(request: HttpRequest) -> dict[str, str | int]:
    """Return the server's address as this browser reaches it: host, port, the links' URLs."""
    secure = request.is_secure()
    host = request.get_host()
    name, _sep, port_text = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    port = int(port_text) if port_text.isdigit() else (443 if secure else 80)
    base = f"{'https' if secure else 'http'}://{host}"
    return {
        "host": name or host,
        "port": port,
        "page_origin": base,
        "socket_url": f"{'wss' if secure else 'ws'}://{host}/ws/",
        "stream_url": f"{base}/network-check/stream/",
    }


@never_cache
@require_safe
def page(request: HttpRequest) -> HttpResponse:
    """Show the check; it runs in the browser. Refuse an address that loads it too often."""
    # Counted per address, an IPv6 one per /64 (its devices pick any address in it).
    address = address_group(str(request.META.get("REMOTE_ADDR") or ""))
    if not counted_within(f"network-check:page:{address}", PAGE_LOADS_PER_ADDRESS, WINDOW_SECONDS):
        return render(request, "network_check/too_many.html", status=429)
    parts = _address_parts(request)
    # The script reads this server's address from its own location: no address in a script.
    config = {
        "socket_path": "/ws/network-check/",
        "stream_path": "/network-check/stream/",
        "echo_path": reverse("network_check_echo"),
        "csrf": get_token(request),
        "echoes": ECHOES,
        "duration": settings.NETWORK_CHECK_SECONDS,
        "lang": get_language(),
        "words": page_words(),
    }
    context = {**parts, "duration": f"{settings.NETWORK_CHECK_SECONDS:g}", "config": config}
    return render(request, "network_check/page.html", context)


@never_cache
@require_POST
async def echo(request: HttpRequest) -> HttpResponse:
    """Take one frame of the check's fallback link: `{"type": "echo", "n": N}` comes back in
    the answer, `{"frames": [{"type": "echo", "n": N}]}`, as a table's POSTed frame's replies
    do (docs/protocol.md)."""
    return await post_check_frame(request)
