"""One way to connect: a plain server or a Redis Cluster, chosen by settings.

On a cluster, one node's failure must stay that node's (docs/architecture.md,
"Riding a failover"). redis-py's cluster client, as it comes, does not keep it
so: a command that cannot reach one node closes the connections to every node
(``ClusterDownError``, a pipeline's retry), every fifth ``MOVED`` does the same,
each re-read of the slot map marks every connection for reconnecting, and a
pipeline spanning nodes fails whole, after ten retries, when one node does
not answer. :class:`FailoverCluster` keeps it to the node: a pipeline sends one
request per node and a failed node fails only its own commands; a failure
re-reads the slot map (asking the nodes not suspected first) and leaves the
other nodes' connections alone; a node that does not answer within the socket
timeout (paused, cut off) counts as failed. Pub/sub follows the store's nodes
(:class:`Subscriber`, :class:`Publisher`): nothing waits on the one node named
in the URL.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import random
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import hiredis
import msgspec
import redis.asyncio as aioredis
import structlog
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, NodesManager, PipelineCommand, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    DataError,
    MovedError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shared.infra.lua import is_cluster
from shared.infra.wire import LeanRedis, Wire
from shared.observability import metrics

if TYPE_CHECKING:
    from shared.infra.settings import Settings

log = structlog.get_logger()

#: What a request or a stage meets while the store, or one of its nodes, is
#: unreachable or failing over: a connection refused, reset or silent past its
#: timeout, a cluster between two views of itself (``CLUSTERDOWN``, ``TRYAGAIN``,
#: redirections that do not settle, a slot nobody serves), a node still loading
#: or turned replica. Never a message's fault; at the edge, the retryable 503.
STORE_DOWN: tuple[type[Exception], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterDownError,
    ClusterError,
    TryAgainError,
    MovedError,
    AskError,
    ReadOnlyError,
    RedisClusterException,
)
#: :data:`STORE_DOWN`, and the operating system's own socket errors.
UNREACHED: tuple[type[Exception], ...] = (*STORE_DOWN, OSError)
#: Attempts of one command on a cluster: the second after re-reading the slot
#: map (a failover moved it). Callers meet an outage as such and retry later.
_ATTEMPTS = 2
#: A re-read of the slot map that got no answer within ``reread_s`` asks again
#: (the nodes in another order) this many times, then waits as long as it takes.
_REREADS = 3


class StoreTimeouts(msgspec.Struct, frozen=True, kw_only=True):
    """How long the store's client waits before it counts a node as failed, and
    how long it keeps that in mind: the ``store_*`` settings (shared/infra/settings.py,
    docs/reliability.md, "The store client's timeouts"), read with :meth:`of`.
    The defaults are the settings' defaults."""

    #: Commands no reply to which comes this late count the node as failed (a
    #: cluster's; one server's client waits as long as it takes). Above the longest
    #: block of a stage's read (0.5 s); :func:`store_client` adds a durability wait.
    socket_s: float = 5.0
    #: A connection not made within this long counts the node as failed.
    connect_s: float = 1.0
    #: A node that failed is asked last (slot maps, pub/sub) for this long.
    suspect_s: float = 10.0
    #: A re-read of the slot map waits this long for an answer before asking again.
    reread_s: float = 1.0
    #: Pub/sub: a ping after this long without a message ...
    ping_every_s: float = 1.0
    #: ... and the node counts as silent (paused, cut off) when nothing came for this long.
    silent_s: float = 3.0
    #: A publish not answered within this long is sent again through another node.
    publish_s: float = 2.0
    #: A listener whose node failed subscribes again (on another) after this pause.
    resubscribe_pause_s: float = 0.2

    @classmethod
    def of(cls, settings: Settings) -> StoreTimeouts:
        return cls(
            socket_s=settings.store_socket_timeout_s,
            connect_s=settings.store_connect_timeout_s,
            suspect_s=settings.store_suspect_s,
            reread_s=settings.store_reread_s,
            ping_every_s=settings.store_ping_every_s,
            silent_s=settings.store_silent_s,
            publish_s=settings.store_publish_timeout_s,
            resubscribe_pause_s=settings.store_resubscribe_pause_s,
        )


DEFAULT_TIMEOUTS = StoreTimeouts()
#: Messages a subscriber listening on several nodes remembers, to drop their copies.
_REMEMBERED = 4096
#: Commands whose keys follow ``STREAMS``.
_STREAM_READS = frozenset({"XREAD", "XREADGROUP"})
#: Inside redis-py's own handling of a command: its "close everything" means
#: "re-read the slot map" here (:meth:`FailoverCluster.aclose`).
_IN_COMMAND: contextvars.ContextVar[bool] = contextvars.ContextVar("in_cluster_command", default=False)


class PackedConnection(aioredis.Connection):
    """Commands serialised by hiredis (C) instead of redis-py's Python packer.

    The asyncio client packs every argument in Python; for a pipeline of Lua
    calls with dozens of arguments each that was the largest single CPU cost
    of the validator, reducer and projector (bench/, with ``--profile``).
    hiredis produces the same bytes about four times faster. It also counts
    round trips (a pipeline is one), which is what the pipeline's design
    minimises and ``bench.pipeline`` reports per command.
    """

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        metrics.REDIS_ROUND_TRIPS.inc()
        await super().send_packed_command(command, check_health)

    def pack_command(self, *args: Any) -> list[bytes]:
        # Like redis-py: a command name with a space ("SCRIPT LOAD") is sent as two words.
        first = args[0]
        if isinstance(first, str):
            args = (*first.encode().split(), *args[1:])
        elif b" " in first:
            args = (*first.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError as exc:  # redis-py's error for an argument it cannot send
            raise DataError(str(exc)) from exc


def connect(url: str, cluster: bool = False, timeouts: StoreTimeouts = DEFAULT_TIMEOUTS) -> Any:
    """A client of the store at ``url``; its :class:`Subscriber` and :class:`Publisher`
    wait as ``timeouts`` say too (they find them on the client)."""
    if cluster:
        # A cluster client builds its node connections itself (redis-py's packer).
        cluster_client = FailoverCluster.from_url(
            url,
            socket_timeout=timeouts.socket_s,
            socket_connect_timeout=timeouts.connect_s,
            reinitialize_steps=0,  # a MOVED patches its slot; it never closes every connection
            retry=Retry(NoBackoff(), _ATTEMPTS - 1),
        )
        cluster_client.keep(timeouts)
        return cluster_client
    # Pipelines and plain commands over the thin path (shared/infra/wire.py);
    # transactions and pub/sub through redis-py's pool of packed connections.
    client = cast(LeanRedis, LeanRedis.from_url(url, connection_class=PackedConnection))
    client.wire = Wire.from_url(url)
    client.timeouts = timeouts  # type: ignore[attr-defined]
    return client


def store_client(settings: Settings) -> Any:
    """The store's client for a service: a silent node's replies are waited for
    past the longest wait the durability level asks of it, not longer."""
    timeouts = StoreTimeouts.of(settings)
    socket_s = max(timeouts.socket_s, settings.durability_timeout_ms / 1000 + 1.0)
    return connect(settings.redis_url, settings.cluster, msgspec.structs.replace(timeouts, socket_s=socket_s))


def timeouts_of(store: Any) -> StoreTimeouts:
    """The timeouts ``store`` was connected with (:func:`connect`)."""
    found = getattr(store, "timeouts", None)
    return found if isinstance(found, StoreTimeouts) else DEFAULT_TIMEOUTS


class FailoverCluster(RedisCluster):
    """redis-py's cluster client, with a node's failure kept to that node (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Node name -> when it last failed: asked last while it is recent.
        self.suspects: dict[str, float] = {}
        self.timeouts = DEFAULT_TIMEOUTS
        old = self.nodes_manager
        self.nodes_manager = _KeptNodes(
            list(old.startup_nodes.values()),
            old.require_full_coverage,
            old.connection_kwargs,
            dynamic_startup_nodes=old._dynamic_startup_nodes,
            address_remap=old.address_remap,
            event_dispatcher=old._event_dispatcher,
        )
        self.nodes_manager.suspects = self.suspects
        self.nodes_manager.timeouts = self.timeouts
        for node in self.nodes_manager.startup_nodes.values():
            _adopt(node)

    def keep(self, timeouts: StoreTimeouts) -> None:
        """Wait as ``timeouts`` say (the socket ones are the connections' own, given apart)."""
        self.timeouts = self.nodes_manager.timeouts = timeouts

    async def initialize(
        self,
        additional_startup_nodes_info: list[tuple[str, int]] | None = None,
        last_failed_node_name: str | None = None,
    ) -> FailoverCluster:
        """Re-read the slot map if a failure asked for it. Unlike redis-py's, a
        failed re-read closes nothing, and the command table (``COMMAND``, asked
        of the default node, which may be the one that died) is learnt once."""
        if self._initialize:
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                if self._initialize:
                    await self.nodes_manager.initialize(additional_startup_nodes_info, last_failed_node_name)
                    if not self.commands_parser.commands:
                        await self._learn_commands()
                    self._initialize = False
        return self

    async def _learn_commands(self) -> None:
        failure: Exception | None = None
        for node in sorted(self.get_primaries(), key=lambda n: self.suspected(n.name)):
            try:
                await self.commands_parser.initialize(node)
                return
            except UNREACHED as exc:
                failure = exc
        raise failure or RedisClusterException("no primary to learn the commands from")

    async def _determine_slot(self, command: Any, *args: Any) -> int:
        # redis-py asks the server (COMMAND GETKEYS, one round trip, always to the
        # node it learnt its commands from) where the keys of a command whose keys
        # move are; a stream read's are the first half of what follows STREAMS.
        name = command.decode() if isinstance(command, bytes) else str(command)
        if name.upper() in _STREAM_READS:
            words = [a.decode() if isinstance(a, bytes) else str(a) for a in args]
            at = next((i for i, w in enumerate(words) if w.upper() == "STREAMS"), None)
            if at is not None:
                rest = args[at + 1 :]
                slots = {self.keyslot(key) for key in rest[: len(rest) // 2]}
                if len(slots) == 1:
                    return slots.pop()
        return await super()._determine_slot(command, *args)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if transaction or shard_hint:
            return super().pipeline(transaction, shard_hint)
        return NodePipeline(self)  # type: ignore[abstract]

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if self._initialize:
            # redis-py works out a command's node before it reads the slot map:
            # without a map, a keyed command goes to a random node (one that
            # died, in a failover, and again on each retry).
            await self.initialize()
        token = _IN_COMMAND.set(True)
        try:
            return await super().execute_command(*args, **kwargs)
        finally:
            _IN_COMMAND.reset(token)

    async def aclose(self) -> None:
        """Close every connection; but inside a command, where redis-py closes
        everything because one node answered ``CLUSTERDOWN`` or a slot had no
        node, only re-read the slot map before the next command."""
        if _IN_COMMAND.get():
            self._initialize = True
            return
        # redis-py closes only a client it thinks initialized; here a re-read may be
        # due (a failure) while the connections are there all the same.
        self._initialize = False
        await super().aclose()

    def failed(self, node: ClusterNode) -> None:
        """``node`` did not answer: its connections go, the slot map is read again
        before the next command (from the nodes not suspected first)."""
        self.suspects[node.name] = time.monotonic()
        _recycle(node)
        self._initialize = True

    def suspected(self, name: str) -> bool:
        since = self.suspects.get(name)
        return since is not None and time.monotonic() - since < self.timeouts.suspect_s


class _KeptNodes(NodesManager):
    """The slot map of a :class:`FailoverCluster`: re-read from the nodes not
    suspected first, and without closing the connections of the nodes that stay."""

    __slots__ = ("suspects", "timeouts")
    suspects: dict[str, float]
    timeouts: StoreTimeouts

    def move_node_to_end_of_cached_nodes(self, node_name: str) -> None:
        # redis-py calls this for the node a command could not reach.
        self.suspects[node_name] = time.monotonic()
        super().move_node_to_end_of_cached_nodes(node_name)

    def set_nodes(
        self, old: dict[str, ClusterNode], new: dict[str, ClusterNode], remove_old: bool = False
    ) -> None:
        # redis-py marks every kept node's connections for reconnecting at every
        # re-read; only a node whose role changed needs that (its connections
        # may hold a replica's state).
        if remove_old:
            for name in [n for n in old if n not in new]:
                removed = old.pop(name)
                removed.update_active_connections_for_reconnect()
                task = asyncio.create_task(_close_free(removed))
                self._background_tasks.add(task)
                task.add_done_callback(self._background_tasks.discard)
        for name, node in new.items():
            kept = old.get(name)
            if kept is None:
                old[name] = _adopt(node)
            elif kept.server_type != node.server_type:
                kept.server_type = node.server_type
                _recycle(kept)

    async def initialize(
        self,
        additional_startup_nodes_info: list[tuple[str, int]] | None = None,
        last_failed_node_name: str | None = None,
    ) -> None:
        # redis-py asks the nodes one by one; one that is silent but not yet
        # suspected (paused) would hold the re-read, and every command of the
        # process behind it, for its whole socket timeout: a few short tries
        # (each asks the nodes in another order) first.
        for _ in range(_REREADS):
            try:
                await asyncio.wait_for(
                    self._reread(additional_startup_nodes_info, last_failed_node_name), self.timeouts.reread_s
                )
                return
            except TimeoutError:
                continue
        await self._reread(additional_startup_nodes_info, last_failed_node_name)

    async def _reread(
        self, additional_startup_nodes_info: list[tuple[str, int]] | None, last_failed_node_name: str | None
    ) -> None:
        now = time.monotonic()
        recent = {n for n, at in self.suspects.items() if now - at < self.timeouts.suspect_s}
        trusted = {n: node for n, node in self.startup_nodes.items() if n not in recent}
        if recent and trusted:
            # A silent node asked first would hold the re-read for its whole timeout.
            everyone, self.startup_nodes = self.startup_nodes, trusted
            try:
                await super().initialize(additional_startup_nodes_info, last_failed_node_name)
                return  # (the re-read replaced the startup nodes with every node it found)
            except RedisClusterException:
                self.startup_nodes = everyone  # none of them answered: ask the suspects too
            except BaseException:
                self.startup_nodes = everyone
                raise
        await super().initialize(additional_startup_nodes_info, last_failed_node_name)


class _KeptNode(ClusterNode):
    """A node of a :class:`FailoverCluster`: its idle connections close out of the
    pool (:func:`_close_free`). redis-py closes them in place whenever a command
    meets a failed connection of the node, and a command of another task could
    take one mid-close: a reply read from a socket that is going (an
    AttributeError, a 500 at the edge; seen in the chaos test)."""

    __slots__ = ()

    async def disconnect_free_connections(self) -> None:
        await _close_free(self)


def _adopt(node: ClusterNode) -> ClusterNode:
    """``node``, made a :class:`_KeptNode` (redis-py builds its nodes itself, as
    plain ``ClusterNode``; the subclass adds no state, only the way it closes)."""
    if type(node) is ClusterNode:
        node.__class__ = _KeptNode
    return node


async def _close_free(node: ClusterNode) -> None:
    """Close the idle connections of a node that left the slot map.

    Taken out of the pool while they close: redis-py's own
    ``disconnect_free_connections`` closes them in place, so a command that
    still holds the node (its slot looked up a moment before) could take one
    mid-close and write to a connection without a socket (an AttributeError, a
    500 at the edge). Put back closed, they connect again on their next use.
    """
    idle = list(node._free)
    node._free.clear()
    try:
        await asyncio.gather(*(c.disconnect() for c in idle), return_exceptions=True)
    finally:
        node._free.extend(idle)


def _recycle(node: ClusterNode) -> None:
    """Every connection of ``node`` is closed once its current command is done."""
    node.update_active_connections_for_reconnect()
    for connection in tuple(node._free):
        connection.mark_for_reconnect()  # type: ignore[no-untyped-call]


class NodePipeline(ClusterPipeline):
    """A pipeline on the cluster: one request per node, sent together.

    A node that fails fails only its own commands (each gets the error in its
    place, as any error reply), and the client re-reads the slot map before
    its next command; redirected commands (a failover moved their slot) are
    sent again one by one, as redis-py does. Nothing else is retried here: a
    caller meets one node's outage as an outage, and the others' replies as usual.
    """

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> list[Any]:
        results = await self._run(allow_redirections, None)
        if raise_on_error:
            for result in results:
                if isinstance(result, Exception):
                    raise result
        return results

    async def execute_each(self, settle: Callable[[int, Any], None]) -> None:
        """:meth:`execute` without raising, each command's reply (or error) told to
        ``settle`` with its place as soon as its node answered: a node that is slow
        to fail (paused, cut off) holds up only its own commands' callers."""
        await self._run(True, settle)

    async def _run(self, allow_redirections: bool, settle: Callable[[int, Any], None] | None) -> list[Any]:
        queue: list[PipelineCommand] = self._execution_strategy._command_queue  # type: ignore[attr-defined]
        if not queue:
            return []
        client = cast(FailoverCluster, self.cluster_client)
        redirected = (MovedError, AskError, TryAgainError) if allow_redirections else ()

        def told(commands: list[PipelineCommand]) -> None:
            if settle is not None:
                for command in commands:
                    if not isinstance(command.result, redirected):
                        settle(command.position, command.result)

        try:
            if client._initialize:
                await client.initialize()
            by_node: dict[str, tuple[ClusterNode, list[PipelineCommand]]] = {}
            unplaced: list[PipelineCommand] = []
            for command in queue:
                try:
                    slot = await client._determine_slot(*command.args)
                    node = client.nodes_manager.get_node_from_slot(slot)
                except Exception as exc:  # its own reply, as any error reply
                    command.result = exc
                    unplaced.append(command)
                    continue
                by_node.setdefault(node.name, (node, []))[1].append(command)
            told(unplaced)

            async def on(node: ClusterNode, commands: list[PipelineCommand]) -> None:
                await _on_node(client, node, commands)
                told(commands)

            await asyncio.gather(*(on(node, commands) for node, commands in by_node.values()))
            for command in queue:
                if redirected and isinstance(command.result, redirected):
                    try:
                        command.result = await client.execute_command(*command.args, **command.kwargs)
                    except Exception as exc:
                        command.result = exc
                    if settle is not None:
                        settle(command.position, command.result)
            return [command.result for command in queue]
        finally:
            await self.reset()  # type: ignore[no-untyped-call]


async def _on_node(client: FailoverCluster, node: ClusterNode, commands: list[PipelineCommand]) -> None:
    """:func:`node_round`, a node that does not answer failing only its own commands."""
    try:
        await node_round(client, node, commands)
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        for command in commands:
            command.result = exc


async def node_round(client: Any, node: ClusterNode, commands: list[PipelineCommand]) -> None:
    """``node.execute_pipeline``; a node that does not answer, or whose replies
    could not be read, counts as failed (:meth:`FailoverCluster.failed`)."""
    try:
        await node.execute_pipeline(commands)
    except (RedisConnectionError, RedisTimeoutError, OSError):
        if isinstance(client, FailoverCluster):
            client.failed(node)
        raise
    if _read_failed(node, commands) and isinstance(client, FailoverCluster):
        client.failed(node)


def _read_failed(node: ClusterNode, commands: list[PipelineCommand]) -> bool:
    """Whether reading a reply of ``node`` failed for any of ``commands``.

    redis-py keeps whatever reading a reply raised as that command's result.
    The server's own errors are RedisErrors; anything else means the connection
    broke under the read: the node's failure, not a bug of the caller's, and
    retryable like any other, so it is made a connection error in its place.
    """
    for command in commands:
        if isinstance(command.result, Exception) and not isinstance(command.result, RedisError):
            log.warning("store_reply_unreadable", node=node.name, error=repr(command.result))
            unreadable = RedisConnectionError(f"The reply from {node.name} could not be read.")
            unreadable.__cause__ = command.result
            command.result = unreadable
    return any(isinstance(c.result, RedisConnectionError | RedisTimeoutError) for c in commands)


# ----------------------------------------------------------------- the nodes


async def nodes(store: Any) -> list[tuple[str, int]]:
    """The store's nodes (host, port), those not suspected of failing first.

    On a cluster every node, replicas too, from the client's slot map (read
    again first if a failure asked for it), so the node named in the URL is
    only where the first map came from.
    """
    if not is_cluster(store):
        kwargs = store.connection_pool.connection_kwargs
        return [(str(kwargs.get("host", "127.0.0.1")), int(kwargs.get("port", 6379)))]
    if store._initialize:
        await store.initialize()
    found = [(n.host, int(n.port)) for n in store.get_nodes()]
    random.shuffle(found)  # the gateways' listeners spread over the nodes
    suspected = getattr(store, "suspected", lambda _: False)
    return sorted(found, key=lambda hp: suspected(f"{hp[0]}:{hp[1]}"))


def _suspect(store: Any, host: str, port: int) -> None:
    if isinstance(store, FailoverCluster):
        store.suspects[f"{host}:{port}"] = time.monotonic()
        store._initialize = True


async def reachable(store: Any, timeout_s: float) -> bool:
    """Whether any node of the store answers a ping within ``timeout_s``: a
    cluster one of whose shards fails over still serves the others' partitions."""
    if not is_cluster(store):
        await asyncio.wait_for(store.ping(), timeout=timeout_s)
        return True

    async def ping(host: str, port: int) -> bool:
        client = _plain(host, port, timeout_s, timeouts_of(store).connect_s)
        try:
            return bool(await asyncio.wait_for(client.ping(), timeout=timeout_s))
        except UNREACHED:
            return False
        finally:
            await client.aclose()

    primaries = [(n.host, int(n.port)) for n in (await _initialized(store)).get_primaries()]
    return any(await asyncio.gather(*(ping(h, p) for h, p in primaries)))


def _plain(host: str, port: int, timeout_s: float | None, connect_s: float) -> aioredis.Redis:
    """A client of one node that tries once: the caller moves on to another node."""
    return aioredis.Redis(
        host=host,
        port=port,
        socket_timeout=timeout_s,
        socket_connect_timeout=min(timeout_s or connect_s, connect_s),
        retry=Retry(NoBackoff(), 0),
    )


async def _initialized(store: Any) -> Any:
    if store._initialize:
        await store.initialize()
    return store


class Subscriber:
    """Pub/sub subscriptions that follow the store's nodes.

    In a cluster a ``PUBLISH`` reaches every node, so a subscriber may listen on
    any: it listens on one that answers, and when that node fails, or falls
    silent (a ping it does not answer within ``silent_s``: paused, cut off),
    on another. Pub/sub keeps nothing for an absent subscriber, so each
    (re)subscription is reported: messages may have been missed in between.
    With ``copies`` > 1 it listens on that many nodes at once, so one node's
    failure loses nothing, and each message is passed on once: a message is
    owed by the other copies once heard, and what they bring of it is dropped
    (the same bytes published again later, a notice of a version the store
    lost and wrote again, are passed on again).
    """

    def __init__(self, store: Any) -> None:
        self.store = store
        self.timeouts = timeouts_of(store)

    async def messages(
        self, channel: str, subscribed: Callable[[], None], service: str, copies: int = 1
    ) -> AsyncIterator[bytes]:
        """Every message on ``channel``, for ever; ``subscribed()`` at each (re)subscription."""
        if copies == 1 or not is_cluster(self.store):  # one server: one node to listen on
            async for message in self._listen(channel, subscribed, lambda: None, service, set()):
                yield message
            return
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        held: set[tuple[str, int]] = set()  # the nodes listened on now, one per copy
        listening = 0

        def joined() -> None:
            # Messages can have been missed only while no copy was listening.
            nonlocal listening
            listening += 1
            if listening == 1:
                subscribed()

        def left() -> None:
            nonlocal listening
            listening -= 1

        async def copy() -> None:
            async for message in self._listen(channel, joined, left, service, held):
                queue.put_nowait(message)

        tasks = [asyncio.create_task(copy()) for _ in range(copies)]
        owed: OrderedDict[bytes, int] = OrderedDict()  # message -> copies of it still to come
        try:
            while True:
                message = await queue.get()
                digest = hashlib.blake2b(message, digest_size=16).digest()
                if owed.get(digest, 0) > 0:
                    owed[digest] -= 1
                    continue
                owed[digest] = listening - 1
                owed.move_to_end(digest)
                if len(owed) > _REMEMBERED:
                    owed.popitem(last=False)
                yield message
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _listen(
        self,
        channel: str,
        subscribed: Callable[[], None],
        unsubscribed: Callable[[], None],
        service: str,
        held: set[tuple[str, int]],
    ) -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        t = self.timeouts
        while True:
            client: aioredis.Redis | None = None
            node = ("", 0)
            listening = False
            try:
                found = await nodes(self.store)
                node = next((n for n in found if n not in held), found[0])  # another copy's, if none is free
                held.add(node)
                client = _plain(*node, None, t.connect_s)
                async with client.pubsub() as pubsub:
                    await asyncio.wait_for(pubsub.subscribe(channel), t.silent_s)
                    subscribed()
                    listening = True
                    heard, pinged = loop.time(), False
                    while True:
                        message = await pubsub.get_message(timeout=t.ping_every_s)
                        now = loop.time()
                        if message is not None:
                            heard, pinged = now, False
                            if message["type"] == "message":
                                yield message["data"]
                        elif pinged and now - heard > t.silent_s:
                            raise RedisTimeoutError(f"{node[0]}:{node[1]} fell silent")
                        elif not pinged and now - heard > t.ping_every_s:
                            await pubsub.ping()
                            pinged = True
            except asyncio.CancelledError:
                raise
            except Exception:
                metrics.ERRORS.labels(service, "listener").inc()
                log.warning("listener_failed", channel=channel, node=f"{node[0]}:{node[1]}", exc_info=True)
                if node[0]:
                    _suspect(self.store, *node)
                await asyncio.sleep(t.resubscribe_pause_s)
            finally:
                if listening:
                    unsubscribed()
                held.discard(node)
                if client is not None:
                    await client.aclose()


class Publisher:
    """PUBLISH that works on one server and on a cluster.

    On one server the messages ride in the caller's pipeline. A cluster's
    pipelines refuse PUBLISH, so there they go out right after the pipeline,
    through a plain connection to one node (a PUBLISH reaches every node);
    when that node fails or does not answer in ``publish_s``, to
    another. (A message sent twice that way is harmless: replies and notices
    are idempotent.)
    """

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.cluster = is_cluster(redis)
        self.timeouts = timeouts_of(redis)
        self._plain: aioredis.Redis | None = None
        self._node = ("", 0)

    def queue(self, pipe: Any, messages: Sequence[tuple[str, bytes | str]]) -> None:
        if not self.cluster:
            for channel, message in messages:
                pipe.publish(channel, message)

    async def after(self, messages: Sequence[tuple[str, bytes | str]]) -> None:
        if not self.cluster or not messages:
            return
        failure: Exception | None = None
        for _ in range(3):
            # Several loops of a process publish at once (a cluster's stages read
            # each partition in a loop of its own): each keeps the connection it
            # sent through, and only the first to see it fail replaces it.
            plain, node = await self._connection()
            try:
                await asyncio.gather(*(plain.publish(channel, m) for channel, m in messages))
                return
            except UNREACHED as exc:
                failure = exc
                _suspect(self.redis, *node)
                if self._plain is plain:
                    self._plain = None
                await plain.aclose()
        assert failure is not None
        raise failure

    async def _connection(self) -> tuple[aioredis.Redis, tuple[str, int]]:
        if self._plain is None:
            node = (await nodes(self.redis))[0]
            if self._plain is None:  # no other loop opened one meanwhile
                self._node = node
                self._plain = _plain(*node, self.timeouts.publish_s, self.timeouts.connect_s)
        return self._plain, self._node
