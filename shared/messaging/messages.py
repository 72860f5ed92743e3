"""The messages between gateway, validator and reducer.

JSON on the transport streams (``shared.messaging.streams``) and on the
gateways' reply channels. The game command inside stays raw JSON until the
validator decodes it with the game's own union, so the gateway never needs a
game's types. Outcomes travel in lists: a stage publishes one message per
gateway per batch, however many of that gateway's commands the batch held.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from shared.eventstore.keys import reply_channel
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.messages import Record


class OpenTable(Record, frozen=True):
    game: str
    seats: int
    options: dict[str, Any] = {}
    token_hashes: tuple[str, ...] = ()
    clock: ClockSettings | None = None
    spectator_delay: SpectatorDelay | None = None


#: A decided move's events travel with it only up to this size in all (their
#: msgpack, before the transport's base64): a bigger decision (a Conan event
#: can carry much of the board) is decided again by the reducer rather than
#: swell the ``validated`` stream.
MAX_DECIDED_BYTES = 16_384
#: More events than any single command of a hosted game causes.
MAX_DECIDED_EVENTS = 256
#: Longer than any command id (a client's key of 128 characters, scoped by 17 more).
MAX_COMMAND_ID = 512


class Decided(Record, frozen=True):
    """The validator's dry run of a move, passed on so the reducer need not run it again.

    ``decide`` is a pure function of the table (state, seed, version), the
    seat, the command and the clock; for a table without a clock the clock
    plays no part, so the events decided at ``version`` are exactly the
    events the reducer would decide at ``version``. The reducer uses them only
    when its table is still at ``version`` (and its append is checked against
    that version anyway); otherwise it decides afresh.
    """

    version: Annotated[int, msgspec.Meta(ge=0)]
    #: The id of the table's last command at ``version``: a decision made on a
    #: table the store has since replaced at that version (a failover that lost
    #: writes, then others') is not reused. Empty from a validator that predates it.
    last_command: Annotated[str, msgspec.Meta(max_length=MAX_COMMAND_ID)] = ""
    #: The command as the game's codec packs it (what the command record keeps).
    command: Annotated[bytes, msgspec.Meta(max_length=MAX_DECIDED_BYTES)]
    #: Each event as the game's codec packs it (an envelope's payload).
    events: Annotated[
        tuple[Annotated[bytes, msgspec.Meta(max_length=MAX_DECIDED_BYTES)], ...],
        msgspec.Meta(max_length=MAX_DECIDED_EVENTS),
    ]


class _Command(Record, frozen=True, tag_field="kind"):
    """What every message on the transport streams carries, whatever its kind.

    A message is one of :data:`CommandMsg`, tagged by ``kind``; each kind
    declares the fields it needs, required. Messages written before the kinds
    were split carried every field (``null`` or empty where unused): they
    decode as their kind, the other kinds' fields ignored.
    """

    game_id: str
    partition: int
    #: The store's idempotency key, unique within the game. A client's key is
    #: scoped by the gateway to the seat token that sent it (see
    #: :func:`scoped_command_id`), so it can never name another seat's command
    #: nor a platform command (``open-...``, ``timeout:...``).
    command_id: str
    correlation_id: str
    reply_to: str  # the gateway node waiting for the outcome
    #: Unique per waiting request: the gateway routes the outcome by it, so two
    #: requests that share an idempotency key each get their own answer.
    request_id: str = ""
    received_ns: int  # when the gateway got it (wall clock, for stage latencies)
    validated_ns: int = 0


class MoveMsg(_Command, frozen=True, tag="move"):
    """A seat's move: the game command as its client sent it."""

    kind: ClassVar[Literal["move"]] = "move"
    token_hash: str  # sha256 of the seat token; the validator authenticates it
    #: The game command as JSON, decoded by the validator with the game's own union.
    command: msgspec.Raw
    expected_version: int | None = None
    seat: int | None = None  # set by the validator once authenticated
    #: On the ``validated`` stream: the validator's decision, when the reducer may reuse it.
    decided: Decided | None = None


class OpenMsg(_Command, frozen=True, tag="open"):
    """A table to create (from a lobby, a tournament, an arena or a casual invitation)."""

    kind: ClassVar[Literal["open"]] = "open"
    open: OpenTable


class TimeoutMsg(_Command, frozen=True, tag="timeout"):
    """A seat's clock ran out: issued by the reducer's own clock watch, never by a client."""

    kind: ClassVar[Literal["timeout"]] = "timeout"
    seat: int


CommandMsg = MoveMsg | OpenMsg | TimeoutMsg


class _Outcome(Record, frozen=True, tag_field="status"):
    """What every outcome carries, accepted or rejected.

    An outcome is one of :data:`Outcome`, tagged by ``status``. Outcomes
    written before the two were split carried every field: they decode as
    their status, the other one's fields ignored.
    """

    command_id: str
    request_id: str = ""  # copied from the request it answers
    game: str = ""  # the game's key, once a stage knows the table
    received_ns: int = 0
    validated_ns: int = 0
    decided_ns: int = 0


class AcceptedOutcome(_Outcome, frozen=True, tag="accepted"):
    """The command's events were appended (or had been: ``duplicate``)."""

    status: ClassVar[Literal["accepted"]] = "accepted"
    first: int  # versions of the command's events
    last: int
    seat: int | None = None
    #: The command's events as the acting seat may see them (JSON).
    events: list[msgspec.Raw] = []
    duplicate: bool = False


class RejectedOutcome(_Outcome, frozen=True, tag="rejected"):
    """The command was refused: a stable code and a message a person understands."""

    status: ClassVar[Literal["rejected"]] = "rejected"
    code: str
    message: str
    details: dict[str, Any] = {}


Outcome = AcceptedOutcome | RejectedOutcome


def rejected(msg: CommandMsg, code: str, message: str, **details: Any) -> RejectedOutcome:
    return RejectedOutcome(
        command_id=msg.command_id,
        request_id=msg.request_id,
        code=code,
        message=message,
        details=details,
        received_ns=msg.received_ns,
        validated_ns=msg.validated_ns,
    )


def scoped_command_id(token_hash: str, client_key: str) -> str:
    """The store's id for a seat's idempotency key: the key belongs to its token.

    A replay of the key from another seat (another token) is a different id,
    judged as a new command; platform ids have no such prefix.
    """
    return f"{token_hash[:SCOPE_CHARS]}:{client_key}"


def client_key(command_id: str) -> str:
    """The client's own key back from a scoped id."""
    return command_id[SCOPE_CHARS + 1 :]


#: 64 bits of the token's hash: collisions between two seats of one table are
#: out of reach, and the prefix is all the store needs.
SCOPE_CHARS = 16

encode = msgspec.json.Encoder().encode
decode_outcomes = msgspec.json.Decoder(list[Outcome]).decode
decode_command = msgspec.json.Decoder(CommandMsg).decode


def decode_batch(bodies: list[bytes]) -> list[CommandMsg]:
    return [decode_command(body) for body in bodies]


def replies_by_node(pairs: Iterable[tuple[str, Outcome]]) -> list[tuple[str, bytes]]:
    """(gateway node, outcome) pairs -> one (reply channel, message) per node."""
    by_node: dict[str, list[Outcome]] = {}
    for node, outcome in pairs:
        if node:
            by_node.setdefault(node, []).append(outcome)
    return [(reply_channel(node), encode(outcomes)) for node, outcomes in by_node.items()]


class _ReplyAddress(msgspec.Struct):
    """Just enough of a message to answer it, whatever else is wrong with it."""

    reply_to: str = ""
    request_id: str = ""
    command_id: str = ""


_address = msgspec.json.Decoder(_ReplyAddress).decode
DEAD_LETTERED = (
    "This command could not be processed and was set aside for an operator; it was not applied. "
    "Sending it again will not help."
)


def dead_letter_replies(bodies: Iterable[bytes]) -> list[tuple[str, bytes]]:
    """Rejections for the waiting requests of messages that were parked."""
    pairs: list[tuple[str, Outcome]] = []
    for body in bodies:
        try:
            to = _address(body)
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError):
            continue  # nobody we can name is waiting for it
        outcome = RejectedOutcome(
            command_id=to.command_id,
            request_id=to.request_id,
            code="dead_lettered",
            message=DEAD_LETTERED,
        )
        pairs.append((to.reply_to, outcome))
    return replies_by_node(pairs)
