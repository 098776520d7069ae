"""Bound what the network check may hold open and how often one address may load it."""

from __future__ import annotations

from django.core.cache import cache

# Links a process keeps open for the check at once (sockets and streams): a whole school
# checking in the same minute is a few dozen; beyond this, "try again in a moment".
MAX_OPEN = 200
# Echoes a check times on each link (the median is shown).
ECHOES = 5
# Page loads one address may make per window: a school's whole network shares one address,
# and every class of it may run the check in the same hour.
PAGE_LOADS_PER_ADDRESS = 120
WINDOW_SECONDS = 10 * 60


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
