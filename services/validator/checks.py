"""The validator's checks: identity, decoding, version, and a dry run of the
game's own rules. It holds no rule of its own: ``decide`` is the only judge.

A command whose id the store has already applied is passed straight on, so a
client's retry gets the first outcome from the reducer instead of a rejection
computed against a state that has moved on.

A move that passes carries what its dry run decided (:class:`Decided`), so the
reducer appends those events without running the rules again while the table
is still at the version they were decided at. What moves is a result, never a
rule: both stages call the same ``decide``.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.admission import admit
from shared.kernel.codec import codec_for
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import SEED_BYTES
from shared.kernel.table import Table
from shared.messaging.messages import (
    MAX_DECIDED_BYTES,
    MAX_DECIDED_EVENTS,
    CommandMsg,
    Decided,
    MoveMsg,
    OpenMsg,
    RejectedOutcome,
    rejected,
)

Verdict = CommandMsg | RejectedOutcome  # passed on (with the seat), or rejected


def judge(msg: CommandMsg, table: Table | None, already_applied: bool) -> tuple[Verdict, Table | None]:
    """The verdict on ``msg``, with the table a passed move's decision leads to (the
    move counted) when the verdict carries that decision: were the reducer to
    append it verbatim, that is the table the log's next events fold to."""
    if isinstance(msg, OpenMsg):
        return check_open(msg, table, already_applied), None
    if isinstance(msg, MoveMsg):
        return _check_move(msg, table, already_applied)
    return rejected(msg, "bad_request", "A timeout is issued by the reducer's clock watch, never sent."), None


def check_open(msg: OpenMsg, table: Table | None, already_applied: bool = False) -> Verdict:
    if already_applied:  # a retried opening: the reducer answers with the first outcome
        return _opened(msg)
    if table is not None:
        return rejected(msg, "table_exists", f"Table {msg.game_id} already exists.")
    try:
        game = registry.get(msg.open.game)
    except registry.UnknownGame:
        return rejected(
            msg, "unknown_game", f"No game called {msg.open.game!r}.", available=registry.available()
        )
    try:
        tables.open_table(
            game,
            msg.open.seats,
            msg.open.options,
            bytes(SEED_BYTES),
            msg.open.token_hashes,
            0,
            msg.open.clock,
            msg.open.spectator_delay,
        )
    except RuleViolation as exc:
        return rejected(msg, exc.code, exc.message, **exc.details)
    return _opened(msg)


def check_move(msg: MoveMsg, table: Table | None, already_applied: bool) -> Verdict:
    return _check_move(msg, table, already_applied)[0]


def _check_move(msg: MoveMsg, table: Table | None, already_applied: bool) -> tuple[Verdict, Table | None]:
    # A retry the store has applied is answered by the reducer: only who sent it is checked.
    command = None if already_applied else msg.command
    expected = None if already_applied else msg.expected_version
    try:
        admitted = admit(msg.game_id, table, msg.token_hash, registry.get, command, expected)
        if already_applied:
            return _passed(msg, admitted.seat), None
        events, after = tables.decided(admitted.game, admitted.table, admitted.seat, admitted.command)
    except RuleViolation as exc:
        return rejected(msg, exc.code, exc.message, **exc.details), None
    codec = codec_for(admitted.game)
    decided = _decided(admitted.table, codec, admitted.command, events)
    counted = tables.count_move(after, msg.command_id) if decided is not None else None
    return _passed(msg, admitted.seat, decided), counted


def _decided(table: Table, codec: Any, command: Any, events: list[Any]) -> Decided | None:
    """The decision the reducer may reuse, if it is exact and small enough to send.

    A clocked table's events depend on the moment they are decided (the
    clock is charged up to it), and only the reducer's moment counts: those
    are decided again.
    """
    if table.clock is not None or len(events) > MAX_DECIDED_EVENTS:
        return None
    packed = tuple(codec.pack(e) for e in events)
    command_packed = codec.pack(command)
    if len(command_packed) + sum(map(len, packed)) > MAX_DECIDED_BYTES:
        return None
    return Decided(
        version=table.version, last_command=table.last_command, command=command_packed, events=packed
    )


def _passed(msg: MoveMsg, seat: int | None, decided: Decided | None = None) -> MoveMsg:
    # ``decided`` is always set here: whatever arrived in that field is not the validator's.
    return msgspec.structs.replace(msg, seat=seat, validated_ns=time.time_ns(), decided=decided)


def _opened(msg: OpenMsg) -> OpenMsg:
    return msgspec.structs.replace(msg, validated_ns=time.time_ns())
