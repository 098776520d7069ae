"""Fixtures of the scale-out tests: throwaway Redis and PostgreSQL (tests/support/servers.py)."""

from __future__ import annotations

from tests.support.servers import postgres_cluster, redis_server

__all__ = ["postgres_cluster", "redis_server"]
