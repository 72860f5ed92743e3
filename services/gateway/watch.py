"""The gateway's view of the whole pipeline and of the store.

:class:`PipelineWatch` measures, once a second, every stage's backlog from the
streams (:mod:`shared.observability.pipeline`), the dead letters, the tables
being played (the projector's live sets) and the store's own health (memory,
append-only file, stream lengths), exports them, and keeps the verdict that
``/ready`` answers with. A stalled or dead stage shows here even though it
cannot speak for itself. Every gateway replica measures the same store, so
dashboards and alerts aggregate these gauges with ``max``.

:class:`CommandWatch` measures what only the gateway that received a command
can: how long until the seat could see its effect.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections import OrderedDict
from typing import Any

import structlog

from shared.eventstore.keys import (
    CHANGES_CHANNEL,
    DEAD_LETTERS,
    command_stream,
    live_tables,
    partition_feed,
    validated_stream,
)
from shared.games import registry
from shared.infra import wallclock
from shared.infra.lua import is_cluster
from shared.messaging import deadletters
from shared.observability import metrics
from shared.observability.pipeline import Backlog, backlog, stalled, watched
from shared.tournaments.keys import tournament_command_stream

log = structlog.get_logger()
INTERVAL_S = 1.0

#: Gauges that describe the store: on a failed measurement they are removed
#: rather than left showing the last good values.
_STORE_GAUGES = (
    metrics.PROJECTION_LAG,
    metrics.STAGE_BACKLOG,
    metrics.STAGE_PENDING,
    metrics.STAGE_UNDELIVERED,
    metrics.LIVE_GAMES,
    metrics.STREAM_LENGTH,
    metrics.VALKEY_MEMORY,
    metrics.VALKEY_MAXMEMORY,
    metrics.VALKEY_SYSTEM_MEMORY,
    metrics.VALKEY_AOF_ENABLED,
    metrics.VALKEY_AOF_WRITE_OK,
    metrics.VALKEY_AOF_REWRITE_OK,
    metrics.VALKEY_CLIENTS,
)


def _partition(stream: str) -> str:
    # "zg:{p3}:feed" -> "3"; streams shared by every partition -> "-"
    start = stream.find("{p")
    return stream[start + 2 : stream.find("}", start)] if start >= 0 else "-"


def transport_streams(partitions: int) -> list[tuple[str, str, str]]:
    """(kind, partition, key) of every stream the pipeline passes messages through."""
    out = [("dead-letters", "-", DEAD_LETTERS), ("tournament-commands", "-", tournament_command_stream())]
    for p in range(partitions):
        out += [
            ("commands", str(p), command_stream(p)),
            ("validated", str(p), validated_stream(p)),
            ("feed", str(p), partition_feed(p)),
        ]
    return out


def _node_name(redis: Any) -> str:
    kwargs = redis.connection_pool.connection_kwargs
    if "path" in kwargs:
        return str(kwargs["path"])
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"


async def valkey_info(redis: Any) -> dict[str, dict[str, Any]]:
    """INFO of every primary, by node name."""
    if not is_cluster(redis):
        return {_node_name(redis): await redis.info()}
    await redis.initialize()
    nodes = redis.get_primaries()
    infos = await asyncio.gather(*(redis.info(target_nodes=node) for node in nodes))
    return {node.name: info for node, info in zip(nodes, infos, strict=True)}


def _ok(value: Any) -> int:
    return 1 if str(value) == "ok" else 0


class PipelineWatch:
    def __init__(
        self, redis: Any, partitions: int, stall_after_s: float, listener: Any = None, read: Any = None
    ) -> None:
        self.redis = redis
        #: The read models' server (the live sets): the store's unless they have their own.
        self.read = redis if read is None else read
        self.partitions = partitions
        self.stall_after_s = stall_after_s
        self.targets = watched(partitions)
        self.streams = transport_streams(partitions)
        self.games = registry.available()
        self.backlogs: list[Backlog] = []
        self.dead_letters = 0
        self.measured = False
        self.nodes: set[str] = set()
        #: End-to-end latency of this gateway's commands (needs a pub/sub connection).
        self.commands = CommandWatch(listener)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        metrics.STALL_AFTER.set(self.stall_after_s)
        self._task = asyncio.create_task(self._loop())
        self.commands.start()

    async def stop(self) -> None:
        await self.commands.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def measure(self) -> None:
        now_ms = wallclock.now_ms()
        self.backlogs = await backlog(self.redis, [(s, g) for _, s, g in self.targets], now_ms)
        self.dead_letters = await deadletters.count(self.redis)
        self.measured = True
        for (stage, stream, _), b in zip(self.targets, self.backlogs, strict=True):
            partition = _partition(stream)
            metrics.STAGE_BACKLOG.labels(stage, partition).set(b.oldest_s)
            metrics.STAGE_PENDING.labels(stage, partition).set(b.pending)
            metrics.STAGE_UNDELIVERED.labels(stage, partition).set(b.undelivered)
            if stage == "projector":
                metrics.PROJECTION_LAG.labels(partition).set(b.oldest_s)
        metrics.DEAD_LETTERS_WAITING.set(self.dead_letters)
        metrics.PIPELINE_READY.set(0 if self.problems() else 1)
        await self._measure_store()

    async def _measure_store(self) -> None:
        live_keys = [(g, live_tables(p, g)) for p in range(self.partitions) for g in self.games]
        async with self.redis.pipeline(transaction=False) as pipe:
            for _, _, key in self.streams:
                pipe.xlen(key)
            if self.read is self.redis:
                for _, key in live_keys:
                    pipe.scard(key)
            replies = await pipe.execute()
        if self.read is not self.redis:
            async with self.read.pipeline(transaction=False) as pipe:
                for _, key in live_keys:
                    pipe.scard(key)
                replies += await pipe.execute()
        for (kind, partition, _), length in zip(self.streams, replies[: len(self.streams)], strict=True):
            metrics.STREAM_LENGTH.labels(kind, partition).set(length)
        live = dict.fromkeys(self.games, 0)
        for (game, _), count in zip(live_keys, replies[len(self.streams) :], strict=True):
            live[game] += int(count)
        for game, count in live.items():
            metrics.LIVE_GAMES.labels(game).set(count)
        infos = await valkey_info(self.redis)
        # The read models' own server runs without AOF by design: its AOF is
        # not reported (the alert on a store without AOF would fire).
        read_infos = await valkey_info(self.read) if self.read is not self.redis else {}
        self.nodes |= infos.keys() | read_infos.keys()
        for node, info in (read_infos | infos).items():
            metrics.VALKEY_UP.labels(node).set(1)
            metrics.VALKEY_MEMORY.labels(node).set(info.get("used_memory", 0))
            metrics.VALKEY_MAXMEMORY.labels(node).set(info.get("maxmemory", 0))
            metrics.VALKEY_SYSTEM_MEMORY.labels(node).set(info.get("total_system_memory", 0))
            metrics.VALKEY_CLIENTS.labels(node).set(info.get("connected_clients", 0))
            if node in infos:
                metrics.VALKEY_AOF_ENABLED.labels(node).set(int(info.get("aof_enabled", 0)))
                metrics.VALKEY_AOF_WRITE_OK.labels(node).set(_ok(info.get("aof_last_write_status")))
                metrics.VALKEY_AOF_REWRITE_OK.labels(node).set(_ok(info.get("aof_last_bgrewrite_status")))

    def _unmeasured(self) -> None:
        """The store did not answer: say so, and show nothing measured before as current."""
        self.measured = False
        for gauge in _STORE_GAUGES:
            gauge.clear()
        for node in self.nodes:
            metrics.VALKEY_UP.labels(node).set(0)
        metrics.PIPELINE_READY.set(0)

    def problems(self) -> list[str]:
        out = stalled(self.backlogs, self.stall_after_s)
        if self.dead_letters:
            out.append(
                f"{self.dead_letters} dead letter(s) wait for an operator (ziggurat dead-letters list)"
            )
        return out

    async def _loop(self) -> None:
        while True:
            try:
                await self.measure()
            except asyncio.CancelledError:
                raise
            except Exception:
                self._unmeasured()
                metrics.ERRORS.labels("gateway", "watch").inc()
                log.warning("pipeline_watch_failed", exc_info=True)
            await asyncio.sleep(INTERVAL_S)


class CommandWatch:
    """What the gateway alone can measure about the commands it received.

    * The game of each table it has answered for, so that a command whose
      outcome never came (which therefore names no game) still counts against
      its game.
    * ``ziggurat_command_visible_seconds``: from this gateway's receipt of an
      accepted command to the projector's change notice for its version, the
      moment the seat's view shows it. The notice may overtake the outcome
      (they travel on different connections), so the versions notices
      announced are remembered for a while too.

    It listens to the notices on a connection of its own: what it needs (the
    versions, every notice in order, and knowing when notices were lost) is
    not what the live feeds need.
    """

    def __init__(self, listener: Any = None, limit: int = 100_000) -> None:
        self.listener = listener
        self.limit = limit
        self._games: OrderedDict[str, str] = OrderedDict()
        #: table id -> [(version, received_ns, game)] accepted here, not yet shown
        self._waiting: dict[str, list[tuple[int, int, str]]] = {}
        self._size = 0
        self._projected: OrderedDict[str, int] = OrderedDict()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.listener is not None:
            self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def game_of(self, table_id: str) -> str:
        return self._games.get(table_id, "-")

    def answered(self, table_id: str, game: str) -> None:
        if not game or game == "-":
            return
        self._games[table_id] = game
        self._games.move_to_end(table_id)
        if len(self._games) > self.limit:
            self._games.popitem(last=False)

    def accepted(self, table_id: str, game: str, version: int, received_ns: int) -> None:
        """A new version, accepted for a command this gateway received at ``received_ns``."""
        self.answered(table_id, game)
        if self._projected.get(table_id, 0) >= version:
            _visible(game).observe((time.time_ns() - received_ns) / 1e9)
            return
        self._waiting.setdefault(table_id, []).append((version, received_ns, game))
        self._size += 1
        if self._size > self.limit:  # notices stopped coming: forget the oldest table
            oldest = next(iter(self._waiting))
            self._size -= len(self._waiting.pop(oldest))

    def projected(self, table_id: str, version: int, now_ns: int) -> None:
        self._projected[table_id] = max(version, self._projected.pop(table_id, 0))
        if len(self._projected) > self.limit:
            self._projected.popitem(last=False)
        waiting = self._waiting.get(table_id)
        if not waiting:
            return
        still = []
        for entry in waiting:
            wanted, received_ns, game = entry
            if wanted <= version:
                _visible(game).observe(max(0, now_ns - received_ns) / 1e9)
            else:
                still.append(entry)
        self._size -= len(waiting) - len(still)
        if still:
            self._waiting[table_id] = still
        else:
            del self._waiting[table_id]

    def notice(self, data: bytes) -> None:
        """A change notice: a line ``<game id> <version>`` per game a batch changed."""
        now_ns = time.time_ns()
        for line in data.split(b"\n"):
            table_id, _, version = line.partition(b" ")
            if version:
                self.projected(table_id.decode(), int(version), now_ns)

    def lost(self) -> None:
        """Notices may have been missed: when those commands became visible is unknown."""
        self._waiting.clear()
        self._projected.clear()
        self._size = 0

    async def _listen(self) -> None:
        assert self.listener is not None
        async for notice in self.listener.messages(CHANGES_CHANNEL, self.lost, "gateway", copies=2):
            self.notice(notice)


@functools.lru_cache(maxsize=256)
def _visible(game: str) -> Any:
    """A game's visibility histogram (game keys are few; ``labels()`` costs more than the observation)."""
    return metrics.VISIBLE_LATENCY.labels(game)
