"""``python -m services.tournaments``: tournament writer, process manager, bot runner.

One instance runs (the single writer of tournament streams; a second one
would be safe, since every append carries the expected version, only
wasteful). ``ZIGGURAT_API_URL`` is the gateway the bot runner plays through;
``ZIGGURAT_BOT_PACE_MS`` slows the bots down (for watching a demo).
"""

from __future__ import annotations

import asyncio
import signal
from functools import partial

import uvloop

from services.tournaments.bots import BotRunner
from services.tournaments.handlers import CommandHandler
from services.tournaments.manager import GROUP, Manager
from services.tournaments.players import PlayerProcess, player_streams
from services.tournaments.writer import Tournaments
from shared.eventstore.keys import partition_feed
from shared.eventstore.store import EventStore
from shared.infra import durability
from shared.infra.coalesce import Coalescer
from shared.infra.memory import freeze_startup_objects
from shared.infra.redis_client import Subscriber, store_client
from shared.infra.settings import load
from shared.messaging.broker import make_broker, subscribe_commands
from shared.messaging.replies import Replies
from shared.messaging.streams import StreamReader, send
from shared.observability import health, metrics
from shared.observability.logging import configure

STOP_S = 5.0


async def main() -> None:
    settings = load()
    log = configure("tournaments", settings.node, settings.log_level)
    redis = store_client(settings)
    broker = make_broker(settings)
    replies = Replies(Subscriber(redis), settings.node, "tournaments")
    # Its acknowledgements are as durable as a move's (ZIGGURAT_DURABILITY).
    store = EventStore(redis, durable=durability.configured(settings))
    tournaments = Tournaments(store, settings.partitions, max_entries=settings.max_tournament_entries)
    manager = Manager(tournaments, redis, partial(send, Coalescer(redis)), replies, settings.node)
    handler = CommandHandler(tournaments, manager, redis)
    subscribe_commands(broker, GROUP, settings, handler.handle, handler.poisoned)
    # "$": tournament tables are opened by this service, after its groups exist.
    reader = StreamReader.configured(
        redis,
        GROUP,
        settings,
        (partition_feed(p) for p in range(settings.partitions)),
        start_id="$",
        # Results may wait a tenth of a second; batches ten times bigger cost a tenth.
        pace_ms=100,
    )
    await reader.ensure_groups()
    # Player accounts: seats, turn notices for the bot API, ladders (services/tournaments/players.py).
    players = PlayerProcess(store, settings.partitions, settings.node)
    player_reader = StreamReader.configured(
        redis, players.GROUP, settings, player_streams(settings.partitions), start_id="$"
    )
    await player_reader.ensure_groups()
    await players.retire_feed_group()
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    await replies.start()
    await broker.start()
    api_url = settings.api_url or f"http://127.0.0.1:{settings.http_port}"
    pace_s = settings.bot_pace_ms / 1000
    bots = BotRunner(redis, api_url, pace_s)
    tasks = [asyncio.create_task(reader.run(manager, stopping))]
    tasks.append(asyncio.create_task(player_reader.run(players, stopping)))
    tasks.append(asyncio.create_task(players.arenas.run(stopping)))
    tasks.append(asyncio.create_task(players.watch.run(players.tables, stopping)))
    tasks.append(asyncio.create_task(bots.run(stopping)))
    # Takes over from a previous run, then retries every step an outage interrupted.
    tasks.append(asyncio.create_task(manager.run(stopping)))
    server = await health.serve(
        settings.http_host,
        settings.metrics_port,
        lambda: not stopping.is_set(),
        health.store_readiness(redis),
        metrics.registry("tournaments"),
    )
    freeze_startup_objects()
    log.info("started", metrics_port=settings.metrics_port, partitions=settings.partitions, api=api_url)
    await stopping.wait()
    log.info("stopping")
    server.close()
    # The feeds and the bots first (they may still publish), then the broker.
    _, late = await asyncio.wait(tasks, timeout=STOP_S)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await broker.stop()
    await replies.stop()
    await redis.aclose()


if __name__ == "__main__":
    uvloop.run(main())
