"""The projector's read models: each audience's view and feed, computed purely."""

import msgspec

from shared.kernel import table as tables
from shared.readmodels.build import build
from tests.support.highcard import GAME


def test_each_audience_gets_its_own_view_and_only_its_events() -> None:
    events = tables.open_table(GAME, 3, {}, b"\x04" * 32, ("a", "b", "c"), 0)
    table = tables.fold(GAME, events)
    models = build("g", table, [(v, 7, e) for v, e in enumerate(events, start=1)])
    assert sorted(models.views) == ["seat0", "seat1", "seat2", "spectator"]
    spectator = msgspec.json.decode(models.views["spectator"])
    assert spectator["view"]["hand"] is None and spectator["legal"] == [] and spectator["seed"] == ""
    seat0 = msgspec.json.decode(models.views["seat0"])
    assert seat0["view"]["hand"] == list(table.state.hands[0]) and len(seat0["legal"]) == 3
    assert msgspec.json.decode(models.views["seat1"])["legal"] == []  # not seat 1's turn
    history = models.feeds.pop("history")
    assert [v for v, _ in history] == [table.version]
    assert msgspec.json.decode(history[0][1])["doc"] == spectator
    for name, feed in models.feeds.items():
        kinds = [msgspec.json.decode(entry)["event"]["type"] for _, entry in feed]
        assert "table.sealed" not in kinds and "highcard.deck_shuffled" not in kinds
        dealt = [msgspec.json.decode(entry)["event"] for _, entry in feed]
        seats = {d["seat"] for d in dealt if d["type"] == "highcard.dealt"}
        assert seats == (set() if name == "spectator" else {int(name[-1])})


async def test_a_failed_write_does_not_let_the_cache_run_ahead_of_the_read_models(redis: object) -> None:
    """Regression: after a write failed, the retry skipped events the cache had
    already folded, acknowledged them, and the projection stayed behind forever."""
    import pytest

    from services.projector.handlers import Projector
    from services.reducer.handlers import Reducer
    from shared.eventstore.keys import GameKeys, partition_feed
    from shared.eventstore.store import EventStore
    from shared.eventstore.tables import TableCache
    from shared.messaging.messages import OpenMsg, OpenTable
    from shared.messaging.streams import Batch

    store = EventStore(redis)
    opening = OpenMsg(
        game_id="g",
        partition=0,
        command_id="o",
        correlation_id="c",
        reply_to="gw",
        received_ns=0,
        open=OpenTable(game="highcard", seats=2),
    )
    await Reducer(store, TableCache(store)).process([opening])
    projector = Projector(TableCache(store), redis)
    feed = partition_feed(0)
    await redis.xgroup_create(feed, "projector", id="0")  # type: ignore[attr-defined]
    reply = await redis.xreadgroup("projector", "p", {feed: ">"})  # type: ignore[attr-defined]
    batch = Batch([(feed, entry_id, fields) for entry_id, fields in reply[0][1]])

    class Broken(Exception):
        pass

    async def fail(*_: object, **__: object) -> None:
        raise Broken

    real_write = projector.writer.write
    projector.writer.write = fail  # type: ignore[method-assign]
    with pytest.raises(Broken):
        await projector.handle(batch)
    pending = await redis.xpending(feed, "projector")  # type: ignore[attr-defined]
    assert pending["pending"] == len(batch), "a failed write acknowledges nothing"
    projector.writer.write = real_write  # type: ignore[method-assign]
    await projector.handle(batch)
    assert int(await redis.get(GameKeys("g", 0).checkpoint)) == await store.version(GameKeys("g", 0))  # type: ignore[attr-defined]
    pending = await redis.xpending(feed, "projector")  # type: ignore[attr-defined]
    assert pending["pending"] == 0, "the write acknowledged the entries it projected"
