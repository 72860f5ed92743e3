"""The arena runner: seats waiting players at new tables, opens them, scores and closes arenas.

Every half second it looks at each arena not yet done: closes it once its
window is over, pairs whoever is waiting (``arena.paired``: as many full
tables as the queue holds), and opens every table the arena seated as a
game (seat tokens kept once with ``HSETNX``, the game's auth hash, the map
back to the arena, then the open command), seats the players' accounts
so their bots hear of it (:func:`shared.players.store.seat_players`), and
hands the seats of the arena's own bot entrants to the bot runner at their
levels, as a tournament's process manager does.
The player process hands it finished games (:meth:`ArenaRunner.game_over`):
the table is scored in the arena, its players queue again, and the ladder
rates it among its people (bot entrants are on the leaderboard, not the
ladder, as in tournaments and casual tables).

Every step has a deterministic command id (``pair:<version>``,
``score:<table>``, ``close``) and first looks at the arena's state, so a
retry, a redelivery or a restart repeats nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import structlog

from services.platform.opening import open_command
from shared.arenas.commands import ArenaCommandUnion, Close, Pair, Score
from shared.arenas.keys import ARENA_TABLES, ARENAS_OPEN, arena_keys, arena_tokens
from shared.arenas.rules import decide
from shared.arenas.state import ArenaState, ArenaTable, bot_levels
from shared.arenas.store import ARENAS
from shared.eventstore import game_index
from shared.eventstore.keys import GameKeys, command_stream, partition_of
from shared.eventstore.store import EventStore
from shared.infra.coalesce import Coalescer
from shared.infra.wallclock import now_ms
from shared.kernel import levels
from shared.kernel.auth import new_token, token_hash
from shared.kernel.contract import Result
from shared.ladders.events import Rated, RatedPlacing
from shared.messaging.messages import encode
from shared.messaging.streams import send
from shared.observability import metrics
from shared.players.seats import Seat
from shared.players.store import seat_players
from shared.tournaments import store as bot_store
from shared.tournaments.results import placings_of

log = structlog.get_logger()
TICK_S = 0.5
#: How long one open waits for its game before the next tick tries again.
OPEN_WAIT_S = 10.0
#: How long a table's bot seats are kept for the runner (it lets go of a table once over).
BOT_SEATS_TTL_S = 7 * 24 * 3600


class ArenaRunner:
    def __init__(
        self,
        store: EventStore,
        partitions: int,
        node: str,
        record: Callable[[str, Rated], Any],
        clock_ms: Callable[[], int] = now_ms,
    ) -> None:
        self.redis = redis = store.redis
        self.store = store
        self.coalescer = Coalescer(redis)
        self.partitions = partitions
        self.node = node
        #: ``record(game, rated)``: rate a table on the game's ladder (exactly once).
        self.record = record
        self.clock_ms = clock_ms
        #: Tables this process has seen open and seated.
        self._opened: set[str] = set()
        #: Told of each table once its players are seated (the player process watches it).
        self.seated: Callable[[str], None] = lambda _table_id: None

    async def execute(self, arena_id: str, command: ArenaCommandUnion, command_id: str) -> ArenaState | None:
        done = await ARENAS.execute(
            self.store,
            arena_keys(arena_id, self.partitions),
            lambda s: decide(s, command),
            command_id,
            self.clock_ms(),
        )
        return done.state

    async def run(self, stopping: asyncio.Event) -> None:
        while not stopping.is_set():
            try:
                for raw in sorted(await self.redis.smembers(ARENAS_OPEN)):
                    await self.tick(raw.decode())
            except Exception:
                metrics.ERRORS.labels("tournaments", "arenas").inc()
                log.warning("arena_tick_failed", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), timeout=TICK_S)

    async def tick(self, arena_id: str) -> None:
        version, state = await ARENAS.load(self.store, arena_keys(arena_id, self.partitions))
        if state is None:
            return
        now = self.clock_ms()
        if state.status == "open" and now >= state.ends_at_ms:
            state = await self.execute(arena_id, Close(at_ms=now), "close")
        elif state.status == "open" and len(state.waiting) >= state.seats:
            state = await self.execute(arena_id, Pair(at_ms=now), f"pair:{version}")
        assert state is not None
        live = [t for t in state.tables if t.placings is None]
        for table in live:
            if table.table_id not in self._opened:
                await self._open(state, table)
        if state.status == "closed" and not live:
            await self.redis.srem(ARENAS_OPEN, arena_id)

    async def _open(self, state: ArenaState, table: ArenaTable) -> None:
        fields = [f"{table.table_id}:{seat}" for seat in range(len(table.players))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for field in fields:
                pipe.hsetnx(arena_tokens(state.arena_id), field, new_token())
            pipe.hmget(arena_tokens(state.arena_id), fields)
            tokens = [t.decode() for t in (await pipe.execute())[-1]]
        keys = GameKeys(table.table_id, partition_of(table.table_id, self.partitions))
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(keys.auth, mapping={token_hash(t): s for s, t in enumerate(tokens)})
            pipe.hset(ARENA_TABLES, table.table_id, state.arena_id)
            await pipe.execute()
        if not await self.store.version(keys):
            msg = open_command(
                table.table_id,
                keys.partition,
                correlation_id=state.arena_id,
                reply_to=self.node,
                game=state.game,
                options=dict(state.game_options),
                tokens=tokens,
            )
            await send(self.coalescer, command_stream(keys.partition), encode(msg))
            deadline = asyncio.get_running_loop().time() + OPEN_WAIT_S
            while not await self.store.version(keys):
                if asyncio.get_running_loop().time() >= deadline:
                    log.warning("arena_table_not_opened", arena_id=state.arena_id, table_id=table.table_id)
                    return  # the next tick tries again
                await asyncio.sleep(0.05)
        await game_index.index(self.store.redis, keys, self.clock_ms())
        source = f"arena:{state.arena_id}"
        entrants = bot_levels(state)
        bots = {
            s: (tokens[s], levels.level_of(entrants[pid]))
            for s, pid in enumerate(table.players)
            if pid in entrants
        }
        if bots:
            await bot_store.hand_over_bots(self.redis, table.table_id, bots, BOT_SEATS_TTL_S)
        await seat_players(
            self.redis,
            table.table_id,
            [
                (pid, Seat(table_id=table.table_id, game=state.game, seat=s, token=tokens[s], source=source))
                for s, pid in enumerate(table.players)
                if pid not in entrants
            ],
        )
        self.seated(table.table_id)
        self._opened.add(table.table_id)

    async def game_over(self, arena_id: str, table_id: str, result: Result) -> None:
        """Score a finished table in its arena and rate it on the ladder; idempotent."""
        _, state = await ARENAS.load(self.store, arena_keys(arena_id, self.partitions))
        table = next((t for t in state.tables if t.table_id == table_id), None) if state else None
        if state is None or table is None:
            log.warning("finished_game_not_an_arena_table", arena_id=arena_id, table_id=table_id)
            return
        placings = placings_of(result, table.players)
        await self.execute(
            arena_id, Score(table_id=table_id, placings=placings, at_ms=self.clock_ms()), f"score:{table_id}"
        )
        bots = bot_levels(state)
        people = tuple(
            RatedPlacing(player_id=p.player_id, place=p.place, score=p.score)
            for p in placings
            if p.player_id not in bots
        )
        if len(people) >= 2:
            rated = Rated(
                table_id=table_id, source=f"arena:{arena_id}", placings=people, at_ms=self.clock_ms()
            )
            await self.record(state.game, rated)
        self._opened.discard(table_id)
