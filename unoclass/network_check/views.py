"""The network check page and the fallback's echo POST."""

from __future__ import annotations

import hashlib

from channels.layers import get_channel_layer
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games import jsontext
from unoclass.network_check.capacity import (
    ECHOES,
    MAX_ECHO_BYTES,
    MAX_ECHOES_PER_STREAM,
    PAGE_LOADS_PER_ADDRESS,
    WINDOW_SECONDS,
    counted_within,
    stream_channel,
    token_max_age,
)
from unoclass.network_check.consumers import BAD_ECHO, echo_number
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
    address = request.META.get("REMOTE_ADDR", "")
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


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"type": "error", "code": code, "message": message}, status=status)


@never_cache
@require_POST
async def echo(request: HttpRequest) -> HttpResponse:
    """Send `{"type": "echo", "n": N}` to the stream named by `token`; it comes back there.

    The body is JSON: `{"token": <the stream's hello token>, "type": "echo", "n": N}`. The
    answer says only that it was sent: the echo itself travels the stream, as the fallback's
    frames do.
    """
    if len(request.body) > MAX_ECHO_BYTES:
        return _refusal(413, "too_large", _("This message is too long."))
    try:
        content = jsontext.loads(request.body)
    except ValueError:
        return _refusal(400, "bad_json", _("This message is not valid JSON."))
    number = echo_number(content)
    if number is None:
        return _refusal(400, "bad_echo", str(BAD_ECHO))
    token = content.get("token")
    try:
        channel = stream_channel(token if isinstance(token, str) else "")
    except signing.BadSignature:
        return _refusal(400, "bad_token", _("This check has expired: run it again."))
    key = "network-check:echoes:" + hashlib.sha256(channel.encode()).hexdigest()
    # Counted as long as the token is good: a token cannot earn a second share.
    if not counted_within(key, MAX_ECHOES_PER_STREAM, token_max_age()):
        return _refusal(429, "rate_limited", _("Too many messages: slow down."))
    layer = get_channel_layer()
    if layer is not None:
        await layer.send(channel, {"type": "network_check.echo", "n": number})
    return JsonResponse({"type": "sent", "n": number})
