"""The process manager: from finished games to results, rounds and new tables.

It reads every partition feed through its own ``tournaments`` consumer group
(all partitions in one read; a game not in a tournament costs a dictionary
lookup).
When a tournament's table reports ``table.finished``, it records the result
(:func:`shared.tournaments.results.record_command`), and then
:meth:`Manager.advance` brings the tournament forward: pair the next round or
finish once a round is complete, and open the tables of a paired round.

Everything it sends has a deterministic id (``pm:record:<game>``,
``pm:pair:<round>``, ``pm:open:<round>:<table>``, ``open-<game>`` for the
game itself), and every step first looks at the tournament's state, so a
redelivered event, a crash between two steps, or a restart repeats nothing:
the store answers a repeated command id with its first outcome, and a second
open of the same game is refused with ``table_exists``, which means done.

Order when a table opens: seat tokens (kept once, ``HSETNX``), the game's
auth hash and the game -> tournament map, then ``TableOpened`` in the
tournament, then the game itself. So by the time a game can finish, the
tournament already knows which table it is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import structlog

from services.gateway.replies import Replies
from services.tournaments.writer import Tournaments
from shared.eventstore.keys import GameKeys, command_stream, partition_of
from shared.eventstore.store import decode_envelope
from shared.eventstore.tournament_keys import BOT_TABLES, TOURNAMENT_GAMES, TOURNAMENTS_INDEX, bot_seats
from shared.kernel.auth import new_token, token_hash
from shared.kernel.table import TableFinished
from shared.messaging.messages import CommandMsg, OpenTable, encode
from shared.messaging.streams import Batch
from shared.observability import metrics
from shared.tournaments.commands import Finish, PairRound
from shared.tournaments.commands import OpenTable as OpenTournamentTable
from shared.tournaments.results import record_command
from shared.tournaments.rounds import has_next_round
from shared.tournaments.state import Round, Table, TournamentState, current_round

log = structlog.get_logger()
GROUP = "tournaments"
OPEN_TIMEOUT_S = 15.0
OWNER_CACHE = 200_000
#: ``submit(stream, body)``: add a command to a partition's command stream.
Submit = Callable[[str, bytes], Awaitable[None]]
_finished = msgspec.msgpack.Decoder(TableFinished).decode


class _Kind(msgspec.Struct):
    type: str = ""


_kind = msgspec.msgpack.Decoder(_Kind).decode


def game_id_for(tournament_id: str, round_: int, table: int) -> str:
    return f"{tournament_id}-r{round_}-t{table}"


class Manager:
    def __init__(
        self,
        tournaments: Tournaments,
        redis: Any,
        submit: Submit,
        replies: Replies,
        node: str,
    ) -> None:
        self.t = tournaments
        self.redis = redis
        self.submit = submit
        self.replies = replies
        self.node = node
        self._owner: dict[str, str | None] = {}  # game id -> tournament id (never changes)
        self._advancing: dict[str, asyncio.Lock] = {}

    # -- reacting to games -------------------------------------------------

    async def handle(self, batch: Batch) -> None:
        """One batch of the partition feeds; acknowledged once every result is recorded."""
        owners = await self._owners({fields[b"g"].decode() for _, _, fields in batch.entries})
        finished: list[tuple[str, str, TableFinished]] = []
        moves: set[tuple[str, str]] = set()
        for _, _, fields in batch.entries:
            game_id = fields[b"g"].decode()
            tid = owners.get(game_id)
            if tid is None:
                continue
            env = decode_envelope(fields[b"e"])
            if env.seat is not None:
                moves.add((game_id, env.command_id))
            if _kind(env.payload).type == "table.finished":
                finished.append((tid, game_id, _finished(env.payload)))
        metrics.TOURNAMENT_MOVES.inc(len(moves))
        for tid, game_id, event in finished:
            await self.game_over(tid, game_id, event)
        async with self.redis.pipeline(transaction=False) as pipe:
            batch.ack(pipe, GROUP)
            await pipe.execute()

    async def _owners(self, game_ids: set[str]) -> dict[str, str | None]:
        unknown = sorted(g for g in game_ids if g not in self._owner)
        if unknown:
            found = await self.redis.hmget(TOURNAMENT_GAMES, unknown)
            for game_id, tid in zip(unknown, found, strict=True):
                # A table is mapped to its tournament before it opens, so a game
                # with events and no mapping never gets one: misses are final too.
                self._owner[game_id] = tid.decode() if tid is not None else None
                if len(self._owner) > OWNER_CACHE:
                    self._owner.pop(next(iter(self._owner)))
        return {g: self._owner.get(g) for g in game_ids}

    async def game_over(self, tournament_id: str, game_id: str, event: TableFinished) -> None:
        _, state = await self.t.current(tournament_id)
        if state is None:
            log.warning("finished_game_of_unknown_tournament", tournament_id=tournament_id, game_id=game_id)
            return
        command = record_command(state, game_id, event.result, self.t.clock_ms())
        if command is None:
            log.warning("finished_game_not_a_table", tournament_id=tournament_id, game_id=game_id)
            return
        outcome = await self.t.execute(tournament_id, command, f"pm:record:{game_id}", game_id)
        if outcome.status == "rejected":
            log.error("result_rejected", tournament_id=tournament_id, game_id=game_id, code=outcome.code)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(BOT_TABLES, game_id)
            pipe.delete(bot_seats(game_id))
            await pipe.execute()
        await self.advance(tournament_id)

    # -- moving the tournament on ------------------------------------------

    async def advance(self, tournament_id: str, recover: bool = False) -> None:
        """Pair, finish or open tables until the tournament waits for games.

        ``recover``: also re-open the tables of the running round (after a
        restart, a game may have been promised to the tournament but not yet
        opened)."""
        async with self._advancing.setdefault(tournament_id, asyncio.Lock()):
            await self._advance(tournament_id, recover)

    async def _advance(self, tournament_id: str, recover: bool) -> None:
        for _ in range(100):
            _, state = await self.t.current(tournament_id)
            if state is None or state.status != "running":
                return
            last = current_round(state)
            if last is None or last.complete:
                if has_next_round(state):
                    number = len(state.rounds) + 1
                    outcome = await self.t.execute(
                        tournament_id, PairRound(at_ms=self.t.clock_ms()), f"pm:pair:{number}"
                    )
                else:
                    outcome = await self.t.execute(
                        tournament_id, Finish(at_ms=self.t.clock_ms()), "pm:finish"
                    )
                if outcome.status == "rejected":
                    log.error("advance_rejected", tournament_id=tournament_id, code=outcome.code)
                    return
                continue
            await self._open_round(state, last, recover)
            return

    async def _open_round(self, state: TournamentState, rnd: Round, recover: bool) -> None:
        tid = state.tournament_id
        todo = [t for t in rnd.tables if t.game_id is None or (recover and t.placings is None)]
        for table in todo:
            game_id = table.game_id or game_id_for(tid, rnd.number, table.table)
            await self._prepare(state, table, game_id)
            if table.game_id is None:
                command = OpenTournamentTable(
                    round=rnd.number, table=table.table, game_id=game_id, at_ms=self.t.clock_ms()
                )
                outcome = await self.t.execute(tid, command, f"pm:open:{rnd.number}:{table.table}")
                if outcome.status == "rejected":
                    log.error("open_rejected", tournament_id=tid, game_id=game_id, code=outcome.code)
                    return
        await asyncio.gather(
            *(self._open_game(state, t, t.game_id or game_id_for(tid, rnd.number, t.table)) for t in todo)
        )

    async def _prepare(self, state: TournamentState, table: Table, game_id: str) -> None:
        """Seat tokens, the game's auth hash and the map back to the tournament."""
        keys = self.t.keys(state.tournament_id)
        fields = [f"{game_id}:{seat}" for seat in range(len(table.players))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for field in fields:
                pipe.hsetnx(keys.seat_tokens, field, new_token())
            await pipe.execute()
        tokens = [t.decode() for t in await self.redis.hmget(keys.seat_tokens, fields)]
        game_keys = GameKeys(game_id, partition_of(game_id, self.t.partitions))
        await self.redis.hset(game_keys.auth, mapping={token_hash(t): s for s, t in enumerate(tokens)})
        await self.redis.hset(TOURNAMENT_GAMES, game_id, state.tournament_id)
        self._owner[game_id] = state.tournament_id

    async def _open_game(self, state: TournamentState, table: Table, game_id: str) -> None:
        keys = self.t.keys(state.tournament_id)
        fields = [f"{game_id}:{seat}" for seat in range(len(table.players))]
        tokens = [t.decode() for t in await self.redis.hmget(keys.seat_tokens, fields)]
        partition = partition_of(game_id, self.t.partitions)
        s = state.settings
        msg = CommandMsg(
            kind="open",
            game_id=game_id,
            partition=partition,
            command_id=f"open-{game_id}",
            correlation_id=state.tournament_id,
            reply_to=self.node,
            received_ns=time.time_ns(),
            open=OpenTable(
                game=s.game,
                seats=len(table.players),
                options=dict(s.game_options),
                token_hashes=tuple(token_hash(t) for t in tokens),
                clock=s.clock,
                spectator_delay=s.delay if (s.delay.moves or s.delay.seconds) else None,
            ),
        )
        for attempt in range(5):
            request_id, future = self.replies.expect()
            try:
                sent = msgspec.structs.replace(msg, request_id=request_id)
                await self.submit(command_stream(partition), encode(sent))
                outcome = await asyncio.wait_for(future, timeout=OPEN_TIMEOUT_S)
            except TimeoutError:
                log.warning("open_no_outcome", game_id=game_id, attempt=attempt)
                continue
            finally:
                self.replies.forget(request_id)
            if outcome.status == "accepted" or outcome.code == "table_exists":
                break
            log.error("game_open_rejected", game_id=game_id, code=outcome.code, message=outcome.message)
            return
        else:
            log.error("game_open_failed", game_id=game_id)
            return
        await self.t.store.index_game(game_id, partition, self.t.clock_ms())
        kinds = {p.player_id: p.kind for p in state.players}
        bots = {seat: tokens[seat] for seat, pid in enumerate(table.players) if kinds.get(pid) == "bot"}
        if bots and table.placings is None:
            await self.redis.hset(bot_seats(game_id), mapping=bots)
            await self.redis.sadd(BOT_TABLES, game_id)

    async def recover(self) -> None:
        """After a start: move every running tournament on from where it stopped."""
        for raw in await self.redis.zrange(TOURNAMENTS_INDEX, 0, -1):
            tid = raw.decode()
            try:
                await self.advance(tid, recover=True)
            except Exception:
                metrics.ERRORS.labels(GROUP, "recover").inc()
                log.exception("recover_failed", tournament_id=tid)
