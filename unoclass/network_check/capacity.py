"""Bound what the network check may hold open, and sign the stream's address for the POSTs."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.cache import cache

# Links a process keeps open for the check at once (sockets and streams): a whole school
# checking in the same minute is a few dozen; beyond this, "try again in a moment".
MAX_OPEN = 200
# Echoes one stream may receive: a check sends ECHOES; room for a second run on the same page.
MAX_ECHOES_PER_STREAM = 30
ECHOES = 5
# Largest echo a client may send (bytes of body).
MAX_ECHO_BYTES = 512
_SALT = "unoclass.network_check.stream"


class OpenLinks:
    """Count this process's open check links; refuse past MAX_OPEN."""

    def __init__(self, limit: int = MAX_OPEN) -> None:
        self.limit = limit
        self.count = 0

    def take(self) -> bool:
        """Count one more open link; False (nothing counted) when the limit is reached."""
        if self.count >= self.limit:
            return False
        self.count += 1
        return True

    def release(self) -> None:
        """Count one link fewer."""
        self.count = max(0, self.count - 1)


OPEN_LINKS = OpenLinks()


def stream_token(channel_name: str) -> str:
    """Return the signed name of a stream's channel: a POST can only reach a real stream."""
    return signing.dumps(channel_name, salt=_SALT, compress=True)


def token_max_age() -> int:
    """Return how long a stream's token is good for (seconds): well past the stream's end."""
    return int(settings.NETWORK_CHECK_SECONDS * 2 + 60)


def stream_channel(token: str) -> str:
    """Return the channel a token names; raise signing.BadSignature if it is forged or old."""
    channel = signing.loads(token, salt=_SALT, max_age=token_max_age())
    if not isinstance(channel, str):
        raise signing.BadSignature("not a channel name")
    return channel


# Page loads one address may make per window: a school's whole network shares one address,
# and every class of it may run the check in the same hour.
PAGE_LOADS_PER_ADDRESS = 120
WINDOW_SECONDS = 10 * 60


def counted_within(key: str, limit: int, window: float) -> bool:
    """Count one more use of `key` in the cache; False once it was used `limit` times."""
    if cache.add(key, 1, window):
        return True
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window)
        return True
    return used <= limit
