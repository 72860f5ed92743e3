"""``ziggurat verify`` and ``ziggurat rebuild``: check a game and its projections."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import msgspec
from rich.console import Console
from rich.progress import Progress

from services.projector.read_models import audience_name, build
from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import EventStore
from shared.eventstore.tables import decode_all, fold_all
from shared.games import registry
from shared.infra.redis_client import connect
from shared.kernel.codec import codec_for
from shared.kernel.table import TableOpened
from shared.kernel.verify import Decided, Verdict, verify


class AuditLog(msgspec.Struct):
    events: list[EventEnvelope]
    commands: list[CommandRecord]


def verify_log(log: AuditLog) -> tuple[str, Verdict]:
    opened = msgspec.msgpack.decode(log.events[0].payload, type=TableOpened)
    game = registry.get(opened.game)
    codec = codec_for(game)
    events = decode_all(opened.game, log.events)
    decided = [
        Decided(
            seat=c.seat if c.seat is not None else -1,
            version=c.version,
            command=codec.command(c.payload) if c.payload else None,
            kind=c.kind,
            at_ms=c.at_ms,
        )
        for c in log.commands
        if c.kind != "open" and (c.payload or c.kind == "timeout")
    ]
    return opened.game, verify(game, events, decided)


def verify_command(game_id: str, api: str) -> int:
    console = Console()
    r = httpx.get(f"{api}/v1/tables/{game_id}/audit", timeout=30)
    if r.status_code != 200:
        console.print(f"[red]cannot fetch the audit log:[/] {r.json().get('message', r.text)}")
        return 2
    game, verdict = verify_log(msgspec.json.decode(r.content, type=AuditLog))
    if verdict.fair:
        console.print(
            f"[green]fair[/]: {game} game {game_id}: the revealed seed matches its commitment, and "
            f"{verdict.commands} commands re-derive all {verdict.events} events byte for byte."
        )
        return 0
    console.print(f"[red]NOT fair[/]: {game} game {game_id}")
    for problem in verdict.problems:
        console.print(f"  - {problem}")
    return 1


def rebuild_command(redis_url: str, partitions: int, game_id: str | None, write: bool) -> int:
    return asyncio.run(_rebuild(redis_url, partitions, game_id, write))


async def _rebuild(redis_url: str, partitions: int, game_id: str | None, write: bool) -> int:
    """Fold every game from its log, build its read models, and compare them with
    the live ones (or overwrite them with ``write``)."""
    from shared.eventstore.keys import partition_of

    redis = connect(redis_url)
    store = EventStore(redis)
    games = [(game_id, partition_of(game_id, partitions))] if game_id else await store.list_games()
    console = Console()
    mismatched: list[str] = []
    with Progress(console=console) as progress:
        task = progress.add_task("rebuilding projections", total=len(games))
        for gid, partition in games:
            keys = GameKeys(gid, partition)
            if not await _rebuild_one(redis, store, keys, write):
                mismatched.append(gid)
            progress.advance(task)
    await redis.aclose()
    if mismatched and not write:
        console.print(
            f"[red]{len(mismatched)} of {len(games)} projections differ from a rebuild:[/] {mismatched[:10]}"
        )
        return 1
    console.print(
        f"[green]{len(games)} projections {'rewritten' if write else 'equal a rebuild from the log'}[/]"
    )
    return 0


async def _rebuild_one(redis: Any, store: EventStore, keys: GameKeys, write: bool) -> bool:
    envelopes = await store.read(keys)
    table = fold_all(envelopes)
    if table is None:
        return True
    events = decode_all(table.game, envelopes)
    models = build(
        keys.game_id, table, [(e.version, e.server_time, ev) for e, ev in zip(envelopes, events, strict=True)]
    )
    if write:
        async with redis.pipeline(transaction=True) as pipe:
            for name, doc in models.views.items():
                pipe.set(keys.view(name), doc)
                pipe.delete(keys.audience_feed(name))
                for version, entry in models.feeds[name]:
                    pipe.xadd(keys.audience_feed(name), {"e": entry}, id=f"0-{version}")
            pipe.set(keys.checkpoint, models.version)
            await pipe.execute()
        return True
    for seat in [None, *range(table.seats)]:
        name = audience_name(seat)
        if await redis.get(keys.view(name)) != models.views[name]:
            return False
        live = [fields[b"e"] for _, fields in await redis.xrange(keys.audience_feed(name))]
        if live != [entry for _, entry in models.feeds[name]]:
            return False
    return True
