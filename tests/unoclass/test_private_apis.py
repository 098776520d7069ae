"""Every private or undocumented API of a library the product uses, one named test each.

Each test checks the shape the product relies on, and the library version it was reviewed
at: an upgrade fails here first, naming the code to read again (linked from the code by a
comment naming the test). Behaviour is also covered where the product uses it
(tests/games/test_store.py, tests/games/realtime/, tests/unoclass/test_health.py).
"""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import channels
import channels_redis  # type: ignore[import-untyped]
import django
import pytest
from channels.layers import InMemoryChannelLayer
from django.db import connection, connections
from django.db.models import Model, Q
from django.dispatch import Signal

from games.models import Seat, Table
from lessons.models import Attempt

# The versions these uses were last reviewed at (major, minor).
DJANGO_REVIEWED = (5, 2)
CHANNELS_REVIEWED = (4, 3)
CHANNELS_REDIS_REVIEWED = (4, 3)


def _version(module: Any) -> tuple[int, int]:
    major, minor = str(module.__version__).split(".")[:2]
    return int(major), int(minor)


def _reviewed(module: Any, reviewed: tuple[int, int], where: str) -> None:
    assert _version(module) == reviewed, (
        f"{module.__name__} {module.__version__} is not the version {where} was reviewed at"
        f" ({reviewed}): read that code again, then update this test."
    )


# --- Django ----------------------------------------------------------------------------


def test_django_db_converters_are_what_store_calls() -> None:
    """games.store._converters: connection.ops.get_db_converters and Col.get_db_converters,
    what SQLCompiler.get_converters() combines for each selected column."""
    _reviewed(django, DJANGO_REVIEWED, "games/store.py (_converters)")
    for model in (Table, Seat):
        for field in model._meta.concrete_fields:
            column = field.get_col(model._meta.db_table)
            ours = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            compiler = model.objects.values_list(field.attname).query.get_compiler(connection.alias)
            compiler.setup_query()
            theirs = compiler.get_converters([col for col, _, _ in compiler.select])
            found = [c for c, _expr in theirs.values()][0] if theirs else []
            assert [getattr(c, "__func__", c) for c in ours] == [
                getattr(c, "__func__", c) for c in found
            ], field


def test_django_model_meta_concrete_fields_and_from_db() -> None:
    """games.store builds its SQL from Model._meta.concrete_fields (column order = select
    order) and its instances with Model.from_db (documented) from those attnames."""
    _reviewed(django, DJANGO_REVIEWED, "games/store.py (_lock_sql, _instances)")
    names = [f.attname for f in Table._meta.concrete_fields]
    assert names[0] == "id" and "state" in names and "last_moves" in names
    assert all(hasattr(f, "column") and hasattr(f, "get_col") for f in Table._meta.concrete_fields)
    assert list(inspect.signature(Model.from_db).parameters) == ["db", "field_names", "values"]


def test_django_features_has_select_for_update_of() -> None:
    """games.store._lock_sql: connection.features.has_select_for_update_of (FOR UPDATE OF)."""
    _reviewed(django, DJANGO_REVIEWED, "games/store.py (_lock_sql)")
    expected = connection.vendor == "postgresql"
    assert connection.features.has_select_for_update_of is expected


def test_django_signal_has_listeners() -> None:
    """games.store._insert_statement refuses a model with save receivers: Signal.has_listeners."""
    _reviewed(django, DJANGO_REVIEWED, "games/store.py (_insert_statement)")
    assert list(inspect.signature(Signal.has_listeners).parameters) == ["self", "sender"]
    signal = Signal()
    assert not signal.has_listeners(Attempt)

    def receiver(**kwargs: Any) -> None:
        pass

    signal.connect(receiver, sender=Attempt, weak=False)
    assert signal.has_listeners(Attempt) and not signal.has_listeners(Table)


@pytest.mark.django_db
def test_django_query_get_compiler_as_sql() -> None:
    """lessons/evidence/loading.py (_rows): Query.get_compiler(using=).as_sql() gives SQL and
    parameters that a cursor runs to the queryset's own rows (without its converters)."""
    _reviewed(django, DJANGO_REVIEWED, "lessons/evidence/loading.py (_rows)")
    query = Attempt.objects.filter(Q(turn=7) | Q(card="x")).values_list("id", "card")
    sql, params = query.query.get_compiler(using=query.db).as_sql()
    assert isinstance(sql, str) and list(params) == [7, "x"]
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.fetchall() == list(query)


@pytest.mark.django_db
def test_django_cursor_wrapper_cursor() -> None:
    """lessons/demo/history.py (insert_rows): CursorWrapper.cursor is the driver's cursor
    (psycopg's COPY on PostgreSQL)."""
    _reviewed(django, DJANGO_REVIEWED, "lessons/demo/history.py (insert_rows)")
    with connection.cursor() as cursor:
        assert cursor.cursor is not None and hasattr(cursor.cursor, "execute")


# --- Channels ---------------------------------------------------------------------------


def test_channels_in_memory_layer_sweeps_through_clean_expired() -> None:
    """games/realtime/process_layer.py overrides InMemoryChannelLayer._clean_expired (Channels'
    receive and group_send call it) and reads its `groups` and `channels`."""
    _reviewed(channels, CHANNELS_REVIEWED, "games/realtime/process_layer.py")
    assert callable(InMemoryChannelLayer._clean_expired)  # type: ignore[attr-defined]  # not in the stubs
    for method in (InMemoryChannelLayer.receive, InMemoryChannelLayer.group_send):
        assert "self._clean_expired()" in inspect.getsource(method), method
    layer = InMemoryChannelLayer()
    assert isinstance(layer.groups, dict) and isinstance(layer.channels, dict)


# --- channels_redis -----------------------------------------------------------------------


def test_channels_redis_pubsub_layer_privates() -> None:
    """games/realtime/pubsub_layer.py and unoclass/health.py (_forget_channel):
    RedisPubSubChannelLayer._get_layer() -> a loop layer with _get_group_channel_name,
    _get_shard and `channels`; a shard's _lock, _ensure_redis() and _redis; unsubscribe()."""
    _reviewed(
        channels_redis,
        CHANNELS_REDIS_REVIEWED,
        "games/realtime/pubsub_layer.py, unoclass/health.py",
    )
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection  # type: ignore[import-untyped]

    async def shape() -> None:
        layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1"])  # never connected
        loop_layer = layer._get_layer()
        assert loop_layer is layer._get_layer()  # one per event loop
        channel = loop_layer._get_group_channel_name("table_1")
        assert isinstance(channel, str) and channel
        shard = loop_layer._get_shard(channel)
        assert isinstance(shard, RedisSingleShardConnection)
        assert isinstance(shard._lock, asyncio.Lock)
        assert isinstance(loop_layer.channels, dict)
        assert callable(shard.unsubscribe)
        shard._ensure_redis()  # makes the client; connects on its first command
        assert callable(shard._redis.publish) and callable(shard._redis.pipeline)
        assert isinstance(layer.serialize({"type": "x"}), bytes)
        await layer.flush()

    asyncio.run(shape())


DAPHNE_REVIEWED = (4, 2)


def test_daphne_websocket_factory_seam() -> None:
    """unoclass/ws_deflate.py swaps `daphne.server.WebSocketFactory`, which `Server.run` reads
    at run time, and relies on daphne not setting `perMessageCompressionAccept` itself.

    Read from the source: importing daphne.server here would install Twisted's reactor in the
    test process."""
    from importlib.metadata import version
    from importlib.util import find_spec

    major, minor = (int(part) for part in version("daphne").split(".")[:2])
    assert (major, minor) == DAPHNE_REVIEWED, "daphne changed: read unoclass/ws_deflate.py again"
    spec = find_spec("daphne.server")
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text()
    assert "from .ws_protocol import WebSocketFactory" in source
    run = source[source.index("    def run(self):") :]
    assert "self.ws_factory = WebSocketFactory(" in run
    assert "perMessageCompressionAccept" not in source


def test_channels_async_http_consumer_stops_after_handle() -> None:
    """games/realtime/stream.py overrides `http_request` because Channels stops the consumer
    once `handle` returns (django/channels#1747): a stream must outlive it."""
    from channels.generic.http import AsyncHttpConsumer

    _reviewed(channels, CHANNELS_REVIEWED, "games/realtime/stream.py")
    source = inspect.getsource(AsyncHttpConsumer.http_request)
    assert "await self.handle(" in source and "raise StopConsumer()" in source
