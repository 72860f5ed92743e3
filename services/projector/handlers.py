"""The projector's batch handler: fold the partition feeds into read models.

Entries of one game may arrive split between projectors, after a restart, or
twice; the table cache reads any gap from the store, and the write script's
checkpoint makes a repeated projection a no-op. On one server each game's
feed entries are acknowledged inside the script that writes its read models,
so no crash can fall between writing and acknowledging. With the read models
on a server of their own, their write is confirmed first and the entries are
acknowledged on the store after it (with the next read): a crash between the
two redelivers entries the checkpoint then skips.

A store that went backwards (a failover that lost writes: shared/eventstore/rewinds.py)
sends entries at versions this projector already folded, for other
commands. Entries at or below a game's folded version make it ask the store
(the cache's read checks that the store still holds what it folded); a
game the store no longer holds so has its read models written again from
the log, every audience's feed and the history included, so no view shows
a move the store lost.

A failover can also lose read models this projector wrote while the store
keeps the events: its fold is then ahead of them. Entries that come back at
versions the fold holds have their models checked (``_check_written``); a
write that continues the fold names the version its feeds continue from, and
the script refuses it when the stored checkpoint is below (``BEHIND``). Either
way the game is written again from the log, so no feed keeps a hole.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import structlog

from services.projector.restore import Restorer
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import CHANGES_CHANNEL, GameKeys, kept_game_keys
from shared.eventstore.rewinds import Noticed, Rewind
from shared.eventstore.store import decode_envelope
from shared.eventstore.tables import Folded, TableCache
from shared.games import registry
from shared.infra import wallclock
from shared.infra.redis_client import Publisher
from shared.kernel.codec import codec_for
from shared.messaging.streams import Batch
from shared.observability import metrics
from shared.readmodels.build import ReadModels, build
from shared.readmodels.rebuild import models_with_history
from shared.readmodels.rebuilder import rebuild_games
from shared.readmodels.writer import BEHIND, MISSING, ReadModelWriter, Write

log = structlog.get_logger()
GROUP = "projector"


class Projector:
    def __init__(
        self, cache: TableCache, redis: Any, read: Any = None, restorer: Restorer | None = None
    ) -> None:
        self.cache = cache
        #: Told by the cache of the games the store went back on (marked, counted),
        #: kept here until their read models are written again.
        self._marked: Noticed | None = cache.noticed
        cache.noticed = self._noticed
        #: By partition: each is written again by the loop that reads its feed (on a
        #: cluster, one loop per partition runs at once; one may not take another's).
        self._rewound: dict[int, dict[str, GameKeys]] = {}
        #: The store (feeds, acknowledgements, change notices) and the read
        #: models' server: the same client unless they have one of their own.
        self.redis = redis
        self.read = redis if read is None else read
        self.restorer = restorer
        self.writer = ReadModelWriter(self.read, GROUP, check=self.read is not redis)
        self.publisher = Publisher(redis)
        self._script_loaded = False

    async def handle(self, batch: Batch) -> int:
        """Project a batch read from the partition feeds; returns games touched."""
        by_game: dict[str, list[EventEnvelope]] = {}
        entries: dict[str, list[tuple[str, bytes]]] = {}
        for stream, entry_id, fields in batch.entries:
            env = decode_envelope(fields[b"e"])
            by_game.setdefault(env.game_id, []).append(env)
            entries.setdefault(env.game_id, []).append((stream, entry_id))
        try:
            touched = await self._fold(by_game)
            renewed = await self._rewrite_rewound(by_game, {envs[0].partition for envs in by_game.values()})
            writes: list[Write] = [
                (kept_game_keys(g, by_game[g][0].partition), models, [entry_id for _, entry_id in entries[g]])
                for g, (models, _) in touched.items()
            ]
            # Entries of games with nothing new (already folded here) need only their ack.
            idle = [pair for g, pairs in entries.items() if g not in touched for pair in pairs]
            notices = _notices(touched, renewed)

            def then(pipe: Any) -> None:
                self.publisher.queue(pipe, notices)
                batch.ack(pipe, GROUP, only=idle)

            if self.read is not self.redis:
                await self._write_apart(batch, writes, notices)
            elif batch.defer:
                # Ahead of the next read. If a write fails (a server that lost
                # the script), the games are forgotten as below and the batch
                # is handled again through ``write``, which reloads it.
                if not self._script_loaded:  # spare the first batch that failure
                    await self.writer.load()
                    self._script_loaded = True
                pipe = self.redis.pipeline(transaction=False)
                self.writer.queue(pipe, writes)
                then(pipe)
                # Models found behind: the batch is handled again, its games
                # read afresh from the store, so their feeds are written whole.
                await batch.write(
                    pipe,
                    failed=lambda: self._forget(by_game),
                    redo=lambda replies: self._behind(replies[: len(writes)]),
                )
            else:
                answers = await self.writer.write(writes, then)
                if behind := await self._rewrite_behind(writes, answers):
                    pipe = self.redis.pipeline(transaction=False)
                    # On one server the first notice went out with the scripts.
                    self.publisher.queue(pipe, _notices({k.game_id: touched[k.game_id] for k in behind}, {}))
                    batch.ack(pipe, GROUP, only=[pair for keys in behind for pair in entries[keys.game_id]])
                    await pipe.execute()
            await self.publisher.after(notices)
        except BaseException:
            self._forget(by_game)
            raise
        self._observe(by_game, touched)
        return len(touched)

    async def _write_apart(self, batch: Batch, writes: list[Write], notices: list[tuple[str, str]]) -> None:
        """The models written on their own server and confirmed, then the whole
        batch acknowledged on the store with the next read, the change notice
        with it: a notice never precedes what it announces."""
        unacked = [(keys, models, ()) for keys, models, _ in writes]
        while True:
            answers = await self.writer.write(unacked) if unacked else []
            if MISSING not in answers:
                break
            # The server lost the models (nothing of these was written): rebuild
            # them all before anything more is acknowledged, then write again
            # (the rebuild holds these versions already: the checkpoint skips them).
            assert self.restorer is not None, "a separate read-model server needs a restorer"
            await self.restorer.ensure()
        await self._rewrite_behind(writes, answers)
        pipe = self.redis.pipeline(transaction=False)
        self.publisher.queue(pipe, notices)
        batch.ack(pipe, GROUP)
        # Nothing to undo if the acknowledgements are lost: the entries come
        # back, and the models they would write are there already.
        await batch.write(pipe)

    async def _rewrite_behind(self, writes: list[Write], answers: list[Any]) -> list[GameKeys]:
        """Games whose stored models were found behind this projector's fold (a
        failover lost a write it had made): nothing of them was written or
        acknowledged; they are written again from the log now."""
        behind = [keys for (keys, _, _), answer in zip(writes, answers, strict=True) if answer == BEHIND]
        if behind:
            log.warning("read_models_behind", games=len(behind), found="writing")
            metrics.READ_MODELS_BEHIND.inc(len(behind))
            self._mark(behind)
            await self._rewrite_rewound({}, {keys.partition for keys in behind})
        return behind

    def _behind(self, answers: list[Any]) -> str | None:
        """Why a held write must be done again: models found behind the fold."""
        found = answers.count(BEHIND)
        if not found:
            return None
        log.warning("read_models_behind", games=found, found="writing")
        metrics.READ_MODELS_BEHIND.inc(found)
        return "read models behind the fold"

    async def _noticed(self, rewinds: list[Rewind]) -> None:
        if self._marked is not None:
            await self._marked(rewinds)
        self._mark(r.keys for r in rewinds)

    def _mark(self, games: Iterable[GameKeys]) -> None:
        """``games``' read models are to be written again from the log."""
        for keys in games:
            self._rewound.setdefault(keys.partition, {})[keys.game_id] = keys

    def _is_rewound(self, game_id: str, partition: int) -> bool:
        return game_id in self._rewound.get(partition, ())

    async def _rewrite_rewound(
        self, by_game: dict[str, list[EventEnvelope]], partitions: Iterable[int]
    ) -> dict[str, int]:
        """The read models of the games of ``partitions`` the store went back on,
        written again from the log (their entries in the batch are in it): their
        versions now. Taken out before the writing: the loop of another partition
        meanwhile writes its own (a game marked again meanwhile is written again)."""
        games = [keys for p in partitions for keys in self._rewound.pop(p, {}).values()]
        if not games:
            return {}
        try:
            stuck = set(
                await rebuild_games(self.redis, games, True, models=models_with_history, read=self.read)
            )
            if stuck:
                raise RuntimeError(f"read models of {sorted(stuck)} kept moving while written again")
        except BaseException:
            self._mark(games)  # still to write: the batch is handled again
            raise
        renewed = {}
        for keys in games:
            table = self.cache.get(keys.game_id)
            renewed[keys.game_id] = table.version if table is not None else 0
            by_game.pop(keys.game_id, None)  # acknowledged with the batch, nothing more to write
        log.warning("read_models_rewritten", games=len(games))
        return renewed

    def _forget(self, games: Iterable[str]) -> None:
        """The cache ran ahead of the read models; forget those games so the
        retry re-reads them from the store (the checkpoint dedups writes)."""
        for game_id in games:
            self.cache.forget(game_id)

    async def _fold(self, by_game: dict[str, list[EventEnvelope]]) -> dict[str, tuple[ReadModels, int]]:
        before = {g: (t.version if (t := self.cache.get(g)) else 0) for g in by_game}
        # A gap is read from the store; entries at or below what was folded here
        # (redelivered, or another history: the store went back) make the cache
        # check the store still holds what it folded.
        asked = [
            GameKeys(g, envs[0].partition)
            for g, envs in by_game.items()
            if min(e.version for e in envs) != before[g] + 1
        ]
        if asked:
            await self.cache.refresh(asked)
        touched: dict[str, tuple[ReadModels, int]] = {}
        repeats: dict[str, int] = {}
        for game_id, envs in by_game.items():
            if self._is_rewound(game_id, envs[0].partition):
                continue  # written again from the log (_rewrite_rewound)
            folded: list[Folded] = []
            table = self.cache.apply(game_id, sorted(envs, key=lambda e: e.version), folded)
            if table is None:
                continue
            if table.version <= before[game_id]:
                repeats[game_id] = max(e.version for e in envs)
                continue
            # The events just folded are the new ones, decoded once for both the
            # fold and the feeds, unless a gap was read or a fold began elsewhere.
            new = folded if folded and folded[0][0] == before[game_id] + 1 else None
            if new is None:
                codec = codec_for(registry.get(table.game))
                fresh = await self._events_since(game_id, before[game_id], envs)
                new = [(e.version, e.server_time, codec.event(e.payload)) for e in fresh]
            touched[game_id] = (build(game_id, table, new), max(at for _, at, _ in new))
        if repeats:
            await self._check_written(repeats, by_game)
        return touched

    async def _check_written(self, repeats: dict[str, int], by_game: dict[str, list[EventEnvelope]]) -> None:
        """Games whose entries this projector folded already: their read models are
        checked to show those versions before the entries are acknowledged.

        A failover can lose the read models this projector wrote while its fold
        keeps them: the write reached a primary that was paused (or died) before
        its replica had it, and the replica promoted in its place holds the
        entries' delivery but not the models. The entries come back (still
        pending, or a client's retry of the same command appended again at the
        same version) at versions this fold already holds. Taken for repeats and
        only acknowledged, they would leave the views a version behind the store
        for good, and the table's every next move refused as stale. Such a game's
        models are written again from the log.
        """
        keys = {g: GameKeys(g, by_game[g][0].partition) for g in repeats}
        async with self.read.pipeline(transaction=False) as pipe:
            for g in repeats:
                pipe.get(keys[g].checkpoint)
            written = await pipe.execute()
        shown = dict(zip(repeats, written, strict=True))
        behind = [g for g, version in repeats.items() if int(shown[g] or 0) < version]
        if behind:
            log.warning("read_models_behind", games=len(behind), found="repeats")
            metrics.READ_MODELS_BEHIND.inc(len(behind))
            self._mark(keys[g] for g in behind)

    async def _events_since(self, game_id: str, after: int, envs: list[EventEnvelope]) -> list[EventEnvelope]:
        """The events after ``after``: from the batch when it holds them all."""
        keys = GameKeys(game_id, envs[0].partition)
        envs = sorted((e for e in envs if e.version > after), key=lambda e: e.version)
        if envs and envs[0].version == after + 1:
            return envs
        return await self.cache.store.read(keys, after)

    def _observe(
        self, by_game: dict[str, list[EventEnvelope]], touched: dict[str, tuple[ReadModels, int]]
    ) -> None:
        if not touched:
            return
        # Projection lag is measured from the feeds by the gateway's pipeline
        # watch: a stalled projector cannot report its own lag.
        now_ms = wallclock.now_ms()
        projected = metrics.STAGE_LATENCY.labels("projected")  # one label lookup per batch
        for _, at in touched.values():  # from the append to the views that show it
            projected.observe(max(0, now_ms - at) / 1000)
        metrics.EVENTS_PROJECTED.inc(sum(len(m.feeds["spectator"]) for m, _ in touched.values()))
        metrics.CACHED_GAMES.labels(GROUP).set(len(self.cache))


def _notices(touched: dict[str, tuple[ReadModels, int]], renewed: dict[str, int]) -> list[tuple[str, str]]:
    """One change notice per batch: a line ``<game id> <version>`` per game."""
    lines = [f"{g} {m.version}" for g, (m, _) in touched.items()]
    lines += [f"{g} {version}" for g, version in renewed.items()]
    return [(CHANGES_CHANNEL, "\n".join(lines))] if lines else []
