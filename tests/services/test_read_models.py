"""The projector's read models: each audience's view and feed, computed purely."""

import msgspec

from services.projector.read_models import build
from shared.kernel import table as tables
from tests.fixtures.highcard import GAME


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
    for name, feed in models.feeds.items():
        kinds = [msgspec.json.decode(entry)["event"]["type"] for _, entry in feed]
        assert "table.sealed" not in kinds and "highcard.deck_shuffled" not in kinds
        dealt = [msgspec.json.decode(entry)["event"] for _, entry in feed]
        seats = {d["seat"] for d in dealt if d["type"] == "highcard.dealt"}
        assert seats == (set() if name == "spectator" else {int(name[-1])})
