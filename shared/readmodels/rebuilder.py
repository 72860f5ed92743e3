"""Many games' read models rebuilt from their logs on the live servers: compared
with the live ones (``ziggurat rebuild``) or written over them (``ziggurat rebuild
--write``, and a projector restoring a read-model server that came back empty).

Each game's models come from its log by :mod:`.rebuild` (pure); this is the I/O
around it: the logs read a group of games per round trip, the writes a group per
transaction, retried when a live projector writes meanwhile, and shared out to
worker processes for a large rebuild.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import secrets
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from redis.exceptions import NoScriptError, ResponseError, WatchError

from shared.eventstore.keys import GameKeys
from shared.infra.lua import is_cluster
from shared.infra.wire import Session, Wire
from shared.readmodels.build import ReadModels
from shared.readmodels.rebuild import models_from_log
from shared.readmodels.writer import ReadModelWriter, Staging, Write, rewrite_commands

#: One round trip carries the read models of about this many events...
GROUP_EVENTS = 4096
#: ...and of at most this many games (all of one partition, so one slot on a cluster).
GROUP_GAMES = 256
#: One script call writes the feed entries of at most this many versions, so no
#: single call holds the server for long however long the game.
CHUNK_VERSIONS = 1024
#: Groups in flight at once: their round trips overlap the folding of others.
IN_FLIGHT = 4
#: Tries per game whose projection keeps moving (a live projector) while it is rewritten.
ATTEMPTS = 5
#: Below this many events a rebuild stays in one process: a pool's start costs more.
POOL_EVENTS = 20_000
#: A group's staged feeds expire after this long unless moved over the feeds:
#: far longer than a group's staging and transaction take.
STAGED_MS = 600_000
#: Feeds of fewer entries are appended inside the transaction rather than
#: staged: per feed, staging costs the rebuild's Python about what 16 appends
#: answered inside ``MULTI`` do (docs/performance.md, "Round 3: projection rebuild").
STAGED_LEAST = 16

#: A game's read models from its id and its stored envelopes, in order.
ModelsFromLog = Callable[[str, Sequence[bytes]], ReadModels | None]


async def rebuild_games(
    redis: Any,
    games: Sequence[GameKeys],
    write: bool,
    advance: Callable[[int], None] | None = None,
    models: ModelsFromLog = models_from_log,
    workers: int = 1,
    read: Any = None,
    staged: bool = True,
) -> list[str]:
    """Rebuild the games' read models from their logs; returns the ids of those
    that differ from the live ones or, with ``write``, that could not be rewritten.

    A group of games per transaction, each game's feeds and checkpoint reset
    and rewritten in it, with the checkpoints watched, so a projector's write
    in between makes the group try again. On one server reached by a plain
    URL the writes are plain commands packed by ``rewrite_commands`` and sent
    over the thin client, the feeds' appends ``staged`` (appended plainly to
    keys of their own, then moved over the feeds in the transaction;
    without it, appended inside the transaction, as before round 3);
    otherwise they go through the projector's own script (``ReadModelWriter``).
    The history feed is left alone unless ``models`` builds it (a restore:
    ``models_with_history``). ``advance`` is told how many games each group
    held; ``models`` builds a game's read models from its log (the benchmark
    passes the path used before to compare). With ``workers`` > 1 and enough events, the writes' groups are
    shared out to that many processes, each reading, building and writing
    its groups as this one would. The logs are read from ``redis`` (the
    store), the models compared or written on ``read`` (default: the same).
    """
    rebuilder = _Rebuilder(redis, models, read=read, staged=staged)
    if write and not rebuilder.cluster and rebuilder.read_wire is None:
        # The writer queues a bare EVALSHA. Inside MULTI a NOSCRIPT fails just
        # that call, after the game's reset ran: have the script there first.
        await rebuilder.writer.load()
    limit = asyncio.Semaphore(IN_FLIGHT)

    async def one(group: list[GameKeys]) -> list[str]:
        async with limit:
            bad = await (rebuilder.rewrite(group) if write else rebuilder.compare(group))
        if advance is not None:
            advance(len(group))
        return bad

    sizes = await _sizes(redis, games)
    groups = _groups(games, sizes)
    wire, read_wire = rebuilder.wire, rebuilder.read_wire
    pooled = write and workers > 1 and len(groups) > 1 and sum(sizes) >= POOL_EVENTS
    if pooled and wire is not None and read_wire is not None:
        return await _rewrite_in_pool((wire, read_wire), models, groups, workers, advance, staged)
    return [game_id for bad in await asyncio.gather(*map(one, groups)) for game_id in bad]


async def _rewrite_in_pool(
    wires: tuple[Wire, Wire],
    models: ModelsFromLog,
    groups: list[list[GameKeys]],
    workers: int,
    advance: Callable[[int], None] | None,
    staged: bool,
) -> list[str]:
    """The groups rewritten by ``workers`` processes, a group at a time each:
    building the models is most of a rebuild's Python, and one process uses
    one core. Each group is the same transaction as in one process."""
    servers = tuple((w.host, w.port, w.db, w.username, w.password) for w in wires)
    loop = asyncio.get_running_loop()
    # Forked: the workers start with every game already imported.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:

        async def one(group: list[GameKeys]) -> list[str]:
            bad = await loop.run_in_executor(pool, _rewrite_group, servers, models, group, staged)
            if advance is not None:
                advance(len(group))
            return bad

        done = await asyncio.gather(*map(one, groups))
    return [game_id for bad in done for game_id in bad]


def _rewrite_group(
    servers: tuple[tuple[str, int, int, str, str], ...],
    models: ModelsFromLog,
    group: list[GameKeys],
    staged: bool,
) -> list[str]:
    """In a pool's worker: one group rewritten over connections of its own
    (the store's for the logs, the read models' for the writes)."""

    async def run() -> list[str]:
        wire, read_wire = Wire(*servers[0]), Wire(*servers[1])
        try:
            return await _Rebuilder(None, models, wire, read_wire=read_wire, staged=staged).rewrite(group)
        finally:
            wire.close()
            read_wire.close()

    return asyncio.run(run())


async def _sizes(redis: Any, games: Sequence[GameKeys], per_trip: int = 1000) -> list[int]:
    """Each game's number of events, so that groups can be cut by size."""
    sizes: list[int] = []
    for i in range(0, len(games), per_trip):
        async with redis.pipeline(transaction=False) as pipe:
            for keys in games[i : i + per_trip]:
                pipe.xlen(keys.events)
            sizes += await pipe.execute()
    return sizes


def _groups(games: Sequence[GameKeys], sizes: Sequence[int]) -> list[list[GameKeys]]:
    """Games of one partition each, up to GROUP_EVENTS events or GROUP_GAMES games."""
    by_partition: dict[int, list[tuple[GameKeys, int]]] = {}
    for keys, size in zip(games, sizes, strict=True):
        by_partition.setdefault(keys.partition, []).append((keys, size))
    groups: list[list[GameKeys]] = []
    for members in by_partition.values():
        group: list[GameKeys] = []
        events = 0
        for keys, size in members:
            if group and (events + size > GROUP_EVENTS or len(group) == GROUP_GAMES):
                groups.append(group)
                group, events = [], 0
            group.append(keys)
            events += size
        groups.append(group)
    return groups


class _Rebuilder:
    def __init__(
        self,
        redis: Any,
        models: ModelsFromLog,
        wire: Wire | None = None,
        read: Any = None,
        read_wire: Wire | None = None,
        staged: bool = True,
    ) -> None:
        #: The store (logs) and the read-model server (``target``): one server by default.
        self.redis = redis
        self.target = redis if read is None else read
        self.cluster = self.target is not None and is_cluster(self.target)
        #: The thin clients, when the servers are reached by plain URLs.
        self.wire: Wire | None = wire or (None if self.cluster else getattr(redis, "wire", None))
        if read_wire is None and not self.cluster:
            read_wire = self.wire if read is None else getattr(read, "wire", None)
        self.read_wire: Wire | None = read_wire
        self.writer = ReadModelWriter(self.target)
        self.models = models
        self.staged = staged

    async def _logs(self, group: Sequence[GameKeys]) -> list[list[bytes]]:
        """The group's stored envelopes, in one round trip."""
        if self.wire is not None:
            replies = await self.wire.call([(b"XRANGE", keys.events, b"-", b"+") for keys in group])
            for reply in replies:
                if isinstance(reply, Exception):  # not a stream: as redis-py would raise it
                    raise reply
            # Raw replies: [id, [b"e", envelope]] per entry, the envelope its only field.
            return [[fields[1] for _, fields in rows] for rows in replies]
        async with self.redis.pipeline(transaction=False) as pipe:
            for keys in group:
                pipe.xrange(keys.events)
            logs = await pipe.execute()
        return [[fields[b"e"] for _, fields in rows] for rows in logs]

    async def read(self, group: Sequence[GameKeys]) -> list[tuple[GameKeys, ReadModels]]:
        """The read models of the group's games, built from their logs in one round trip."""
        out: list[tuple[GameKeys, ReadModels]] = []
        logs = await self._logs(group)
        with _collector_paused():
            for keys, log in zip(group, logs, strict=True):
                models = self.models(keys.game_id, log)
                if models is None:
                    continue
                # The history feed is rewritten only when ``models`` builds it (a
                # restore of a server that lost it): the projector's entries follow
                # its batches, which the log does not record, so a plain rebuild
                # leaves them as they are.
                out.append((keys, models))
        return out

    async def compare(self, group: Sequence[GameKeys]) -> list[str]:
        rebuilt = await self.read(group)
        async with self.target.pipeline(transaction=False) as pipe:
            for keys, models in rebuilt:
                pipe.get(keys.checkpoint)
                for name in models.views:
                    pipe.get(keys.view(name))
                    pipe.xrange(keys.audience_feed(name))
            replies = iter(await pipe.execute())
        differ: list[str] = []
        for keys, models in rebuilt:
            same = int(next(replies) or 0) == models.version
            for name, doc in models.views.items():
                same &= next(replies) == doc
                # Ids too: an entry filed under the wrong version is drift as well.
                wanted = [(f"0-{v}".encode(), {b"e": entry}) for v, entry in models.feeds[name]]
                same &= next(replies) == wanted
            if not same:
                differ.append(keys.game_id)
        return differ

    async def rewrite(self, group: list[GameKeys]) -> list[str]:
        """Rewrite the group's read models; returns the games that kept moving."""
        moved = await self.rewrite_once(group)
        if not moved:
            return []
        # Retry the games that moved one by one, so one busy game cannot keep
        # a whole group from going through.
        stuck: list[str] = []
        for keys in moved:
            for _ in range(ATTEMPTS):
                if not await self.rewrite_once([keys]):
                    break
            else:
                stuck.append(keys.game_id)
        return stuck

    async def rewrite_once(self, group: list[GameKeys]) -> list[GameKeys]:
        """Reset and rewrite each game's views, feeds and checkpoint from its log;
        returns the games a projector wrote meanwhile (nothing of theirs was lost:
        try them again)."""
        if self.read_wire is not None:
            return await self._rewrite_plain(self.read_wire, group)
        async with self.target.pipeline(transaction=True) as pipe:
            # A projector writing a game between our read and our write would
            # see its newest feed entries wiped by the reset, and never write
            # them again; watching the checkpoints turns that into a retry.
            await pipe.watch(*(keys.checkpoint for keys in group))
            rebuilt = await self.read(group)
            pipe.multi()
            for keys, models in rebuilt:
                # The script skips versions at or below the checkpoint, and a
                # stream refuses ids at or below its last: start both afresh.
                pipe.delete(keys.checkpoint, *(keys.audience_feed(name) for name in models.feeds))
                if not self.cluster:
                    for part in _chunks(models):
                        self.writer.add(pipe, keys, part)
            try:
                replies = await pipe.execute(raise_on_error=False)
            except WatchError:
                return group
        if self.cluster:
            return await self._write_now(rebuilt)
        if any(isinstance(r, NoScriptError) for r in replies):
            await self.writer.load()  # the server lost its scripts meanwhile
            return group
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return []

    async def _rewrite_plain(self, wire: Wire, group: list[GameKeys]) -> list[GameKeys]:
        """``rewrite_once`` as plain commands over the thin client."""
        async with wire.session() as session:
            # A projector writing a game between our read and our write would
            # see its newest feed entries wiped by the reset, and never write
            # them again; watching the checkpoints turns that into a retry.
            await session.call([(b"WATCH", *(keys.checkpoint for keys in group))])
            rebuilt = await self.read(group)
            request = [b"*1\r\n$5\r\nMULTI\r\n"]
            staging = Staging(secrets.token_hex(6), STAGED_MS, STAGED_LEAST) if self.staged else None
            with _collector_paused():
                count = 2 + sum(rewrite_commands(keys, models, request, staging) for keys, models in rebuilt)
            request.append(b"*1\r\n$4\r\nEXEC\r\n")
            if staging is not None and staging.keys and not await _stage(session, staging):
                return group
            done = await session.transaction(b"".join(request), count)
            if done is None and staging is not None and staging.keys:
                await session.send(staging.drop(), 1)  # nothing moved: leave nothing behind
        # EXEC's answer says it all: nil if a watched checkpoint moved (nothing
        # was written), EXECABORT if a command was refused while queued, else
        # each command's answer (errors in it are hiredis's, same message).
        if done is None:
            return group
        if isinstance(done, ResponseError):
            raise done
        for reply in done:
            if isinstance(reply, Exception):
                raise ResponseError(str(reply))
        return []

    async def _write_now(self, rebuilt: list[tuple[GameKeys, ReadModels]]) -> list[GameKeys]:
        """On a cluster, which refuses scripts in pipelines (and so in MULTI), the
        writes follow the reset: each game's chunks in order, games side by side.
        A projector's write in between makes ours skip (the checkpoint moved):
        that game is redone."""
        chunked = [(keys, list(_chunks(models))) for keys, models in rebuilt]
        moved: set[str] = set()
        for i in range(max((len(parts) for _, parts in chunked), default=0)):
            writes: list[Write] = [
                (keys, parts[i], ())
                for keys, parts in chunked
                if i < len(parts) and keys.game_id not in moved
            ]
            done = await self.writer.write(writes)
            moved |= {keys.game_id for (keys, _, _), ok in zip(writes, done, strict=True) if not ok}
        return [keys for keys, _ in chunked if keys.game_id in moved]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a group's models are built and
    packed: they allocate a few containers per event (decoded events, the
    game's states, feed entries), so the collector ran every few dozen events
    and walked the live heap again and again, about a quarter of the
    rebuild's Python (docs/performance.md, "Round 3: projection rebuild").
    Both are synchronous, so nothing else in the process runs meanwhile, and
    any cycle they leave is collected at the next collection after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _stage(session: Session, staging: Staging) -> bool:
    """The staging sent, then every staged key watched and counted; ``False``
    if one is gone already (expired or evicted: the attempt is given up and
    tried again). Watched, one gone later makes ``EXEC`` write nothing, so no
    feed is ever moved over short. A key holding only some of its entries
    had appends refused (their answers are off): raised, as a refusal
    inside the transaction is."""
    request, count = staging.request()
    answers = await session.send(request, count)
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    short = staging.short(answers)
    if not short:
        return True
    await session.send(staging.drop(), 1)
    refused = [(key, held, want) for key, held, want in short if held]
    if refused:
        key, held, want = refused[0]
        raise ResponseError(
            f"the server refused appends to {key.decode()}: {held} of {want} entries "
            "staged (is it out of memory? its log says why)"
        )
    return False


def _chunks(models: ReadModels) -> Iterator[ReadModels]:
    """``models`` as script calls of at most ``CHUNK_VERSIONS`` versions each, in order.

    Each call moves the checkpoint to its last version, so the next one's
    entries are all above it; the views (and the live-set update) ride with
    the last call only.
    """
    start = dict.fromkeys(models.feeds, 0)
    for cut in [*range(CHUNK_VERSIONS, models.version, CHUNK_VERSIONS), models.version]:
        feeds: dict[str, list[tuple[int, bytes]]] = {}
        for name, entries in models.feeds.items():
            end = bisect_right(entries, cut, lo=start[name], key=_version_of)
            feeds[name] = entries[start[name] : end]
            start[name] = end
        last = cut == models.version
        yield ReadModels(
            version=cut,
            views=models.views if last else {},
            feeds=feeds,
            game=models.game if last else "",
            over=models.over,
        )


def _version_of(entry: tuple[int, bytes]) -> int:
    return entry[0]
