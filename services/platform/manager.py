"""The process manager: from finished games to results, rounds and new tables.

It reads every partition feed through its own ``tournaments`` consumer group
(all partitions in one read; a game not in a tournament costs a dictionary
lookup).
When a tournament's table reports ``table.finished``, it records the result
(:func:`shared.tournaments.results.record_command`) before the feed entry is
acknowledged, and then :meth:`Manager.advance` brings the tournament forward:
pair the next round or finish once a round is complete, and open the tables
of a paired round.

Everything it sends has a deterministic id (``pm:record:<game>``,
``pm:pair:<round>``, ``pm:open:<round>:<table>``, ``open-<game>`` for the
game itself), and every step first looks at the tournament's state, so a
redelivered event, a crash between two steps, or a restart repeats nothing:
the store answers a repeated command id with its first outcome, and a second
open of the same game is refused with ``table_exists``, which means done.

A step counts as done when its effect is seen, not when it was attempted: a
table is open once its game exists in the store (and is indexed and handed to
its bots), whatever the tournament recorded. Until this process has seen
that, every advance tries the table again. A reconciler (:meth:`Manager.run`)
advances every running tournament every second, so whatever a Redis outage
or a lost reply interrupted is finished without a restart; every few seconds
it also looks for games that ended without their result reaching us.

Order when a table opens: seat tokens (kept once, ``HSETNX``), the game's
auth hash and the game -> tournament map, then ``TableOpened`` in the
tournament, then the game itself. So by the time a game can finish, the
tournament already knows which table it is.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import structlog

from services.platform.ends import held
from services.platform.opening import open_command
from services.platform.writer import BUSY, Tournaments
from shared.eventstore import game_index
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, command_stream, partition_of
from shared.eventstore.store import decode_envelope
from shared.kernel import levels
from shared.kernel.auth import new_token, token_hash
from shared.kernel.table import TableFinished
from shared.messaging.messages import encode
from shared.messaging.replies import Replies
from shared.messaging.streams import Batch
from shared.observability import metrics
from shared.tournaments import store as bot_store
from shared.tournaments.commands import Finish, PairRound
from shared.tournaments.commands import OpenTable as OpenTournamentTable
from shared.tournaments.keys import TOURNAMENT_GAMES, TOURNAMENTS_INDEX
from shared.tournaments.results import record_command
from shared.tournaments.rounds import has_next_round
from shared.tournaments.state import Round, Table, TournamentState, current_round

log = structlog.get_logger()
GROUP = "tournaments"
#: How long one open waits for its game before the next advance tries again.
OPEN_TIMEOUT_S = 15.0
#: While waiting, how often to look whether the game exists (its reply may be lost).
OPEN_POLL_S = 0.5
#: The reconciler advances every running tournament this often...
RECONCILE_S = 1.0
#: ... and this often also looks for ended games whose result never reached us.
SWEEP_S = 10.0
#: Background advances at once: a start with many tournaments to look at
#: must not open a connection for each.
CONCURRENT_ADVANCES = 32
OWNER_CACHE = 200_000
#: ``submit(stream, body)``: add a command to a partition's command stream.
Submit = Callable[[str, bytes], Awaitable[None]]
_finished = msgspec.msgpack.Decoder(TableFinished).decode


class _Kind(msgspec.Struct):
    type: str = ""


_kind = msgspec.msgpack.Decoder(_Kind).decode


class OpenFailed(RuntimeError):
    """A table's game could not be opened this time (the next advance tries again)."""


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
        #: Games this process has seen exist, indexed and given to their bots.
        self._opened: set[str] = set()
        #: Tournaments that may still have a step to take: the reconciler's round.
        self._running: set[str] = set()
        #: One background advance per tournament; the flag asks it to go again
        #: (``True``: with the sweep) once it is done.
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: dict[str, bool] = {}
        self._slots = asyncio.Semaphore(CONCURRENT_ADVANCES)
        self._stopped = False

    # -- reacting to games -------------------------------------------------

    async def handle(self, batch: Batch) -> None:
        """One batch of the partition feeds; acknowledged once every result is recorded.

        A result that could not be recorded raises, so the batch stays pending
        and is read again. Moving the tournaments on happens afterwards, in the
        background: a slow or failing step of one tournament holds up neither
        the feed nor the others (and the reconciler retries it)."""
        owners = await self._owners({fields[b"g"].decode() for _, _, fields in batch.entries})
        ends: list[tuple[str, EventEnvelope]] = []
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
                ends.append((tid, env))
        metrics.TOURNAMENT_MOVES.inc(len(moves))
        tournament_of = {env.game_id: tid for tid, env in ends}
        finished = [
            (tournament_of[env.game_id], env.game_id, _finished(env.payload))
            for env in await held(self.t.store, [env for _, env in ends])
        ]
        for tid, game_id, event in finished:
            await self.game_over(tid, game_id, event)
        async with self.redis.pipeline(transaction=False) as pipe:
            batch.ack(pipe, GROUP)
            await pipe.execute()
        for tid in dict.fromkeys(tid for tid, _, _ in finished):
            self.kick(tid)

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
        """Record a finished game's result; raises if it could not be recorded."""
        self._running.add(tournament_id)
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
            if outcome.code == BUSY:  # not recorded, but it may be next time
                raise RuntimeError(f"result of {game_id} not recorded: {outcome.message}")
            log.error("result_rejected", tournament_id=tournament_id, game_id=game_id, code=outcome.code)
        async with self.redis.pipeline(transaction=False) as pipe:
            bot_store.forget_bots(pipe, game_id)
            await pipe.execute()
        self._opened.discard(game_id)

    # -- moving the tournament on ------------------------------------------

    async def advance(self, tournament_id: str, recover: bool = False) -> bool:
        """Pair, finish or open tables until the tournament waits for games.

        Never raises: a step that fails (Redis away, no reply) is logged and
        left to the next advance, which the reconciler makes within a second.
        True when every step went through. ``recover``: first look at every
        table's game for one that ended without its result reaching us (after
        a restart, or a feed entry parked as a dead letter)."""
        self._running.add(tournament_id)
        try:
            async with self._advancing.setdefault(tournament_id, asyncio.Lock()):
                await self._advance(tournament_id, recover)
        except asyncio.CancelledError:
            raise
        except Exception:
            metrics.ERRORS.labels(GROUP, "advance").inc()
            log.warning("advance_failed", tournament_id=tournament_id, exc_info=True)
            return False
        return True

    def kick(self, tournament_id: str, recover: bool = False) -> None:
        """Advance in the background; at most one at a time per tournament."""
        self._running.add(tournament_id)
        if self._stopped:  # the next process's reconciler takes it from here
            return
        task = self._tasks.get(tournament_id)
        if task is not None and not task.done():
            self._again[tournament_id] = self._again.get(tournament_id, False) or recover
            return
        self._tasks[tournament_id] = asyncio.create_task(self._advance_in_background(tournament_id, recover))

    async def _advance_in_background(self, tournament_id: str, recover: bool) -> None:
        try:
            while True:
                async with self._slots:
                    await self.advance(tournament_id, recover)
                if tournament_id not in self._again:
                    return
                recover = self._again.pop(tournament_id)
        finally:
            self._again.pop(tournament_id, None)
            if self._tasks.get(tournament_id) is asyncio.current_task():
                del self._tasks[tournament_id]

    async def idle(self) -> None:
        """Wait until no background advance is under way."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _advance(self, tournament_id: str, recover: bool) -> None:
        swept = not recover
        for _ in range(100):
            _, state = await self.t.current(tournament_id)
            await self.t.catch_up(tournament_id)
            if state is None or state.status != "running":
                self._running.discard(tournament_id)
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
            if not swept:
                swept = True
                if await self._sweep(state, last):
                    continue
            await self._open_round(state, last)
            return

    async def _sweep(self, state: TournamentState, rnd: Round) -> bool:
        """Record the result of every game of ``rnd`` that is over; True if any was."""
        games = [t.game_id for t in rnd.tables if t.game_id is not None and t.placings is None]
        ended = await asyncio.gather(*(self._ended(self._game_keys(g)) for g in games))
        recorded = False
        for game_id, event in zip(games, ended, strict=True):
            if event is not None:
                # Usually the feed entry is merely still on its way; then it records nothing.
                log.info("result_from_game", tournament_id=state.tournament_id, game_id=game_id)
                await self.game_over(state.tournament_id, game_id, event)
                recorded = True
        return recorded

    async def _open_round(self, state: TournamentState, rnd: Round) -> None:
        """Open every table of ``rnd`` whose game this process has not seen open."""
        tid = state.tournament_id
        todo = [t for t in rnd.tables if t.placings is None and not self._is_open(t)]
        opening: list[tuple[Table, str]] = []
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
                    continue
            opening.append((table, game_id))
        # Every table gets its chance even if another one fails.
        done = await asyncio.gather(
            *(self._open_game(state, table, game_id) for table, game_id in opening), return_exceptions=True
        )
        for result in done:
            if isinstance(result, BaseException):
                raise result

    async def _prepare(self, state: TournamentState, table: Table, game_id: str) -> None:
        """Seat tokens, the game's auth hash and the map back to the tournament."""
        keys = self.t.keys(state.tournament_id)
        fields = [f"{game_id}:{seat}" for seat in range(len(table.players))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for field in fields:
                pipe.hsetnx(keys.seat_tokens, field, new_token())
            await pipe.execute()
        tokens = [t.decode() for t in await self.redis.hmget(keys.seat_tokens, fields)]
        game_keys = self._game_keys(game_id)
        await self.redis.hset(game_keys.auth, mapping={token_hash(t): s for s, t in enumerate(tokens)})
        await self.redis.hset(TOURNAMENT_GAMES, game_id, state.tournament_id)
        self._owner[game_id] = state.tournament_id

    def _is_open(self, table: Table) -> bool:
        return table.game_id is not None and table.game_id in self._opened

    def _game_keys(self, game_id: str) -> GameKeys:
        return GameKeys(game_id, partition_of(game_id, self.t.partitions))

    async def _exists(self, keys: GameKeys) -> bool:
        return await self.t.store.version(keys) > 0

    async def _ended(self, keys: GameKeys) -> TableFinished | None:
        """The game's ``table.finished``, if that is its last event."""
        last = await self.redis.xrevrange(keys.events, count=1)
        if not last:
            return None
        payload = decode_envelope(last[0][1][b"e"]).payload
        return _finished(payload) if _kind(payload).type == "table.finished" else None

    async def _open_game(self, state: TournamentState, table: Table, game_id: str) -> None:
        keys = self.t.keys(state.tournament_id)
        fields = [f"{game_id}:{seat}" for seat in range(len(table.players))]
        tokens = [t.decode() for t in await self.redis.hmget(keys.seat_tokens, fields)]
        game_keys = self._game_keys(game_id)
        if not await self._exists(game_keys) and not await self._submit_open(state, table, game_id, tokens):
            raise OpenFailed(game_id)
        await game_index.index(self.t.store.redis, game_keys, self.t.clock_ms())
        entrants = {p.player_id: p for p in state.players if p.kind == "bot"}
        bots = {
            seat: (tokens[seat], levels.level_of(entrants[pid].bot))
            for seat, pid in enumerate(table.players)
            if pid in entrants
        }
        # A game that is already over needs no players (its result is on its way).
        if bots and await self._ended(game_keys) is None:
            await bot_store.hand_over_bots(self.redis, game_id, bots)
        self._opened.add(game_id)

    async def _submit_open(
        self, state: TournamentState, table: Table, game_id: str, tokens: list[str]
    ) -> bool:
        """Ask the pipeline to open the game; True once it exists."""
        game_keys = self._game_keys(game_id)
        s = state.settings
        msg = open_command(
            game_id,
            game_keys.partition,
            correlation_id=state.tournament_id,
            reply_to=self.node,
            game=s.game,
            options=dict(s.game_options),
            tokens=tokens,
            clock=s.clock,
            spectator_delay=s.delay if (s.delay.moves or s.delay.seconds) else None,
        )
        loop = asyncio.get_running_loop()
        request_id, future = self.replies.expect()
        try:
            sent = msgspec.structs.replace(msg, request_id=request_id)
            await self.submit(command_stream(game_keys.partition), encode(sent))
            deadline = loop.time() + OPEN_TIMEOUT_S
            while not future.done():
                await asyncio.wait({future}, timeout=OPEN_POLL_S)
                if future.done():
                    break
                # Outcomes travel by pub/sub, which drops them while our
                # listener reconnects: the game itself is the answer then.
                if await self._exists(game_keys):
                    return True
                if loop.time() >= deadline:
                    log.warning("open_no_outcome", game_id=game_id)
                    return False
            outcome = future.result()
        finally:
            self.replies.forget(request_id)
        if outcome.status == "accepted" or outcome.code == "table_exists":
            return True
        log.error("game_open_rejected", game_id=game_id, code=outcome.code, message=outcome.message)
        return False

    # -- the reconciler ------------------------------------------------------

    async def recover(self) -> None:
        """Take every running tournament on from where it stopped, and watch them from now on."""
        for raw in await self.redis.zrange(TOURNAMENTS_INDEX, 0, -1):
            self._running.add(raw.decode())
        for tid in sorted(self._running):
            self.kick(tid, recover=True)

    async def run(self, stopping: asyncio.Event) -> None:
        """Until ``stopping``: advance every running tournament every ``RECONCILE_S``.

        A step that failed (Redis away, a reply lost) is taken again on the
        next pass, whichever step it was; passes over tournaments with nothing
        to do read only the tail of their stream."""
        loop = asyncio.get_running_loop()
        seeded = False
        last_sweep = loop.time()
        try:
            while not stopping.is_set():
                try:
                    if not seeded:
                        await self.recover()
                        seeded = True
                    else:
                        sweep = loop.time() - last_sweep >= SWEEP_S
                        if sweep:
                            last_sweep = loop.time()
                        for tid in sorted(self._running):
                            self.kick(tid, recover=sweep)
                except Exception:
                    metrics.ERRORS.labels(GROUP, "reconcile").inc()
                    log.warning("reconcile_failed", exc_info=True)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), timeout=RECONCILE_S)
        finally:
            self._stopped = True
            tasks = list(self._tasks.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
