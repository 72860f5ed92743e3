"""Turn one validated command into an append (or a rejection), authoritatively.

Pure apart from the seed source and the clock it is handed: the reducer
re-checks the token and the version, and runs ``decide`` itself unless the
validator's decision (``MoveMsg.decided``) was made against this very
table version of a table without a clock. ``decide`` is a pure function of
the table at a version, the seat and the command there, so reusing that
decision is exact; and the append is checked against the same version, so a
decision made against a state the game has left can never be appended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.keys import GameKeys, kept_game_keys
from shared.eventstore.store import AppendRequest
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.admission import admit
from shared.kernel.clocks import DEFAULT_TAKEOVER, Takeover
from shared.kernel.codec import codec_for
from shared.kernel.rejection import RuleViolation
from shared.kernel.table import Table
from shared.kernel.visibility import may_see
from shared.messaging.messages import (
    AcceptedOutcome,
    CommandMsg,
    Decided,
    MoveMsg,
    OpenMsg,
    RejectedOutcome,
    TimeoutMsg,
    rejected,
)


class Plan(msgspec.Struct, kw_only=True):
    msg: CommandMsg
    request: AppendRequest
    events: list[Any]
    after: Table  # the table once the append lands
    seat: int | None
    #: The events are the validator's decision, not decided here again.
    reused: bool = False


Planned = Plan | RejectedOutcome


def plan(
    msg: CommandMsg,
    table: Table | None,
    now_ms: int,
    new_seed: Callable[[], bytes],
    takeover: Takeover = DEFAULT_TAKEOVER,
) -> Planned:
    keys = kept_game_keys(msg.game_id, msg.partition)
    try:
        if isinstance(msg, OpenMsg):
            return _plan_open(msg, keys, table, now_ms, new_seed, takeover)
        if isinstance(msg, TimeoutMsg):
            return _plan_timeout(msg, keys, table, now_ms)
        return _plan_move(msg, keys, table, now_ms)
    except RuleViolation as exc:
        return rejected(msg, exc.code, exc.message, **exc.details)


def _plan_open(
    msg: OpenMsg,
    keys: GameKeys,
    table: Table | None,
    now_ms: int,
    new_seed: Callable[[], bytes],
    takeover: Takeover,
) -> Planned:
    if table is not None:
        raise RuleViolation("table_exists", f"Table {msg.game_id} already exists.")
    try:
        game = registry.get(msg.open.game)
    except registry.UnknownGame as exc:
        raise RuleViolation("unknown_game", f"No game called {msg.open.game!r}.") from exc
    clock = msg.open.clock
    if clock is not None and clock.takeover is None:
        # Recorded with the table, so its replays and verification play the same takeovers.
        clock = msgspec.structs.replace(clock, takeover=takeover)
    events = tables.open_table(
        game,
        msg.open.seats,
        msg.open.options,
        new_seed(),
        msg.open.token_hashes,
        now_ms,
        clock,
        msg.open.spectator_delay,
    )
    return _append(msg, keys, game, None, None, events, now_ms)


def _plan_timeout(msg: TimeoutMsg, keys: GameKeys, table: Table | None, now_ms: int) -> Planned:
    """Issued by the reducer's own clock watch, never by a client."""
    if table is None:
        raise RuleViolation("unknown_table", f"There is no table {msg.game_id}.")
    game = registry.get(table.game)
    events = tables.timeout(game, table, msg.seat, now_ms)
    return _append(msg, keys, game, table, msg.seat, events, now_ms)


def _plan_move(msg: MoveMsg, keys: GameKeys, table: Table | None, now_ms: int) -> Planned:
    decided = _reusable(msg, table)
    # A reused decision's command was decoded by the validator: it is not decoded again.
    command = None if decided is not None else msg.command
    admitted = admit(msg.game_id, table, msg.token_hash, registry.get, command, msg.expected_version)
    game, table, seat = admitted.game, admitted.table, admitted.seat
    if decided is not None:
        codec = codec_for(game)
        events = [codec.event(raw) for raw in decided.events]
        return _append(msg, keys, game, table, seat, events, now_ms, decided=decided)
    events, after = tables.decided(game, table, seat, admitted.command, now_ms)
    return _append(msg, keys, game, table, seat, events, now_ms, command=admitted.command, folded=after)


def _reusable(msg: MoveMsg, table: Table | None) -> Decided | None:
    """The validator's decision, when it is exactly the one ``decide`` would make now.

    Only at the version it was decided at, after the same last command (a
    second command for the same game in one batch meets a table its first
    command moved on, and decides afresh), and only without a clock: a clocked table's events depend on the
    reducer's own moment.
    """
    decided = msg.decided
    if decided is None or table is None or decided.version != table.version or table.clock is not None:
        return None
    if decided.last_command and decided.last_command != table.last_command:
        return None  # decided at this version of another history (a store that went back)
    return decided


def _append(
    msg: CommandMsg,
    keys: GameKeys,
    game: Any,
    table: Table | None,
    seat: int | None,
    events: list[Any],
    now_ms: int,
    command: Any = None,
    decided: Decided | None = None,
    folded: Table | None = None,
) -> Plan:
    codec = codec_for(game)
    base = table.version if table else 0
    # A reused decision arrives packed already, as the envelopes and the record hold it.
    payloads = decided.events if decided is not None else [codec.pack(e) for e in events]
    command_payload = (
        decided.command if decided is not None else codec.pack(command) if command is not None else b""
    )
    envelopes = [
        EventEnvelope(
            game_id=msg.game_id,
            partition=msg.partition,
            version=base + i,
            event_id=keys.event_id(base + i),
            command_id=msg.command_id,
            correlation_id=msg.correlation_id,
            server_time=now_ms,
            seat=seat,
            payload=payload,
        )
        for i, payload in enumerate(payloads, start=1)
    ]
    record = CommandRecord(
        command_id=msg.command_id,
        seat=seat,
        version=base,
        payload=command_payload,
        kind=msg.kind,
        at_ms=now_ms,
    )
    request = AppendRequest(
        keys=keys, expected=base, command_id=msg.command_id, command=record, envelopes=envelopes
    )
    # ``folded``: the table ``decide`` folded the events to on the way (not folded again).
    reached = folded if folded is not None else tables.fold(game, events, table)
    after = tables.count_move(reached, msg.command_id)
    return Plan(msg=msg, request=request, events=events, after=after, seat=seat, reused=decided is not None)


#: A move whose batch the store could not confirm on its replicas (a replicated
#: durability level; docs/reliability.md, "Durability levels").
UNCONFIRMED = (
    "The store could not confirm this move on enough of its replicas in time, so it is not acknowledged: "
    "it may or may not have been applied. Retry with the same idempotency key to get its outcome."
)


def unconfirmed(msg: CommandMsg) -> RejectedOutcome:
    """503 ``unavailable``: never "accepted" for a move the replicas may not hold."""
    return rejected(msg, "unavailable", UNCONFIRMED)


def accepted(
    msg: CommandMsg,
    game: Any,
    seat: int | None,
    first: int,
    events: list[Any],
    now_ns: int,
    duplicate: bool = False,
) -> AcceptedOutcome:
    """The outcome with the command's events as the acting seat may see them."""
    codec = codec_for(game)
    visible = [msgspec.Raw(codec.json(e)) for e in events if may_see(tables.visibility(game, e), seat)]
    return AcceptedOutcome(
        command_id=msg.command_id,
        request_id=msg.request_id,
        game=game.key,
        first=first,
        last=first + len(events) - 1,
        seat=seat,
        events=visible,
        received_ns=msg.received_ns,
        validated_ns=msg.validated_ns,
        decided_ns=now_ns,
        duplicate=duplicate,
    )
