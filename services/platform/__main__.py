"""``python -m services.platform``: the platform's aggregates and the processes around them.

The tournament writer and its process manager (organiser commands over the
control plane, results and rounds from the partition feeds), the player
process (account seats, turn notices for the bot API, ladders), the arena
runner and the bot runner. One instance runs (the single writer of
tournament streams; a second one would be safe, since every append carries
the expected version, only wasteful). ``ZIGGURAT_API_URL`` is the gateway the
bot runner plays through; ``ZIGGURAT_BOT_PACE_MS`` slows the bots down (for
watching a demo).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import structlog

from services.platform.bots import BotRunner
from services.platform.handlers import CommandHandler
from services.platform.manager import GROUP, Manager
from services.platform.players import PlayerProcess, player_streams
from services.platform.writer import Tournaments
from shared.eventstore.keys import partition_feed
from shared.eventstore.store import EventStore
from shared.infra import durability
from shared.infra.coalesce import Coalescer
from shared.infra.redis_client import Subscriber
from shared.infra.settings import Settings
from shared.messaging.broker import make_broker, subscribe_commands
from shared.messaging.replies import Replies
from shared.messaging.service import Jobs, run
from shared.messaging.streams import StreamReader, send
from shared.observability import metrics

#: The process's name: its log lines' ``service`` field, its Prometheus job, its deployments.
SERVICE = "platform"

log = structlog.get_logger()


async def setup(settings: Settings, redis: Any) -> Jobs:
    broker = make_broker(settings)
    replies = Replies(Subscriber(redis), settings.node, SERVICE)
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
    # Player accounts: seats, turn notices for the bot API, ladders (services/platform/players.py).
    players = PlayerProcess(store, settings.partitions, settings.node)
    player_reader = StreamReader.configured(
        redis, players.GROUP, settings, player_streams(settings.partitions), start_id="$"
    )
    await player_reader.ensure_groups()
    await players.retire_feed_group()
    api_url = settings.api_url or f"http://127.0.0.1:{settings.http_port}"
    bots = BotRunner(redis, api_url, store, settings.partitions, settings.bot_pace_ms / 1000)
    await replies.start()
    await broker.start()
    log.info("bots_play_through", api=api_url)
    return Jobs(
        [
            lambda stopping: reader.run(manager, stopping),
            lambda stopping: player_reader.run(players, stopping),
            players.arenas.run,
            lambda stopping: players.watch.run(players.tables, stopping),
            bots.run,
            # Takes over from a previous run, then retries every step an outage interrupted.
            manager.run,
        ],
        # The feeds and the bots end first (they may still publish), then the broker.
        closes=[broker.stop, replies.stop],
    )


if __name__ == "__main__":
    # Its metrics keep the ``service`` label ``tournaments``: the label its readers
    # take from their consumer group (stored, so stable), and the one dashboards
    # break rejections down by.
    run(SERVICE, setup, label=metrics.TOURNAMENTS)
