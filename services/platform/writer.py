"""The single writer of tournament streams: decide, append, publish read models.

Every change to a tournament, whether an organiser's command from a gateway
or the process manager's own, goes through :meth:`Tournaments.execute`:
under the tournament's lock it hands the one host of platform aggregates
(:meth:`shared.eventstore.aggregates.Aggregate.transact`) the tournament's
decider with its randomness bound at the version the host loaded; the host
appends with the expected version and the command id (the store's dedup
makes a repeated command id answer its first outcome). After each append the
public read models (standings, pairings) are rewritten and the change is
announced. What stays here is the tournament's own: the lock, the seed, and
answers as a gateway's outcome.

States are cached per tournament and brought up to date by reading only the
events after them; a tournament this process has not seen yet (after a
restart) starts from its snapshot, which the writer keeps as every aggregate
does (:mod:`shared.eventstore.aggregates`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import msgspec
import structlog

from shared.eventstore.aggregates import Busy, Decided, Loaded
from shared.eventstore.keys import CHANGES_CHANNEL
from shared.eventstore.rewinds import noticer
from shared.eventstore.store import EventStore
from shared.infra.redis_client import Publisher
from shared.infra.wallclock import now_ms
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import SEED_BYTES, Rng, new_seed
from shared.messaging.messages import AcceptedOutcome, Outcome, RejectedOutcome
from shared.observability import metrics
from shared.tournaments import codes
from shared.tournaments.commands import Create, PairRound, TournamentCommandUnion
from shared.tournaments.decide import DECIDER, MAX_ENTRIES, Seeded
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.keys import TOURNAMENTS_INDEX, TournamentKeys, changes_key, tournament_keys
from shared.tournaments.state import TournamentState
from shared.tournaments.store import TOURNAMENTS
from shared.tournaments.views import pairings_view, standings_view

log = structlog.get_logger()
SERVICE = "tournaments"
#: The gateway answers 404 with this code for a tournament nobody created.
UNKNOWN_TOURNAMENT = "unknown_tournament"
#: The answer when the stream kept moving under us: nothing was appended.
BUSY = "busy"

_encode_json = msgspec.json.Encoder().encode


def event_json(event: Any) -> msgspec.Raw:
    return msgspec.Raw(_encode_json(event))


class Tournaments:
    """Cached tournament states and the one way to change them."""

    def __init__(
        self,
        store: EventStore,
        partitions: int,
        clock_ms: Callable[[], int] = now_ms,
        max_entries: int = MAX_ENTRIES,
    ) -> None:
        self.redis = redis = store.redis
        #: The entries a tournament takes at most (settings ``max_tournament_entries``).
        self.max_entries = max_entries
        self.publisher = Publisher(redis)
        self.store = store
        #: A tournament it holds further on than the store (a failover lost writes) is marked.
        self.noticed = noticer(redis, SERVICE)
        self.partitions = partitions
        self.clock_ms = clock_ms
        self._states: dict[str, Loaded[TournamentState]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._seeds: dict[str, bytes] = {}
        #: The version whose read models are known to be written, per tournament.
        self._published: dict[str, int] = {}

    def keys(self, tournament_id: str) -> TournamentKeys:
        return tournament_keys(tournament_id, self.partitions)

    def lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def current(self, tournament_id: str) -> tuple[int, TournamentState | None]:
        """The state as of the store's latest event (reads only the tail)."""
        loaded = await self._current(tournament_id)
        return loaded.version, loaded.state

    async def _current(self, tournament_id: str) -> Loaded[TournamentState]:
        held = self._states.get(tournament_id)
        loaded = await TOURNAMENTS.current(self.store, self.keys(tournament_id), held)
        self._states[tournament_id] = loaded
        return loaded

    async def catch_up(self, tournament_id: str) -> None:
        """Rewrite the read models if they are behind the stream.

        An append whose read models were never written (Redis went away in
        between, or the process died) leaves them behind until the next
        append, which may never come once a tournament is over. Free when
        they are known to be current."""
        held = self._states.get(tournament_id)
        if held is None or held.version <= self._published.get(tournament_id, 0):
            return
        keys = self.keys(tournament_id)
        async with self.lock(tournament_id):
            version, state = await self.current(tournament_id)
            if tournament_id not in self._published:
                self._published[tournament_id] = int(await self.redis.get(keys.checkpoint) or 0)
            if state is not None and version > self._published[tournament_id]:
                # created: the index entry may be what was lost (ZADD NX keeps the first).
                await self.publish(keys, version, state, created=True)

    def cached(self) -> list[TournamentState]:
        return [held.state for held in self._states.values() if held.state is not None]

    async def _seed(self, keys: TournamentKeys, creating: bool) -> bytes:
        seed = self._seeds.get(keys.tournament_id)
        if seed is not None:
            return seed
        if creating:
            await self.redis.set(keys.seed, new_seed().hex(), nx=True)
        raw = await self.redis.get(keys.seed)
        if raw is None:
            return bytes(SEED_BYTES)  # no tournament yet: decide rejects before drawing
        seed = bytes.fromhex(raw.decode())
        self._seeds[keys.tournament_id] = seed
        return seed

    async def execute(
        self,
        tournament_id: str,
        command: TournamentCommandUnion,
        command_id: str,
        correlation_id: str = "",
    ) -> Outcome:
        """Decide and append ``command``; the outcome a gateway would answer with."""
        keys = self.keys(tournament_id)
        if isinstance(command, Create) and command.tournament_id != tournament_id:
            return _rejected(command_id, codes.INVALID_SETTINGS, "The tournament id does not match.")
        async with self.lock(tournament_id):
            seed = await self._seed(keys, isinstance(command, Create))

            def decide(loaded: Loaded[TournamentState]) -> list[TournamentEventUnion]:
                started = time.perf_counter()
                seeded = Seeded(command, Rng(seed, loaded.version), self.max_entries)
                events = list(DECIDER.decide(loaded.state, seeded))
                if isinstance(command, PairRound):
                    metrics.PAIRING_SECONDS.observe(time.perf_counter() - started)
                return events

            async def project(done: Decided[TournamentState, TournamentEventUnion]) -> None:
                if done.events and done.state is not None:
                    await self.publish(keys, done.last, done.state, created=isinstance(command, Create))

            try:
                done = await TOURNAMENTS.transact(
                    self.store,
                    keys,
                    decide,
                    command_id,
                    self.clock_ms(),
                    held=self._states.get(tournament_id),
                    command=command,
                    correlation_id=correlation_id,
                    project=project,
                    noticed=self.noticed,
                )
            except RuleViolation as exc:
                metrics.REJECTIONS.labels(SERVICE, exc.code).inc()
                code = UNKNOWN_TOURNAMENT if exc.code == codes.NO_TOURNAMENT else exc.code
                return _rejected(command_id, code, exc.message, **exc.details)
            except Busy as exc:
                metrics.APPEND_CONFLICTS.inc(exc.conflicts)
                self._states.pop(tournament_id, None)
                return _rejected(command_id, BUSY, "The tournament is changing too fast; retry.")
            metrics.APPEND_CONFLICTS.inc(done.conflicts)
            if done.loaded is not None:
                self._states[tournament_id] = done.loaded
            if done.duplicate:
                return await self._first_outcome(keys, command_id, done.first, done.last)
            if not done.events:  # already true (an idempotent record or open): nothing to append
                return AcceptedOutcome(command_id=command_id, first=done.first, last=done.last)
            metrics.COMMANDS.labels(SERVICE, "tournament", "accepted").inc()
            log.info(
                "appended",
                tournament_id=tournament_id,
                command_id=command_id,
                correlation_id=correlation_id,
                version=done.last,
                events=[type(e).__name__ for e in done.events],
            )
            return AcceptedOutcome(
                command_id=command_id,
                first=done.first,
                last=done.last,
                events=[event_json(e) for e in done.events],
            )

    async def _first_outcome(self, keys: TournamentKeys, command_id: str, first: int, last: int) -> Outcome:
        metrics.DUPLICATES.inc()
        envelopes = await self.store.read_range(keys, first, last) if last >= first else []
        return AcceptedOutcome(
            command_id=command_id,
            first=first,
            last=last,
            events=[msgspec.Raw(_encode_json(msgspec.msgpack.decode(e.payload))) for e in envelopes],
            duplicate=True,
        )

    async def publish(
        self, keys: TournamentKeys, version: int, state: TournamentState, created: bool
    ) -> None:
        """Rewrite the public read models and announce the new version."""
        standings = _encode_json(standings_view(state))
        pairings = _encode_json(pairings_view(state))
        notice = [(CHANGES_CHANNEL, f"{changes_key(keys.tournament_id)} {version}")]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(keys.view("standings"), standings)
            pipe.set(keys.view("pairings"), pairings)
            pipe.set(keys.checkpoint, version)
            if created:
                pipe.zadd(TOURNAMENTS_INDEX, {keys.tournament_id: self.clock_ms()}, nx=True)
            self.publisher.queue(pipe, notice)
            await pipe.execute()
        await self.publisher.after(notice)
        self._published[keys.tournament_id] = max(version, self._published.get(keys.tournament_id, 0))
        metrics.TABLES_LIVE.set(
            sum(
                1
                for s in self.cached()
                if s.status == "running"
                for r in s.rounds
                for t in r.tables
                if t.game_id is not None and t.placings is None
            )
        )


def _rejected(command_id: str, code: str, message: str, **details: Any) -> RejectedOutcome:
    return RejectedOutcome(command_id=command_id, code=code, message=message, details=details)
