"""Durability levels: what an acknowledged append has survived, and how that is made so.

| level | the store's servers | before the reducer answers a batch |
|---|---|---|
| ``local`` | AOF ``everysec`` | nothing: the primary ran the append |
| ``fsync`` | AOF ``always`` | nothing: the primary wrote it to disk first |
| ``replicated`` | ``everysec``, min-replicas R | ``WAIT R``: R replicas hold it |
| ``replicated-fsync`` | ``always``, min-replicas R | ``WAITAOF 1 R``: on its and R replicas' disks |

(min-replicas R: ``min-replicas-to-write R``.)

docs/reliability.md ("Durability levels") says what each promises and what not.

``WAIT`` and ``WAITAOF`` wait for the replication offset of the *connection*
they are sent on, as of its last write. So the confirmation rides behind the
appends, on the connection that carried them, to the node that ran them
(:func:`run_confirmed`): a ``WAIT`` on another connection would answer at once
for writes it does not cover, and one sent to another node after a failover
would count that node's replicas for writes it may never have had. Before it,
one small write of its own (:func:`marker`) moves the connection's offset to
the node's latest, so it also covers what the batch answers without appending
(a retried command's first outcome, read from the dedup hash): everything the
node held when the batch was answered, the earlier write included.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, get_args

import msgspec
from redis._parsers.base import BaseParser
from redis.asyncio.cluster import PipelineCommand
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from shared.infra.lua import Call, LuaScript, is_cluster
from shared.infra.redis_client import node_round

if TYPE_CHECKING:  # the settings name the levels: imported for the annotation only
    from shared.infra.settings import Settings

Level = Literal["local", "fsync", "replicated", "replicated-fsync"]
LEVELS: tuple[Level, ...] = get_args(Level)
#: Rounds of redirection (a slot that moved in a failover) before the batch counts as an outage.
_ROUNDS = 3


def appendfsync(level: Level) -> str:
    """The servers' ``appendfsync`` for a level."""
    return "always" if level in ("fsync", "replicated-fsync") else "everysec"


def replicated(level: Level) -> bool:
    return level in ("replicated", "replicated-fsync")


def server_args(level: Level, replicas: int, max_lag_s: int) -> list[str]:
    """What every node of the store is started with for ``level``.

    Under the replicated levels a primary refuses writes (``NOREPLICAS``) while
    fewer than ``replicas`` replicas have acknowledged it within ``max_lag_s``:
    a primary cut off from its replicas, which a failover may be about to
    replace, accepts nothing the new primary will not have.
    """
    return [
        "--appendfsync", appendfsync(level),
        "--min-replicas-to-write", str(replicas if replicated(level) else 0),
        "--min-replicas-max-lag", str(max_lag_s),
    ]  # fmt: skip


def hash_tag(key: str) -> str:
    """The part of ``key`` Redis Cluster hashes: the first non-empty ``{...}``, else all of it."""
    start = key.find("{")
    if start >= 0:
        end = key.find("}", start + 1)
        if end > start + 1:
            return key[start + 1 : end]
    return key


def marker(key: str) -> str:
    """A key in ``key``'s slot, counting the confirmations sent there (a few bytes per slot)."""
    return f"zg:{{{hash_tag(key)}}}:durable"


class Confirmation(msgspec.Struct, frozen=True, kw_only=True):
    """How a replicated level confirms a batch: the commands sent after its writes, and their reading."""

    level: Level
    #: R: replicas that must hold (or, under ``replicated-fsync``, have written to disk) each write.
    replicas: int
    #: How long the primary waits for them before it answers with how many did.
    timeout_ms: int

    def commands(self, key: str) -> list[tuple[Any, ...]]:
        """For the node that owns ``key``'s slot: the marker write, then the wait."""
        wait: tuple[Any, ...] = (
            ("WAITAOF", 1, self.replicas, self.timeout_ms)
            if self.level == "replicated-fsync"
            else ("WAIT", self.replicas, self.timeout_ms)
        )
        return [("INCR", marker(key)), wait]

    def confirmed(self, replies: Sequence[Any]) -> bool:
        """Whether the replies to :meth:`commands` (errors in place) say every write is held."""
        if len(replies) != 2 or any(isinstance(r, Exception) for r in replies):
            return False
        waited = replies[1]
        if self.level == "replicated-fsync":
            local, remote = (int(x) for x in waited)
            return local >= 1 and remote >= self.replicas
        return int(waited) >= self.replicas


def confirmation(level: Level, replicas: int, timeout_ms: int) -> Confirmation | None:
    """None for the levels the primary's own reply already satisfies."""
    return Confirmation(level=level, replicas=replicas, timeout_ms=timeout_ms) if replicated(level) else None


def configured(settings: Settings) -> Confirmation | None:
    """The deployment's level (``ZIGGURAT_DURABILITY`` and its replicas and timeout)."""
    return confirmation(settings.durability, settings.durability_replicas, settings.durability_timeout_ms)


class Unconfirmed(RedisConnectionError):
    """The replicas did not confirm a write within the level's timeout: it may not
    survive a failover, so it is not acknowledged. An outage to every caller (503
    ``unavailable``, retryable): a retry with the same command id is answered
    with the write's first outcome once the replicas confirm it."""


class NoReplicasError(ResponseError, RedisConnectionError):
    """``NOREPLICAS``: a primary refused a write for want of good replicas
    (``min-replicas-to-write``). An error reply, so redis-py raises it where it
    raises the others (a pipeline keeps it in place); and an outage, so every
    stage waits and reads its entries again rather than counting it against a
    message, and the gateway answers 503 ``unavailable`` as for a store it cannot reach.
    """


# redis-py (and the thin path, shared/infra/wire.py) turn an error reply into
# the class this table names for its first word.
BaseParser.EXCEPTION_CLASSES["NOREPLICAS"] = NoReplicasError


def refused_for_replicas(exc: BaseException) -> bool:
    """The store refused a write because too few replicas are in reach (``min-replicas-to-write``)."""
    return isinstance(exc, NoReplicasError)


async def run_confirmed(
    script: LuaScript, redis: Any, calls: Sequence[Call], confirm: Confirmation
) -> tuple[list[Any], bool]:
    """Run every call as :meth:`LuaScript.run` does, each node's calls followed on
    the same connection by ``confirm``'s commands: (the results, whether every
    node confirmed). A script's error (``NOREPLICAS`` included) is raised.
    """
    if is_cluster(redis):
        return await _cluster(script, redis, calls, confirm)
    results: list[Any] = [None] * len(calls)
    todo = list(range(len(calls)))
    confirmed = True
    for attempt in range(2):  # the second for the calls the server had no script for
        async with redis.pipeline(transaction=False) as pipe:
            for i in todo:
                script.queue(pipe, *calls[i])
            for command in confirm.commands(calls[todo[0]][0][0]):
                pipe.execute_command(*command)
            replies = await pipe.execute(raise_on_error=False)
        if not all(isinstance(r, NoScriptError) for r in replies[: len(todo)]):
            confirmed = confirmed and confirm.confirmed(replies[len(todo) :])
        todo = _place(results, todo, replies[: len(todo)], final=attempt == 1)
        if not todo:
            break
        await redis.script_load(script.source)
    return results, confirmed


async def confirm_at(redis: Any, key: str, confirm: Confirmation) -> bool:
    """Confirm everything the node serving ``key``'s slot holds now (no writes of one's own to follow)."""
    commands = confirm.commands(key)
    if is_cluster(redis):
        await redis.initialize()
        node = redis.get_node_from_key(key)
        queued = [PipelineCommand(n, *c) for n, c in enumerate(commands)]
        await node_round(redis, node, queued)
        replies = [c.result for c in queued]
        _raise_outage(replies)
        return confirm.confirmed(replies)
    async with redis.pipeline(transaction=False) as pipe:
        for command in commands:
            pipe.execute_command(*command)
        return confirm.confirmed(await pipe.execute(raise_on_error=False))


def _place(results: list[Any], todo: list[int], replies: Sequence[Any], final: bool) -> list[int]:
    """Put each reply in its place; the calls to run again (NOSCRIPT); raise any other error."""
    missing = []
    for i, reply in zip(todo, replies, strict=True):
        if isinstance(reply, NoScriptError) and not final:
            missing.append(i)
        elif isinstance(reply, Exception):
            raise reply
        else:
            results[i] = reply
    return missing


def _raise_outage(replies: Sequence[Any]) -> None:
    """A node gone, unreachable, or between roles in a failover: an outage, as for
    any other command, never a fault of the messages the batch carries."""
    for reply in replies:
        if isinstance(reply, RedisConnectionError | OSError):
            raise reply
        if isinstance(reply, ClusterDownError | AskError | ReadOnlyError) and not isinstance(
            reply, MovedError
        ):
            raise RedisConnectionError(str(reply)) from reply


async def _cluster(
    script: LuaScript, redis: Any, calls: Sequence[Call], confirm: Confirmation
) -> tuple[list[Any], bool]:
    """One pipeline per node (redis-py's cluster pipeline will not carry scripts):
    its calls, then the confirmation, on one connection of that node. A call
    answered MOVED (its slot has a new primary) goes again, to that primary,
    confirmed there."""
    await redis.initialize()
    results: list[Any] = [None] * len(calls)
    todo = list(range(len(calls)))
    confirmed = True
    loaded = False
    for _ in range(_ROUNDS):
        by_node: dict[str, tuple[Any, list[int]]] = {}
        for i in todo:
            node = redis.get_node_from_key(calls[i][0][0])
            by_node.setdefault(node.name, (node, []))[1].append(i)
        rounds = await asyncio.gather(
            *(_node_round(script, redis, node, calls, ids, confirm) for node, ids in by_node.values())
        )
        retry: list[int] = []
        for (_, ids), (replies, ok) in zip(by_node.values(), rounds, strict=True):
            # A node that ran none of its calls (all redirected) holds nothing to confirm.
            if not all(isinstance(r, MovedError | NoScriptError | TryAgainError) for r in replies):
                confirmed = confirmed and ok
            for i, reply in zip(ids, replies, strict=True):
                if isinstance(reply, MovedError):
                    await redis.nodes_manager.move_slot(reply)
                    retry.append(i)
                elif isinstance(reply, NoScriptError | TryAgainError):
                    retry.append(i)
                elif isinstance(reply, Exception):
                    raise reply
                else:
                    results[i] = reply
        if not retry:
            return results, confirmed
        if not loaded:
            await redis.script_load(script.source)  # on every primary
            loaded = True
        todo = sorted(retry)
    raise RedisConnectionError("the store's slots kept moving: no node took the appends")


async def _node_round(
    script: LuaScript, redis: Any, node: Any, calls: Sequence[Call], ids: list[int], confirm: Confirmation
) -> tuple[list[Any], bool]:
    commands = [
        PipelineCommand(n, "EVALSHA", script.sha, len(calls[i][0]), *calls[i][0], *calls[i][1])
        for n, i in enumerate(ids)
    ]
    commands += [
        PipelineCommand(len(ids) + n, *c) for n, c in enumerate(confirm.commands(calls[ids[0]][0][0]))
    ]
    await node_round(redis, node, commands)
    replies = [c.result for c in commands]
    _raise_outage(replies)
    return replies[: len(ids)], confirm.confirmed(replies[len(ids) :])
