"""``ziggurat verify`` and ``ziggurat rebuild``: check a game and its projections.

The checks themselves are library code (:mod:`shared.readmodels.audit` and
:mod:`shared.readmodels.rebuilder`, which the gateway and the projector use
too); this module fetches, reports and sets the exit status.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import httpx
import msgspec
from rich.console import Console
from rich.progress import Progress

from shared.eventstore import game_index
from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.redis_client import connect
from shared.infra.settings import Settings
from shared.readmodels.audit import AuditLog, verify_log
from shared.readmodels.rebuilder import rebuild_games
from shared.readmodels.server import mark_ready, read_model_client, separate


def verify_command(game_id: str, api: str) -> int:
    console = Console()
    r = httpx.get(f"{api}/v1/tables/{game_id}/audit", timeout=30)
    if r.status_code != 200:
        try:
            reason = r.json().get("message", r.text)
        except ValueError:  # not one of ours, or not JSON: a proxy, another server on the port
            reason = f"HTTP {r.status_code} from {api}"
        console.print(f"[red]cannot fetch the audit log:[/] {reason}", soft_wrap=True)
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


def rebuild_command(
    redis_url: str,
    partitions: int,
    game_ids: list[str],
    write: bool,
    cluster: bool = False,
    workers: int = 1,
    read_model_url: str = "",
) -> int:
    return asyncio.run(_rebuild(redis_url, partitions, game_ids, write, cluster, workers, read_model_url))


async def _rebuild(
    redis_url: str,
    partitions: int,
    game_ids: list[str],
    write: bool,
    cluster: bool,
    workers: int,
    read_model_url: str = "",
) -> int:
    """Fold every game (or the named ones) from its log, build its read models,
    and compare them with the live ones (or overwrite them with ``write``) on
    the read-model server (``read_model_url``; empty: the store's)."""
    redis = connect(redis_url, cluster)
    settings = Settings(redis_url=redis_url, read_model_url=read_model_url, cluster=cluster)
    read = read_model_client(settings, redis)
    console = Console()
    try:
        if game_ids:
            games = [GameKeys(g, partition_of(g, partitions)) for g in game_ids]
            missing = [keys.game_id for keys in games if not await redis.exists(keys.events)]
            if missing:
                where = urlsplit(redis_url)
                console.print(
                    f"[red]no such table: {', '.join(missing)}[/] "
                    f"(in {where.hostname}:{where.port}, with {partitions} partitions)",
                    soft_wrap=True,
                )
                return 2
        else:
            games = await game_index.every_game(redis, partitions)
        with Progress(console=console) as progress:
            task = progress.add_task("rebuilding projections", total=len(games))
            bad = await rebuild_games(
                redis, games, write, lambda n: progress.advance(task, n), workers=workers, read=read
            )
        if write and not game_ids and not bad and separate(settings):
            await mark_ready(read, partitions)  # a complete rebuild: the server holds every game
    finally:
        await redis.aclose()
        if read is not redis:
            await read.aclose()
    if bad and write:
        console.print(
            f"[red]{len(bad)} of {len(games)} projections kept changing while they were rewritten "
            f"(run it again):[/] {bad[:10]}"
        )
        return 1
    if bad:
        console.print(f"[red]{len(bad)} of {len(games)} projections differ from a rebuild:[/] {bad[:10]}")
        return 1
    console.print(
        f"[green]{len(games)} projections {'rewritten' if write else 'equal a rebuild from the log'}[/]"
    )
    return 0
