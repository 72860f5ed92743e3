"""The platform's bot runner hands a level's bot its seat's view, not the table it
folded from the store (issue 25): the state the bot receives shows the seat the
view the true table shows it and is not the true state (a determinisation,
which reads only what the seat may see: tests/kernel/test_levels.py), and the
move goes back as the JSON the command route takes."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.platform.bots import BotRunner
from services.reducer.handlers import Reducer
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.kernel.auth import token_hash
from shared.kernel.rng import Rng
from shared.messaging.messages import OpenMsg, OpenTable

pytestmark = pytest.mark.integration

encode = msgspec.json.Encoder().encode
PARTITIONS = 4


async def test_the_runner_hands_the_bot_its_seats_view_not_the_state(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("tigris-cards")
    game_id = "levels-input"
    store = EventStore(redis)
    opening = OpenMsg(
        game_id=game_id,
        partition=partition_of(game_id, PARTITIONS),
        command_id="o",
        correlation_id="c",
        reply_to="gw",
        received_ns=0,
        open=OpenTable(game=game.key, seats=2, token_hashes=(token_hash("a"), token_hash("b"))),
    )
    await Reducer(store, TableCache(store)).process([opening])
    table = (await TableCache(store).refresh([GameKeys(game_id, opening.partition)]))[game_id]
    assert table is not None
    seat = min(game.actors(table.state))
    handed: list[Any] = []

    def recording(state: Any, seat: int, rng: Rng) -> Any:
        handed.append(state)
        return game.bots["easy"](state, seat, rng)

    monkeypatch.setitem(game.bots, "hard", recording)
    runner = BotRunner(redis, "http://unused", store, PARTITIONS)
    try:
        move = await runner.choose(game_id, seat, "hard", table.version)
        assert await runner.choose(game_id, seat, "hard", table.version - 1) is None  # a stale view
    finally:
        runner._thinking.shutdown()
    (given,) = handed
    assert encode(game.view(given, seat)) == encode(game.view(table.state, seat))
    assert encode(given) != encode(table.state), "the bot was handed the table as the store holds it"
    assert move in [msgspec.to_builtins(c) for c in game.legal(table.state, seat)]
