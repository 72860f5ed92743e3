"""Redis keys of player accounts and rating ladders, next to (never inside) the games'.

A player's event stream and a ladder's live in the slot of the partition
their id hashes to, like a game's, so the store's append script (expected
version, dedup by command id) runs on them unchanged; each has its own
per-partition append feed, which no game reader consumes.

Everything else (read models, the key index, each player's tables and turn
inbox) carries one fixed hash tag ``{pl}``, so a script may touch several of
them at once.
"""

from __future__ import annotations

from shared.eventstore.keys import PREFIX, GameKeys, partition_of, tag

SHARED_TAG = "{pl}"
_SHARED = f"{PREFIX}:{SHARED_TAG}"


class _AggregateKeys(GameKeys):
    """The store's keys of one non-game aggregate (``game_id`` holds its id)."""

    __slots__ = ()
    namespace = ""

    def __init__(self, aggregate_id: str, partition: int) -> None:
        super().__init__(aggregate_id, partition)
        base = f"{PREFIX}:{tag(partition)}:{self.namespace}:{aggregate_id}"
        self.events = f"{base}:events"
        self.commands = f"{base}:commands"
        self.dedup = f"{base}:dedup"
        self.meta = f"{base}:meta"
        self.snapshot = f"{base}:snapshot"
        self.feed = f"{PREFIX}:{tag(partition)}:{self.namespace}s:feed"


class PlayerKeys(_AggregateKeys):
    __slots__ = ()
    namespace = "player"


class LadderKeys(_AggregateKeys):
    """The log of one game's ladder (``game_id`` holds the game's key)."""

    __slots__ = ()
    namespace = "ladder"


def player_keys(player_id: str, partitions: int) -> PlayerKeys:
    return PlayerKeys(player_id, partition_of(f"player:{player_id}", partitions))


def ladder_keys(game: str, partitions: int) -> LadderKeys:
    return LadderKeys(game, partition_of(f"ladder:{game}", partitions))


#: key hash -> player id: how the gateway finds the player a key belongs to.
KEY_INDEX = f"{_SHARED}:players:keys"
#: Sorted set of player ids by registration time.
PLAYERS_INDEX = f"{_SHARED}:players:index"
#: table id -> JSON ``[[seat, player id], ...]``: the account seats of live tables.
SEATED = f"{_SHARED}:players:seated"
#: The set of games that have a ladder.
LADDERS = f"{_SHARED}:ladders"


def player_doc(player_id: str) -> str:
    """Hash: the account's read model (name, bot, operator, key_hash, registered_at, version)."""
    return f"{_SHARED}:players:{player_id}"


def player_tables(player_id: str) -> str:
    """Hash: table id -> JSON :class:`shared.players.seats.Seat` of each live table it sits at."""
    return f"{_SHARED}:players:{player_id}:tables"


def player_invitations(player_id: str) -> str:
    """Set: ids of the casual invitations it has not answered (a fresh bot stream hears of them)."""
    return f"{_SHARED}:players:{player_id}:invitations"


def player_games(player_id: str) -> str:
    """List: JSON seats of its finished tables, newest first."""
    return f"{_SHARED}:players:{player_id}:games"


def player_ratings(player_id: str) -> str:
    """Hash: game -> JSON :class:`shared.ladders.ladder.PlayerLadder`."""
    return f"{_SHARED}:players:{player_id}:ratings"


def inbox(player_id: str) -> str:
    """Stream, ids ``0-<n>``: "look at table T, seat S, at version V", for the bot stream."""
    return f"{_SHARED}:players:{player_id}:inbox"


def inbox_counter(player_id: str) -> str:
    return f"{_SHARED}:players:{player_id}:inbox-n"


def ladder_board(game: str) -> str:
    """String: the game's leaderboard (JSON :class:`shared.ladders.ladder.LadderView`)."""
    return f"{_SHARED}:ladders:{game}:board"


def ladder_checkpoint(game: str) -> str:
    """The ladder version the read models were last written at."""
    return f"{_SHARED}:ladders:{game}:projected"


def notice_id(player_id: str) -> str:
    """What a change notice names for a player's inbox."""
    return f"player:{player_id}"


class ArenaKeys(_AggregateKeys):
    __slots__ = ()
    namespace = "arena"


def arena_keys(arena_id: str, partitions: int) -> ArenaKeys:
    return ArenaKeys(arena_id, partition_of(f"arena:{arena_id}", partitions))


#: The ids of arenas not yet closed (or with tables still in play): the arena runner's round.
ARENAS_OPEN = f"{_SHARED}:arenas:open"
#: table id -> arena id, for every table an arena opened.
ARENA_TABLES = f"{_SHARED}:arenas:tables"
#: Sorted set of arena ids by creation time.
ARENAS_INDEX = f"{_SHARED}:arenas:index"


def arena_tokens(arena_id: str) -> str:
    """Hash: ``"<table id>:<seat>"`` -> that seat's token (kept once, server-side)."""
    return f"{_SHARED}:arenas:{arena_id}:tokens"


class CasualKeys(_AggregateKeys):
    __slots__ = ()
    namespace = "casual"


def casual_keys(invitation_id: str, partitions: int) -> CasualKeys:
    return CasualKeys(invitation_id, partition_of(f"casual:{invitation_id}", partitions))


#: table id -> JSON ``{"rated": bool, "seats": [player id or null, ...]}`` of each casual table.
CASUAL_TABLES = f"{_SHARED}:casual:tables"


def casual_tokens(invitation_id: str) -> str:
    """Hash: seat -> that seat's token (kept once, server-side)."""
    return f"{_SHARED}:casual:{invitation_id}:tokens"
