"""Drive a tournament the way the shell would: decide, then fold."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.kernel.rng import Rng
from shared.tournaments.commands import Create, OpenTable, PairRound, Placing, RecordResult, Register, Start
from shared.tournaments.decide import decide
from shared.tournaments.evolve import evolve
from shared.tournaments.state import TournamentState, current_round

SEED = bytes(range(32))


class Driver:
    """Holds the log and the state; every command goes through ``decide``."""

    def __init__(self, seed: bytes = SEED) -> None:
        self.seed = seed
        self.events: list[Any] = []
        self.state: TournamentState | None = None

    def send(self, command: Any) -> list[Any]:
        events = decide(self.state, command, Rng(self.seed, len(self.events)))
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    @property
    def now(self) -> TournamentState:
        assert self.state is not None
        return self.state


def make(players: int, seed: bytes = SEED, **settings: Any) -> Driver:
    driver = Driver(seed)
    driver.send(Create(tournament_id="t1", game="highcard", **settings))
    for i in range(1, players + 1):
        driver.send(Register(player_id=f"p{i:02d}", name=f"Player {i}"))
    driver.send(Start())
    return driver


def random_placings(players: tuple[str, ...], rng: Rng) -> tuple[Placing, ...]:
    """A random finish with occasional shared places."""
    scores = [rng.below(4) for _ in players]
    return tuple(
        Placing(seat=i, player_id=p, place=1 + sum(s > scores[i] for s in scores), score=scores[i])
        for i, p in enumerate(players)
    )


def play_round(driver: Driver, rng: Rng) -> None:
    """Pair, open every table and record a random result for each."""
    driver.send(PairRound())
    rnd = current_round(driver.now)
    assert rnd is not None
    for table in rnd.tables:
        game_id = f"g{rnd.number}-{table.table}"
        driver.send(OpenTable(round=rnd.number, table=table.table, game_id=game_id))
        driver.send(RecordResult(game_id=game_id, placings=random_placings(table.players, rng)))


def encode(obj: Any) -> bytes:
    return msgspec.msgpack.encode(obj)
