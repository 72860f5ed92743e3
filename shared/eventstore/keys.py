"""Every Redis key of the platform, in one place.

All keys of one game carry its partition's hash tag (``{p3}``), so the append
script touches a single slot and runs unchanged on Redis Cluster. Partitions
are the unit of ordering and of scale-out.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Self

PREFIX = "zg"


def partition_of(game_id: str, partitions: int) -> int:
    """A stable hash of the id (not Python's salted ``hash``)."""
    digest = hashlib.blake2b(game_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % partitions


def tag(partition: int) -> str:
    return f"{{p{partition}}}"


class GameKeys:
    """The keys of one game; the base of every aggregate's keys (``namespace`` names the kind)."""

    __slots__ = ("_base", "commands", "dedup", "events", "feed", "game_id", "meta", "partition", "snapshot")
    namespace = "game"

    def __init__(self, game_id: str, partition: int) -> None:
        self.game_id = game_id
        self.partition = partition
        # Every key of the game shares this prefix; built once, as every stage builds
        # a game's keys for each command (a few per command, each formatting six keys).
        self._base = f"{PREFIX}:{tag(partition)}:{self.namespace}:{game_id}:"
        self.events = self.key("events")
        self.commands = self.key("commands")
        self.dedup = self.key("dedup")
        self.meta = self.key("meta")
        self.snapshot = self.key("snapshot")
        self.feed = self.append_feed(partition)

    @classmethod
    def append_feed(cls, partition: int) -> str:
        """The partition's stream the store appends every event of this kind to."""
        return partition_feed(partition)

    def key(self, name: str) -> str:
        return self._base + name

    def view(self, audience: str) -> str:
        return self.key(f"view:{audience}")

    def event_id(self, version: int) -> str:
        """The id of the stream's event at ``version``, unique across the store: stream
        ids are unique only within their namespace (a ladder is named for its game,
        a tournament or a table by whoever opened it). Nothing parses it; events
        stored before 2026-11 with ``<id>:<version>`` keep theirs."""
        return f"{self.namespace}:{self.game_id}:{version}"

    def audience_feed(self, audience: str) -> str:
        return self.key(f"feed:{audience}")

    @property
    def auth(self) -> str:
        """token hash -> seat, written by the gateway that opened the table."""
        return self.key("auth")

    @property
    def checkpoint(self) -> str:
        """The version the read models were last written at."""
        return self.key("projected")

    @property
    def rewound(self) -> str:
        """Hash: versions a process held that the store lost (a failover), each
        with what the store held instead (``shared/eventstore/rewinds.py``)."""
        return self.key("rewound")


@functools.lru_cache(maxsize=4096)
def kept_game_keys(game_id: str, partition: int) -> GameKeys:
    """A game's keys, built once while it is played: each stage wants them for
    every command (about 13k instructions to build, a fifth of a microsecond to
    look up). Shared: nothing changes a ``GameKeys`` once built."""
    return GameKeys(game_id, partition)


class AggregateKeys(GameKeys):
    """The store's keys of one non-game aggregate (``game_id`` holds its id), next to
    (never inside) the games': its own namespace, its own per-partition append feed,
    which no game reader consumes."""

    __slots__ = ()

    @classmethod
    def append_feed(cls, partition: int) -> str:
        return f"{PREFIX}:{tag(partition)}:{cls.namespace}s:feed"

    @classmethod
    def of(cls, aggregate_id: str, partitions: int) -> Self:
        """The keys of ``aggregate_id``, in the partition its namespaced id hashes to."""
        return cls(aggregate_id, partition_of(f"{cls.namespace}:{aggregate_id}", partitions))


#: The hash tag of the platform's records (players, ladders, arenas, casual tables)
#: that are not an aggregate's stream: one slot, so a script may touch several.
PLATFORM_TAG = "{pl}"


def platform_key(name: str) -> str:
    """A key in the platform records' slot."""
    return f"{PREFIX}:{PLATFORM_TAG}:{name}"


def platform_record(family: str, suffix: str) -> Callable[[str], str]:
    """The key of one record of ``family`` (a player's, a ladder's...), by the record's id."""

    def key(record_id: str) -> str:
        return platform_key(f"{family}:{record_id}{suffix}")

    return key


def partition_feed(partition: int) -> str:
    """Every event of every game in the partition, in append order."""
    return f"{PREFIX}:{tag(partition)}:feed"


def deadlines(partition: int) -> str:
    """Sorted set: game id -> when its first seat clock runs out (ms)."""
    return f"{PREFIX}:{tag(partition)}:deadlines"


def live_tables(partition: int, game: str) -> str:
    """Set: ids of the partition's tables of ``game`` that are not over, kept by
    the projector's write script (the gateway's watch counts them)."""
    return f"{PREFIX}:{tag(partition)}:live:{game}"


def command_stream(partition: int) -> str:
    """Commands from the gateway, waiting for a validator."""
    return f"{PREFIX}:{tag(partition)}:commands"


def validated_stream(partition: int) -> str:
    """Commands a validator passed, waiting for the partition's reducer."""
    return f"{PREFIX}:{tag(partition)}:validated"


def reducer_lease(partition: int) -> str:
    """The partition's lease, ``<node>:<token>`` of the reducer holding it, with a TTL
    (``shared/messaging/leases.py``)."""
    return f"{PREFIX}:{tag(partition)}:reducer:lease"


def fencing_token(partition: int) -> str:
    """Hash: the partition's latest lease token (``token``) and who took it (``node``).
    In the games' slot, so the append script compares its writer's token with it."""
    return f"{PREFIX}:{tag(partition)}:reducer:token"


def reply_channel(node: str) -> str:
    """Outcomes for one gateway process (pub/sub: a lost reply is retried by
    the client with the same idempotency key)."""
    return f"{PREFIX}:reply:{node}"


def open_key(digest: str) -> str:
    """A table opening's idempotency record (the caller's address and key, hashed)."""
    return f"{PREFIX}:open-key:{digest}"


DEAD_LETTERS = f"{PREFIX}:dead-letters"  # stream: messages a stage failed on, for an operator
CHANGES_CHANNEL = f"{PREFIX}:changes"  # pub/sub: "game_id version" after a projection
REDUCERS = f"{PREFIX}:reducers"  # sorted set: reducer node -> its heartbeat's expiry (server ms)
#: Before 2026-11 one sorted set indexed every game: its node's failover stopped
#: every table opening. Read once at start and spread over the partitions'.
LEGACY_GAMES_INDEX = f"{PREFIX}:games"


def games_index(partition: int) -> str:
    """Sorted set: the partition's game ids by opening time (ms); for listings and
    rebuilds, never read on the hot path. One per partition, beside the partition's
    own keys, so opening a table needs only its own partition's node."""
    return f"{PREFIX}:{tag(partition)}:games"
