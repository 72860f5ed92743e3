"""Organiser commands from the gateways: decide, answer, then move the tournament on."""

from __future__ import annotations

import time
from typing import Any

import msgspec
import structlog

from services.platform.manager import GROUP, Manager
from services.platform.writer import SERVICE, Tournaments, _rejected
from shared.eventstore.keys import reply_channel
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.rejection import RuleViolation
from shared.messaging import deadletters
from shared.messaging.control import COMMANDS, TournamentMsg
from shared.messaging.messages import Outcome, dead_letter_replies, encode
from shared.observability import metrics
from shared.tournaments.commands import Create, TournamentCommandUnion

log = structlog.get_logger()
_decode_command = msgspec.json.Decoder(TournamentCommandUnion).decode


class CommandHandler:
    def __init__(self, tournaments: Tournaments, manager: Manager, redis: Any) -> None:
        self.t = tournaments
        self.manager = manager
        self.redis = redis

    async def handle(self, msgs: list[TournamentMsg]) -> list[Outcome]:
        metrics.BATCH_SIZE.labels(SERVICE).observe(len(msgs))
        outcomes = [await self._one(msg) for msg in msgs]
        for msg in {m.tournament_id: m for m in msgs}.values():
            await self.manager.advance(msg.tournament_id)
        return outcomes

    async def poisoned(self, entry_id: bytes, fields: dict[bytes, bytes], body: bytes, error: str) -> None:
        """Park an organiser command that keeps failing (as its stream entry was, so a
        retry puts it back as it came), and tell its requester."""
        await deadletters.park(self.redis, SERVICE, COMMANDS, GROUP, entry_id, fields, error)
        for channel, message in dead_letter_replies([body]):
            await self.redis.publish(channel, message)

    async def _one(self, msg: TournamentMsg) -> Outcome:
        try:
            command = _decode_command(msg.command)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            outcome: Outcome = _rejected(msg.command_id, "bad_request", f"Not a tournament command: {exc}")
        else:
            command = msgspec.structs.replace(command, at_ms=self.t.clock_ms())
            problem = check_game(command) if isinstance(command, Create) else None
            if problem is not None:
                outcome = _rejected(msg.command_id, *problem)
            else:
                outcome = await self.t.execute(msg.tournament_id, command, msg.command_id, msg.correlation_id)
        outcome = msgspec.structs.replace(
            outcome, request_id=msg.request_id, received_ns=msg.received_ns, decided_ns=time.time_ns()
        )
        await self.redis.publish(reply_channel(msg.reply_to), encode([outcome]))
        if outcome.status == "rejected":
            log.info(
                "rejected", tournament_id=msg.tournament_id, command_id=msg.command_id, code=outcome.code
            )
        return outcome


def check_game(command: Create) -> tuple[str, str] | None:
    """What only the platform knows: the game exists, seats fit it, options parse."""
    try:
        game = registry.get(command.game)
    except registry.UnknownGame:
        return "unknown_game", f"No game called {command.game!r}."
    seats = command.seats_per_table
    if not game.min_seats <= seats <= game.max_seats:
        return (
            "bad_seat_count",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} seats, not {seats}.",
        )
    low = command.min_table_size if command.min_table_size is not None else seats
    if low < game.min_seats:
        return "bad_seat_count", f"{game.title} needs at least {game.min_seats} seats at a table."
    # Every table size the tournament may seat must open with these options.
    for size in range(max(low, game.min_seats), seats + 1):
        try:
            tables.checked_options(game, size, command.game_options, command.clock)
        except RuleViolation as exc:
            return exc.code, exc.message
    return None
