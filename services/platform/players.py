"""The player process: seats player accounts, tells them when tables move, keeps the ladders.

It lives in the platform process because that process already owns what it
reacts to (tournament tables and their results) and reads the partition
feeds; a service of its own would add a process to every deployment for a
few reads per finished game. It reads two kinds of streams:

* the tournaments' feeds, through a consumer group of its own (``players``):
  ``tournament.table_opened`` seats the tournament's
  player accounts (their seat tokens stay server-side, in the account's
  tables); ``tournament.result_recorded`` rates the table on the game's
  ladder, among the accounts that sat there;
* the event streams of the tables player accounts sit at, and of no other
  (:mod:`services.platform.table_watch`: a table without an account seat
  costs this process nothing per move): one inbox entry per seat per read
  (the bot stream turns it into a turn or an end), and once a table is over,
  an arena's table goes to the arena runner (:mod:`services.platform.arenas`),
  a rated casual table to its game's ladder, and the table to its players'
  history (last: until then the table stays in the seated index, so a
  restart handles its end again, idempotently).

**Exactly once.** A ladder is an aggregate with its own stream, run by the
one host of platform aggregates with the command id ``table:<table id>``: the
store's dedup answers a redelivered result with its first outcome, and the
ladder's decider decides nothing for a table it has rated. Read models (the leaderboard,
each rated player's ratings) are rewritten after the append, and again on a
redelivery, so a crash in between is repaired. The feed entry is
acknowledged only after all that.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import msgspec
import structlog
from redis.exceptions import ResponseError

from services.platform.arenas import ArenaRunner
from services.platform.ends import held
from services.platform.table_watch import TableWatch
from services.platform.writer import Tournaments
from shared.arenas.keys import ARENA_TABLES
from shared.casual.keys import CASUAL_TABLES
from shared.casual.store import CasualTable
from shared.eventstore.aggregates import Decided, Loaded
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import partition_feed
from shared.eventstore.rewinds import noticer
from shared.eventstore.store import EventStore, decode_envelope
from shared.infra.wallclock import now_ms
from shared.kernel.contract import Result
from shared.kernel.table import TableFinished
from shared.ladders.events import Rated, RatedPlacing
from shared.ladders.keys import LADDERS, ladder_board, ladder_checkpoint, ladder_keys
from shared.ladders.ladder import LadderState, leaderboard, player_ladder
from shared.ladders.store import ladder
from shared.messaging.streams import Batch
from shared.players.keys import player_doc, player_ratings
from shared.players.seats import Seat, Turn
from shared.players.store import seat_players, seated, table_over, turns
from shared.tournaments.events import ResultRecorded, TableOpened
from shared.tournaments.keys import tournament_feed
from shared.tournaments.results import placings_of
from shared.tournaments.state import find_table
from shared.tournaments.store import decode_event

log = structlog.get_logger()
GROUP = "players"
_encode_json = msgspec.json.Encoder().encode
_finished = msgspec.msgpack.Decoder(TableFinished).decode
_casual = msgspec.json.Decoder(CasualTable).decode


class _Kind(msgspec.Struct):
    type: str = ""


_kind = msgspec.msgpack.Decoder(_Kind).decode


def player_streams(partitions: int) -> tuple[str, ...]:
    """The streams of the ``players`` group: the tournaments' feeds only (tables are watched)."""
    return tuple(tournament_feed(p) for p in range(partitions))


class Ladders:
    """Each game's ladder: cached states and the one way to add a rated table."""

    def __init__(self, store: EventStore, partitions: int, clock_ms: Callable[[], int] = now_ms) -> None:
        self.redis = store.redis
        self.store = store
        self.partitions = partitions
        self.clock_ms = clock_ms
        self._states: dict[str, Loaded[LadderState]] = {}
        #: A ladder it holds further on than the store (a failover lost writes) is marked.
        self.noticed = noticer(store.redis, "players")

    async def current(self, game: str) -> tuple[int, LadderState]:
        loaded = await ladder(game).current(
            self.store, ladder_keys(game, self.partitions), self._states.get(game)
        )
        self._states[game] = loaded
        return loaded.version, loaded.state or LadderState(game=game)

    async def record(self, game: str, event: Rated) -> None:
        """Rate one table once, however often it is asked; raises if it could not.
        A redelivery writes the read models again (a crash may have lost them)."""
        rated = [p.player_id for p in event.placings]

        async def project(done: Decided[LadderState, Rated]) -> None:
            assert done.state is not None
            await self.publish(game, done.version, done.state, rated)

        done = await ladder(game).transact(
            self.store,
            ladder_keys(game, self.partitions),
            lambda loaded: ladder(game).decider.decide(loaded.state, event),
            f"table:{event.table_id}",
            self.clock_ms(),
            held=self._states.get(game),
            correlation_id=event.source,
            project=project,
            noticed=self.noticed,
        )
        if done.loaded is not None:
            self._states[game] = done.loaded
        if done.events:
            log.info("ladder_rated", game=game, table_id=event.table_id, version=done.last)

    async def publish(self, game: str, version: int, state: LadderState, rated: list[str]) -> None:
        """The leaderboard and the rated players' ratings, as of ``version``."""
        ids = sorted(state.entries)
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in ids:
                pipe.hmget(player_doc(pid), ["name", "bot"])
            found = await pipe.execute()
        names = {pid: row[0].decode() for pid, row in zip(ids, found, strict=True) if row[0] is not None}
        bots = {pid: row[1] == b"1" for pid, row in zip(ids, found, strict=True)}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(ladder_board(game), _encode_json(leaderboard(state, names, bots)))
            pipe.set(ladder_checkpoint(game), version)
            pipe.sadd(LADDERS, game)
            for pid in rated:
                mine = player_ladder(state, pid)
                if mine is not None:
                    pipe.hset(player_ratings(pid), game, _encode_json(mine))
            await pipe.execute()


class PlayerProcess:
    """The ``players`` consumer group's handler (see the module's docstring)."""

    GROUP = GROUP

    def __init__(self, store: EventStore, partitions: int, node: str) -> None:
        self.redis = redis = store.redis
        self.store = store
        self.partitions = partitions
        # Its own cache of tournament states: it only reads them.
        self.tournaments = Tournaments(store, partitions)
        self.ladders = Ladders(store, partitions)
        #: Arenas' tables end here too; the runner itself is started by the service.
        self.arenas = ArenaRunner(store, partitions, node, self.ladders.record)
        #: The tables accounts sit at (the service runs ``watch.run(self.tables, ...)``).
        self.watch = TableWatch(redis, partitions)
        self.arenas.seated = self.watch.add

    async def retire_feed_group(self) -> None:
        """Drop this group from the partition feeds, which it read before it watched tables
        (left there, its pending entries would be kept for ever)."""
        for p in range(self.partitions):
            with contextlib.suppress(ResponseError):
                await self.redis.xgroup_destroy(partition_feed(p), GROUP)

    async def handle(self, batch: Batch) -> None:
        """A batch of the tournaments' feeds."""
        for _, _, fields in batch.entries:
            env = decode_envelope(fields[b"e"])
            await self._tournament_event(env, _kind(env.payload).type)
        async with self.redis.pipeline(transaction=False) as pipe:
            batch.ack(pipe, GROUP)
            await pipe.execute()

    async def tables(self, read: dict[str, list[tuple[int, bytes]]]) -> None:
        """New events of tables accounts sit at: turns, then the ends of finished tables."""
        at = await seated(self.redis, sorted(read))
        for table in read.keys() - at.keys():
            self.watch.drop(table)  # its end was handled already (the index lets go last)
        await turns(
            self.redis,
            [
                (pid, Turn(table_id=table, seat=seat, version=read[table][-1][0]))
                for table, taken in at.items()
                for seat, pid in taken
            ],
        )
        ends = []
        for table in sorted(at):
            for _, raw in read[table]:
                env = decode_envelope(raw)
                if _kind(env.payload).type == "table.finished":
                    ends.append(env)
        kept = await held(self.store, ends)
        if len(kept) < len(ends):
            # Read from the log and gone from it since (a failover): the watch
            # reads these tables again, from the versions it had handled.
            raise RuntimeError("a table's end read from its log is no longer held: read again")
        finished: dict[str, Result] = {env.game_id: _finished(env.payload).result for env in kept}
        if not finished:
            return
        ids = sorted(finished)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(ARENA_TABLES, ids)
            pipe.hmget(CASUAL_TABLES, ids)
            arenas, casuals = await pipe.execute()
        for table, arena, casual in zip(ids, arenas, casuals, strict=True):
            if arena is not None:
                await self.arenas.game_over(arena.decode(), table, finished[table])
            if casual is not None:
                await self._casual_over(table, _casual(casual), finished[table])
            await table_over(self.redis, table, [pid for _, pid in at[table]])
            self.watch.drop(table)

    async def _casual_over(self, table_id: str, table: CasualTable, result: Result) -> None:
        """A rated casual table is rated among the player accounts that sat there."""
        if not table.rated:
            return
        players = [pid if pid is not None else f"bot:{seat}" for seat, pid in enumerate(table.seats)]
        placings = tuple(
            RatedPlacing(player_id=p.player_id, place=p.place, score=p.score)
            for p in placings_of(result, players)
            if table.seats[p.seat] is not None
        )
        if len(placings) >= 2:
            rated = Rated(
                table_id=table_id, source="casual", placings=placings, at_ms=self.ladders.clock_ms()
            )
            await self.ladders.record(table.game, rated)

    async def _tournament_event(self, env: EventEnvelope, kind: str) -> None:
        if kind not in ("tournament.table_opened", "tournament.result_recorded"):
            return
        event = decode_event(env.payload)
        tid = env.game_id
        _, state = await self.tournaments.current(tid)
        if state is None:
            return
        accounts = {p.player_id for p in state.players if p.account}
        if not accounts:
            return
        if isinstance(event, TableOpened):
            found = find_table(state, event.game_id)
            if found is None or found[1].placings is not None:
                return  # over already: nothing to play
            players = found[1].players
            taken = [(s, pid) for s, pid in enumerate(players) if pid in accounts]
            fields = [f"{event.game_id}:{s}" for s, _ in taken]
            tokens = await self.redis.hmget(self.tournaments.keys(tid).seat_tokens, fields) if fields else []
            await seat_players(
                self.redis,
                event.game_id,
                [
                    (
                        pid,
                        Seat(
                            table_id=event.game_id,
                            game=state.settings.game,
                            seat=s,
                            token=t.decode(),
                            source=f"tournament:{tid}",
                        ),
                    )
                    for (s, pid), t in zip(taken, tokens, strict=True)
                    if t is not None
                ],
            )
            if taken:
                self.watch.add(event.game_id)
        elif isinstance(event, ResultRecorded):
            placings = tuple(
                RatedPlacing(player_id=p.player_id, place=p.place, score=p.score)
                for p in event.placings
                if p.player_id in accounts
            )
            if len(placings) >= 2:
                rated = Rated(
                    table_id=event.game_id, source=f"tournament:{tid}", placings=placings, at_ms=event.at_ms
                )
                await self.ladders.record(state.settings.game, rated)
