"""The broker's AsyncAPI 3.0 document, committed as docs/asyncapi.json.

Every stream and pub/sub channel the services write, with the msgspec type
each entry carries: the game pipeline's partition streams (read by our own
reader), the store's streams, the read models' feeds, the dead letters, the
control plane (FastStream), and the player accounts' side: the players',
ladders', arenas' and casual invitations' event streams and append feeds, and
each player's turn inbox (the bot API's source). The addresses are built by the same key
functions the code writes with, and every schema is generated from the type
that encodes the entry, so neither can drift from the code. (FastStream's own
AsyncAPI generator builds schemas with pydantic, which cannot read msgspec
types; its subscribers' and publisher's titles and descriptions are used for
the control plane's operations.)

``tests/gateway/test_asyncapi_spec.py`` checks the committed copy against this
one and that every stream the code writes is a channel here.
"""

from __future__ import annotations

import copy
import inspect
from functools import cache
from typing import Any

import msgspec
from faststream.redis import RedisBroker

from shared.arenas.events import ArenaEventUnion
from shared.arenas.keys import ArenaKeys
from shared.casual.events import CasualEventUnion
from shared.casual.keys import CasualKeys
from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.keys import (
    CHANGES_CHANNEL,
    DEAD_LETTERS,
    GameKeys,
    command_stream,
    partition_feed,
    reply_channel,
    tag,
    validated_stream,
)
from shared.infra.settings import Settings
from shared.ladders.events import LadderEventUnion
from shared.ladders.keys import LadderKeys
from shared.messaging.broker import command_publisher, make_broker, subscribe_commands
from shared.messaging.control import COMMANDS, TournamentMsg
from shared.messaging.deadletters import DeadLetter
from shared.messaging.messages import CommandMsg, Outcome
from shared.players.decide import PLAYER_ID
from shared.players.events import PlayerEventUnion
from shared.players.keys import PlayerKeys, credential_notice, inbox, notice_id
from shared.players.seats import Turn
from shared.readmodels.build import FeedEntry
from shared.tournaments.keys import TournamentKeys, tournament_feed

SCHEMAS = "#/components/schemas/"
#: Where an address holds a partition's hash tag (``{p0}`` .. ``{pN-1}``).
TAG = "{tag}"
_TAG_PARAMETER = {
    "description": "The partition's hash tag, {p<partition>} for partitions 0 .. partitions-1 "
    "(ZIGGURAT_PARTITIONS); every key of one game carries its partition's tag",
    "examples": [tag(0), tag(1)],
}


def _address(key: str) -> str:
    """A key built for partition 0, with its tag as the address parameter."""
    return key.replace(tag(0), TAG, 1)


def _types() -> dict[str, Any]:
    """Each channel's message name -> the type its entries decode into."""
    return {
        "CommandMsg": CommandMsg,
        "Outcomes": list[Outcome],
        "EventEnvelope": EventEnvelope,
        "CommandRecord": CommandRecord,
        "FeedEntry": FeedEntry,
        "TournamentMsg": TournamentMsg,
        "DeadLetter": DeadLetter,
        "PlayerEvent": PlayerEventUnion,
        "LadderEvent": LadderEventUnion,
        "ArenaEvent": ArenaEventUnion,
        "CasualEvent": CasualEventUnion,
        "Turn": Turn,
    }


def _tidy(node: Any) -> None:
    """Docstrings as msgspec copies them keep their indentation: one line of prose instead."""
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            node["description"] = " ".join(inspect.cleandoc(node["description"]).split())
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)


def _schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """(message name -> payload schema, shared components), generated from the types."""
    names = list(_types())
    payloads, components = msgspec.json.schema_components(
        list(_types().values()), ref_template=SCHEMAS + "{name}"
    )
    out = msgspec.json.decode(msgspec.json.encode(dict(zip(names, payloads, strict=True))))
    components = msgspec.json.decode(msgspec.json.encode(components))
    _tidy(out)
    _tidy(components)
    return out, components


def _message(name: str, payload: dict[str, Any], description: str) -> dict[str, Any]:
    content_type, field = _ENCODINGS[name]
    return {
        "name": name,
        "title": name,
        "contentType": content_type,
        "description": " ".join(inspect.cleandoc(description).split()),
        "payload": payload,
        # The stream entry's field that holds the encoded payload.
        "x-field": field,
    }


_GAME = GameKeys("{game_id}", 0)
_TOURNAMENT = TournamentKeys("{tournament_id}", 0)
_ID = {"description": "The table's id (a tournament's tables: <tournament>-r<round>-t<table>)"}
_PLAYER_ID = {"description": "The player account's id"}
#: The player accounts' aggregates: (channel prefix, keys, id parameter, payload message, what it is).
_AGGREGATES = (
    ("player", PlayerKeys("{player_id}", 0), "player_id", _PLAYER_ID, "PlayerEvent", "One player account"),
    (
        "ladder",
        LadderKeys("{game}", 0),
        "game",
        {"description": "The game's key: one ladder per game"},
        "LadderEvent",
        "One game's rating ladder (a rated table each, command id table:<table id>)",
    ),
    (
        "arena",
        ArenaKeys("{arena_id}", 0),
        "arena_id",
        {"description": "The arena's id"},
        "ArenaEvent",
        "One arena",
    ),
    (
        "casual",
        CasualKeys("{invitation_id}", 0),
        "invitation_id",
        {"description": "The invitation's id (its table's too)"},
        "CasualEvent",
        "One casual table's invitation",
    ),
)


def _aggregate_channels() -> dict[str, tuple[str, dict[str, Any], tuple[str, ...], str, str]]:
    """Each aggregate's event stream and its partition's append feed (which no reader consumes:
    the read models are written by the writer itself)."""
    out: dict[str, tuple[str, dict[str, Any], tuple[str, ...], str, str]] = {}
    for name, keys, param, about, message, what in _AGGREGATES:
        kind = type(keys).__name__
        out[f"{name}-events"] = (
            _address(keys.events),
            {param: about},
            ("EventEnvelope", message),
            f"{what}: its events, entry id 0-<version>, written by the store's append script with the "
            f"expected version (the envelope's payload: a {message})",
            f"{kind}.events",
        )
        out[f"{name}-feed"] = (
            _address(keys.feed),
            {},
            ("EventEnvelope", message),
            f"Every {name} event of a partition, in append order (fields g, v, e as the partition feed); "
            "kept for operators and rebuilds, read by no service",
            f"{kind}.feed",
        )
    return out


#: channel id -> (address, its parameters besides the tag, message names, description, the key's builder).
CHANNELS: dict[str, tuple[str, dict[str, Any], tuple[str, ...], str, str]] = {
    "commands": (
        _address(command_stream(0)),
        {},
        ("CommandMsg",),
        "A partition's commands from the gateways (moves, openings) and the platform process "
        "(its tables' openings), waiting for a validator. Transport: trimmed to about "
        "TRANSPORT_MAXLEN entries.",
        "command_stream",
    ),
    "validated": (
        _address(validated_stream(0)),
        {},
        ("CommandMsg",),
        "Commands a validator authenticated and passed (seat set), waiting for the partition's reducer",
        "validated_stream",
    ),
    "game-events": (
        _address(_GAME.events),
        {"game_id": _ID},
        ("EventEnvelope",),
        "One game's events, entry id 0-<version>: the store of record (the append script writes it "
        "with the partition feed and the command record, atomically)",
        "GameKeys.events",
    ),
    "game-commands": (
        _address(_GAME.commands),
        {"game_id": _ID},
        ("CommandRecord",),
        "One game's accepted commands, entry id 0-<version decided at>: a finished game is "
        "re-decided from them",
        "GameKeys.commands",
    ),
    "partition-feed": (
        _address(partition_feed(0)),
        {},
        ("EventEnvelope",),
        "Every event of every game in the partition, in append order; fields g (game id), v (version) "
        "and e (the envelope). The projector and the platform process read it in consumer groups.",
        "partition_feed",
    ),
    "audience-feed": (
        _address(_GAME.audience_feed("{audience}")),
        {
            "game_id": _ID,
            "audience": {"description": "spectator, or seat<N>", "examples": ["spectator", "seat0"]},
        },
        ("FeedEntry",),
        "What one audience of a game may see of each event, entry id 0-<version>: the live feeds "
        "(server-sent events) read it. Written by the projector's script.",
        "GameKeys.audience_feed",
    ),
    "tournament-events": (
        _address(_TOURNAMENT.events),
        {"tournament_id": {"description": "The tournament's id"}},
        ("EventEnvelope",),
        "One tournament's events, entry id 0-<version> (the payload: a tournament event)",
        "TournamentKeys.events",
    ),
    "tournament-command-records": (
        _address(_TOURNAMENT.commands),
        {"tournament_id": {"description": "The tournament's id"}},
        ("CommandRecord",),
        "One tournament's accepted commands",
        "TournamentKeys.commands",
    ),
    "tournament-feed": (
        _address(tournament_feed(0)),
        {},
        ("EventEnvelope",),
        "Every tournament event of a partition, in append order (fields g, v, e as the partition feed)",
        "tournament_feed",
    ),
    "tournament-commands": (
        COMMANDS,
        {},
        ("TournamentMsg",),
        "The control plane (FastStream): organiser commands from the gateways to the platform "
        "process, one consumer group read in batches, a reclaim subscriber in the same group. "
        "Entries are FastStream's binary message format (field __data__: headers and the JSON body).",
        "COMMANDS",
    ),
    "dead-letters": (
        DEAD_LETTERS,
        {},
        ("DeadLetter",),
        "Messages a stage failed on, each with its stream, group, entry id, error and fields "
        "(msgpack), parked for an operator (ziggurat dead-letters)",
        "DEAD_LETTERS",
    ),
    "replies": (
        reply_channel("{node}"),
        {"node": {"description": "The gateway process waiting for the outcomes"}},
        ("Outcomes",),
        "Pub/sub: the outcomes for one gateway process, one message per stage batch",
        "reply_channel",
    ),
    **_aggregate_channels(),
    "player-inbox": (
        inbox("{player_id}"),
        {"player_id": _PLAYER_ID},
        ("Turn",),
        "One player's turns, entry id 0-<n>: look at this seat of this table, as of at least this "
        "version (0: as it is now). Written by the platform process's player process for every "
        "read of a table the player sits at, and on seating; the bot stream (GET /v1/bot/stream) "
        "reads it after the bot's Last-Event-ID. Trimmed to about INBOX_MAXLEN entries.",
        "inbox",
    ),
}
#: A player's notice names the player as :func:`notice_id` does, with the id's own pattern.
_PLAYER_NOTICE = "^" + notice_id("") + PLAYER_ID.pattern.strip("^$") + " [0-9]+$"
#: A credential's notice names the SHA-256 hex digest of the key that ended.
_CREDENTIAL_NOTICE = "^" + credential_notice("") + "[0-9a-f]{64} 0$"
#: Pub/sub of plain text, one notice a line: "<game_id> <version>" (or "tournament:<id> <version>",
#: "player:<id> <n>", "credential:<key hash> 0").
_CHANGES = {
    "address": CHANGES_CHANNEL,
    "title": "changes",
    "description": "Pub/sub: '<game_id> <version>' (or 'tournament:<id> <version>') after a "
    "projection or a tournament's read models are written, 'player:<id> <n>' after a player's "
    "inbox gets entry n, and 'credential:<key hash> 0' when a credential ended (a rotated "
    "player key: every gateway ends the play connections and bot streams open with it); one "
    "notice a line. The gateways' feeds and bot streams wake on it",
    "messages": {
        "Change": {
            "name": "Change",
            "contentType": "text/plain",
            "payload": {"type": "string", "pattern": "^\\S+ [0-9]+$"},
        },
        "PlayerNotice": {
            "name": "PlayerNotice",
            "contentType": "text/plain",
            "description": "A player's inbox moved to entry n (notice_id)",
            "payload": {"type": "string", "pattern": _PLAYER_NOTICE},
        },
        "CredentialNotice": {
            "name": "CredentialNotice",
            "contentType": "text/plain",
            "description": "A credential ended (a player key rotated): the channels open with it end",
            "payload": {"type": "string", "pattern": _CREDENTIAL_NOTICE},
        },
    },
    "x-key": "CHANGES_CHANNEL",
}
_ENCODINGS = {
    "CommandMsg": ("application/json", "m"),
    "Outcomes": ("application/json", "(pub/sub message)"),
    "EventEnvelope": ("application/msgpack", "e"),
    "CommandRecord": ("application/msgpack", "c"),
    "FeedEntry": ("application/json", "e"),
    "TournamentMsg": ("application/json", "__data__"),
    "DeadLetter": ("text/plain", "(one field per attribute; fields as msgpack)"),
    "PlayerEvent": ("application/msgpack", "e (the envelope's payload)"),
    "LadderEvent": ("application/msgpack", "e (the envelope's payload)"),
    "ArenaEvent": ("application/msgpack", "e (the envelope's payload)"),
    "CasualEvent": ("application/msgpack", "e (the envelope's payload)"),
    "Turn": ("text/plain", "t, s, v (table_id, seat, version: one field each)"),
}
#: For the types without a docstring of their own.
_DESCRIPTIONS = {
    "CommandMsg": "A command on its way through the pipeline: a move, a table to open, or a seat's timeout",
    "Outcomes": "The outcomes of one stage batch for one gateway, one per answered request",
    "EventEnvelope": "An event as the store holds it; the payload is the event's own msgpack",
    "CommandRecord": "An accepted command, kept so a finished game can be re-decided",
    "FeedEntry": "An event as one audience may see it, with its version and server time",
    "DeadLetter": "A parked message: where it came from, why, and its fields as they were",
    "PlayerEvent": "A player account's event: registered, or its key rotated (only the key's hash)",
    "LadderEvent": "A table rated on a game's ladder: its placings among the player accounts",
    "ArenaEvent": "An arena's event: created, a player joined or left, tables paired or scored, closed",
    "CasualEvent": "A casual invitation's event: invited, a player accepted or declined, the table opened",
}
#: (operation id, action, channel id, who, summary).
_OPERATIONS = (
    ("gateway.sendCommands", "send", "commands", "gateway", "Open a table, submit a move"),
    ("tournaments.sendOpenings", "send", "commands", "tournaments", "Open a tournament's tables"),
    ("validator.receiveCommands", "receive", "commands", "validator", "Authenticate and check"),
    ("validator.sendValidated", "send", "validated", "validator", "Pass a checked command on"),
    ("reducer.receiveValidated", "receive", "validated", "reducer", "Decide and append"),
    ("reducer.appendEvents", "send", "game-events", "reducer", "Append a command's events"),
    ("reducer.recordCommands", "send", "game-commands", "reducer", "Keep the accepted command"),
    ("reducer.sendFeed", "send", "partition-feed", "reducer", "Announce the appended events"),
    ("projector.receiveFeed", "receive", "partition-feed", "projector", "Project views and feeds"),
    ("tournaments.receiveFeed", "receive", "partition-feed", "tournaments", "Learn finished tables"),
    ("projector.sendAudienceFeeds", "send", "audience-feed", "projector", "What each audience sees"),
    ("gateway.receiveAudienceFeeds", "receive", "audience-feed", "gateway", "Serve the live feeds"),
    ("tournaments.appendEvents", "send", "tournament-events", "tournaments", "Append a tournament's events"),
    ("tournaments.recordCommands", "send", "tournament-command-records", "tournaments", "Keep the command"),
    ("tournaments.sendFeed", "send", "tournament-feed", "tournaments", "Announce tournament events"),
    ("stages.parkDeadLetters", "send", "dead-letters", "every stage", "Park a message that keeps failing"),
    ("stages.sendReplies", "send", "replies", "validator, reducer, tournaments", "Answer the requests"),
    ("gateway.receiveReplies", "receive", "replies", "gateway", "Answer the waiting requests"),
    ("projector.sendChanges", "send", "changes", "projector, tournaments", "Announce a new version"),
    ("gateway.receiveChanges", "receive", "changes", "gateway", "Wake the feeds"),
    ("gateway.appendPlayers", "send", "player-events", "gateway", "Register a player, rotate its key"),
    ("gateway.sendPlayerFeed", "send", "player-feed", "gateway", "Announce player events"),
    ("tournaments.appendLadders", "send", "ladder-events", "tournaments", "Rate a table on a ladder"),
    ("tournaments.sendLadderFeed", "send", "ladder-feed", "tournaments", "Announce rated tables"),
    ("gateway.appendArenas", "send", "arena-events", "gateway", "Open an arena, join, leave"),
    ("tournaments.appendArenas", "send", "arena-events", "tournaments", "Pair, score, close an arena"),
    ("stores.sendArenaFeed", "send", "arena-feed", "gateway, tournaments", "Announce arena events"),
    ("gateway.appendCasual", "send", "casual-events", "gateway", "Invite, accept, decline, open"),
    ("gateway.sendCasualFeed", "send", "casual-feed", "gateway", "Announce casual events"),
    (
        "tournaments.sendTurns",
        "send",
        "player-inbox",
        "tournaments, gateway",
        "Tell a player to look at a table",
    ),
    ("gateway.receiveTurns", "receive", "player-inbox", "gateway", "Serve the bot streams"),
    (
        "stages.sendPlayerNotices",
        "send",
        "changes",
        "tournaments, gateway",
        "Announce a player's inbox entry",
    ),
    ("tournaments.receiveTableEvents", "receive", "game-events", "tournaments", "Follow account tables"),
    ("gateway.receivePlayerNotices", "receive", "changes", "gateway", "Wake the bot streams"),
    ("gateway.sendCredentialNotices", "send", "changes", "gateway", "Announce a credential that ended"),
    ("gateway.receiveCredentialNotices", "receive", "changes", "gateway", "End its open channels"),
)


def _control_plane_operations() -> dict[str, Any]:
    """The control plane's operations, from the FastStream application's own declarations."""
    broker: RedisBroker = make_broker(Settings(node="{node}"))

    async def nothing(_: Any, __: Any, ___: bytes, ____: str) -> None:
        return None

    async def handle(_: list[TournamentMsg]) -> None:
        return None

    subscribe_commands(broker, "tournaments", Settings(node="{node}"), handle, nothing)
    command_publisher(broker)
    out: dict[str, Any] = {}
    ref = {"$ref": "#/channels/tournament-commands"}
    messages = [{"$ref": "#/channels/tournament-commands/messages/TournamentMsg"}]
    for sub in broker.subscribers:
        spec = sub.specification.config
        stream = sub.stream_sub  # type: ignore[attr-defined]  # a stream subscriber's
        out[str(spec.title_)] = {
            "action": "receive",
            "channel": ref,
            "messages": messages,
            "summary": spec.description_,
            "x-consumer-group": stream.group,
            "x-batch": stream.batch,
            **({"x-min-idle-ms": stream.min_idle_time} if stream.min_idle_time else {}),
        }
    for pub in broker.publishers:
        spec = pub.specification.config
        out[str(spec.title_)] = {
            "action": "send",
            "channel": ref,
            "messages": messages,
            "summary": spec.description_,
        }
    return out


def _description(name: str, type_: Any) -> str:
    """The type's docstring; a union or a list has none of its own (a list's would be list's)."""
    own = type_.__doc__ if isinstance(type_, type) else None
    return own or _DESCRIPTIONS[name]


@cache
def _document() -> dict[str, Any]:
    payloads, components = _schemas()
    types = _types()
    messages = {
        name: _message(name, payload, _description(name, types[name])) for name, payload in payloads.items()
    }
    channels: dict[str, Any] = {}
    for channel_id, (address, parameters, names, description, key) in CHANNELS.items():
        params = {**({"tag": _TAG_PARAMETER} if TAG in address else {}), **parameters}
        channels[channel_id] = {
            "address": address,
            "title": channel_id,
            "description": description,
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in names},
            **({"parameters": params} if params else {}),
            "x-key": key,
        }
    channels["changes"] = _CHANGES
    operations: dict[str, Any] = {}
    for op_id, action, channel_id, who, summary in _OPERATIONS:
        operations[op_id] = {
            "action": action,
            "channel": {"$ref": f"#/channels/{channel_id}"},
            "summary": summary,
            "description": f"By {who}",
            "messages": [
                {"$ref": f"#/channels/{channel_id}/messages/{name}"}
                for name in channels[channel_id]["messages"]
            ],
        }
    operations.update(_control_plane_operations())
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Ziggurat broker",
            "version": "1",
            "description": "The streams and pub/sub channels of Valkey between Ziggurat's services. "
            "The game pipeline's hot path (commands, validated, the store, the feeds) is read by the "
            "services' own stream reader; the control plane (tournament-commands) is a FastStream "
            "application. Every payload schema is generated from the msgspec type that encodes it.",
        },
        "defaultContentType": "application/json",
        "servers": {
            "valkey": {
                "host": "127.0.0.1:6399",
                "protocol": "redis",
                "description": "ZIGGURAT_REDIS_URL; a Redis Cluster with ZIGGURAT_CLUSTER",
            }
        },
        "channels": dict(sorted(channels.items())),
        "operations": dict(sorted(operations.items())),
        "components": {"messages": messages, "schemas": dict(sorted(components.items()))},
    }


def spec() -> dict[str, Any]:
    """A fresh document (callers may change theirs)."""
    return copy.deepcopy(_document())
