"""Store read models with the checkpoint, atomically, for many games per round trip."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.resources import files
from typing import Any

from shared.eventstore.keys import GameKeys, live_tables
from shared.infra.lua import Call, LuaScript
from shared.readmodels.build import HISTORY, ReadModels
from shared.readmodels.server import ready_marker

_PROJECT = LuaScript(files("shared.readmodels").joinpath("project.lua").read_text())

#: One game's write: its keys, its read models, and the partition-feed entry
#: ids to acknowledge in the same atomic step (empty outside the projector).
Write = tuple[GameKeys, ReadModels, Sequence[bytes]]


def project_call(
    keys: GameKeys, models: ReadModels, acks: Sequence[bytes] = (), group: str = "", check: bool = False
) -> Call:
    """The script's keys and arguments; with ``check`` it writes nothing and
    answers -1 when the partition's ready marker is missing."""
    names = sorted(models.views)
    key_list = [
        keys.checkpoint,
        keys.feed,
        live_tables(keys.partition, models.game),
        ready_marker(keys.partition),
    ]
    key_list += [keys.view(n) for n in names]
    live = ("0" if models.over else "1") if models.game else ""
    args: list[Any] = [
        models.version,
        len(names),
        group,
        len(acks),
        keys.game_id,
        live,
        "1" if check else "",
        models.since,
    ]
    args += acks
    args += [models.views[n] for n in names]
    for name in sorted(models.feeds):
        entries = models.feeds[name]
        if not entries:
            continue
        key_list.append(keys.audience_feed(name))
        index = len(key_list)
        for version, entry in entries:
            args += [index, version, entry]
    return key_list, args


#: The script's answer when the ready marker is missing (nothing was written).
MISSING = -1
#: The script's answer when the checkpoint is below the version the models'
#: feeds continue from (nothing was written): they must be written from the log.
BEHIND = -2


class ReadModelWriter:
    def __init__(self, redis: Any, group: str = "", check: bool = False) -> None:
        self.redis = redis
        self.group = group
        #: Require the ready marker (a read-model server of their own, which may lose everything).
        self.check = check

    async def load(self) -> None:
        """Make sure the server knows the script, for callers that queue it in a
        transaction (where a NOSCRIPT would fail one call after the others ran)."""
        await self.redis.script_load(_PROJECT.source)

    def add(self, pipe: Any, keys: GameKeys, models: ReadModels) -> None:
        """Queue one game's write in a pipeline the caller executes."""
        _PROJECT.queue(pipe, *project_call(keys, models))

    def queue(self, pipe: Any, writes: Sequence[Write]) -> None:
        """Every game's write queued in a pipeline the caller sends. A server
        that lost the script answers NOSCRIPT to them (nothing written): the
        caller writes them again through :meth:`write`, which reloads it."""
        for keys, models, acks in writes:
            _PROJECT.queue(pipe, *project_call(keys, models, acks, self.group, self.check))

    async def write(self, writes: Sequence[Write], then: Callable[[Any], None] | None = None) -> list[Any]:
        """Every game's write in one round trip (reloading the script if the server lost it)."""
        calls = [project_call(k, m, acks, self.group, self.check) for k, m, acks in writes]
        return await _PROJECT.run(self.redis, calls, then)


def _bulk(value: bytes) -> bytes:
    return b"$%d\r\n%b\r\n" % (len(value), value)


def _command(*args: bytes) -> bytes:
    return b"*%d\r\n%b" % (len(args), b"".join(map(_bulk, args)))


_REPLY_OFF = _command(b"CLIENT", b"REPLY", b"OFF")
_REPLY_ON = _command(b"CLIENT", b"REPLY", b"ON")


class Staging:
    """Where a rebuild's feed appends go ahead of its transaction
    (:func:`rewrite_commands`): a key of the game's per feed, named with a
    token of the attempt's own, so no other rebuild's staging can meet it.

    Appends queued inside ``MULTI`` cost Valkey about twice what the same
    appends cost sent plainly (each queued copy, its ``+QUEUED`` answer and
    ``EXEC``'s answer for it; docs/performance.md, "Round 3: projection
    rebuild"), so the entries are appended plainly to these keys and the
    transaction only moves each over its feed. Each expires after
    ``expire_ms`` until moved: an attempt that never reaches its ``EXEC``
    (a crash) leaves nothing behind for long. A staged key that is gone
    when checked (expired or evicted) gives the attempt up, to be tried
    again; one that holds some of its entries had appends refused, which is
    an error. Neither is ever moved over a feed.
    """

    def __init__(self, token: str, expire_ms: int, least: int = 0) -> None:
        self.token = token
        self.expire = b"%d" % expire_ms
        #: A feed of fewer entries is appended inside the transaction: staging
        #: costs six commands a feed, which a short feed's appends do not repay.
        self.least = least
        #: The staging's commands, packed.
        self.commands: list[bytes] = []
        #: The staged keys and the entries each should hold: checked before the
        #: transaction, as an expiry or an eviction would leave a feed short.
        self.keys: list[bytes] = []
        self.lengths: list[int] = []

    def key(self, keys: GameKeys, feed: str) -> bytes:
        return keys.key(f"rebuild:{self.token}:{feed}").encode()

    def add(self, key: bytes, appends: bytes, count: int) -> None:
        self.commands += [_command(b"DEL", key), appends, _command(b"PEXPIRE", key, self.expire)]
        self.keys.append(key)
        self.lengths.append(count)

    def request(self) -> tuple[bytes, int]:
        """The staging as one request, and how many answers it gets: its
        commands unanswered (``CLIENT REPLY OFF``: an answer per append is
        work for both sides, and the lengths checked next say all of it),
        then every staged key watched, and its length."""
        check = [_REPLY_ON, _command(b"WATCH", *self.keys), *(_command(b"XLEN", key) for key in self.keys)]
        # One join: the appends are megabytes, each copy of them a cost per event.
        return b"".join([_REPLY_OFF, *self.commands, *check]), 2 + len(self.keys)

    def short(self, answers: list[Any]) -> list[tuple[bytes, int, int]]:
        """The staged keys that do not hold all their entries, each with the
        entries it holds and those it should (``answers``: the request's)."""
        return [
            (k, n, want) for k, n, want in zip(self.keys, answers[2:], self.lengths, strict=True) if n != want
        ]

    def drop(self) -> bytes:
        """``DEL`` of every staged key (one command), for an attempt given up."""
        return _command(b"DEL", *self.keys)


def rewrite_commands(
    keys: GameKeys, models: ReadModels, out: list[bytes], staging: Staging | None = None
) -> int:
    """Append to ``out`` the packed commands (RESP) that reset one game's read
    models and write them afresh, as the projector's script would from an empty
    checkpoint; returns how many commands. With ``staging``, each feed's
    appends go to its staging key instead, and ``out`` moves that key over
    the feed (``RENAME``, then ``PERSIST``: the expiry moves with it).

    For a rebuild, which queues them in one ``MULTI`` ... ``EXEC`` with the
    checkpoints watched: the stored result is the script's, entry for entry
    (``tests/readmodels/test_rebuild_writes.py``), without its checkpoint
    logic, which a reset makes moot. Packed here rather than by a client: most
    of them are feed appends, and each entry's bytes are shared by every feed
    that holds it.
    """
    names = sorted(models.views)
    # Every audience's feed, and the history's when the models carry one (a
    # restore of a server that lost it); otherwise the history is left alone.
    feed_names = sorted(models.feeds.keys() | models.views.keys())
    feeds = [keys.audience_feed(n).encode() for n in feed_names]
    checkpoint = keys.checkpoint.encode()
    out.append(_command(b"DEL", checkpoint, *feeds))
    count = 1
    if models.game:
        change = b"SREM" if models.over else b"SADD"
        out.append(_command(change, live_tables(keys.partition, models.game).encode(), keys.game_id.encode()))
        count += 1
    for name in names:
        out.append(_command(b"SET", keys.view(name).encode(), models.views[name]))
    count += len(names)
    # The id and the entry, packed once per version for every feed holding it.
    shared: dict[int, bytes] = {}
    for name, feed in zip(feed_names, feeds, strict=True):
        entries = models.feeds.get(name)
        if not entries:
            continue
        staged = staging is not None and len(entries) >= staging.least
        target = staging.key(keys, name) if staging is not None and staged else feed
        head = b"*5\r\n$4\r\nXADD\r\n%b" % _bulk(target)
        parts = [b""]
        # The audiences' feeds share an event's entry; the history's entry at the
        # same version is another document.
        tails: dict[int, bytes] = {} if name == HISTORY else shared
        for version, entry in entries:
            tail = tails.get(version)
            if tail is None:
                tail = tails[version] = b"$%d\r\n0-%d\r\n$1\r\ne\r\n$%d\r\n%b\r\n" % (
                    len(b"%d" % version) + 2,
                    version,
                    len(entry),
                    entry,
                )
            parts.append(tail)
        # The feed's appends as one piece, each tail preceded by the same head
        # (joined after an empty first part: one copy of the megabytes, not two).
        appends = head.join(parts)
        if staging is None or not staged:
            out.append(appends)
            count += len(entries)
        else:
            staging.add(target, appends, len(entries))
            out += [_command(b"RENAME", target, feed), _command(b"PERSIST", feed)]
            count += 2
    out.append(_command(b"SET", checkpoint, b"%d" % models.version))
    return count + 1
