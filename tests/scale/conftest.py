"""Fixtures of the scale-out tests: throwaway Redis and PostgreSQL servers (tests/servers.py)."""

from __future__ import annotations

from tests.servers import postgres_cluster, redis_server

__all__ = ["postgres_cluster", "redis_server"]
