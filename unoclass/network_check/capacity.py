"""Bound what the network check may hold open and how often one address may load it."""

from __future__ import annotations

from django.core.cache import cache

# Links a process keeps open for the check at once (sockets and streams): a whole school
# checking in the same minute is a few dozen; beyond this, "try again in a moment".
MAX_OPEN = 200
# Of those, links one address (an IPv6 /64: games.realtime.addresses) may hold: a class of 30
# behind the school's one address checking at once holds 60 (each page keeps its socket and
# its stream open); one visitor no longer takes a whole process's places.
MAX_OPEN_PER_ADDRESS = 60
# Echoes a check times on each link (the median is shown).
ECHOES = 5
# Page loads one address may make per window: a school's whole network shares one address,
# and every class of it may run the check in the same hour.
PAGE_LOADS_PER_ADDRESS = 120
WINDOW_SECONDS = 10 * 60


class OpenLinks:
    """Count this process's open check links; refuse past MAX_OPEN, or past
    MAX_OPEN_PER_ADDRESS of one address group."""

    def __init__(self, limit: int = MAX_OPEN, per_address: int = MAX_OPEN_PER_ADDRESS) -> None:
        self.limit = limit
        self.per_address = per_address
        self.count = 0
        self.by_address: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more open link of `address` (its group); False (nothing counted) when
        the process's or the address's limit is reached."""
        held = self.by_address.get(address, 0)
        if self.count >= self.limit or held >= self.per_address:
            return False
        self.count += 1
        self.by_address[address] = held + 1
        return True

    def release(self, address: str) -> None:
        """Count one link of `address` fewer."""
        self.count = max(0, self.count - 1)
        held = self.by_address.pop(address, 0) - 1
        if held > 0:
            self.by_address[address] = held


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
