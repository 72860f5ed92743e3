"""Bots: ``random`` picks any legal command; ``heuristic`` prefers progress.
They are the ``easy`` and ``medium`` levels; ``hard`` searches
(:mod:`shared.kernel.search`), scoring unfinished rollouts by :func:`standing`.

Both read only ``legal`` (which depends on the seat's own hand and public
facts), so they never use what their seat may not see.
"""

from __future__ import annotations

from shared.games.conan import commands as c
from shared.games.conan.content import Pack
from shared.games.conan.legal import legal
from shared.games.conan.state import State
from shared.kernel.rng import Rng


def standing(state: State) -> tuple[float, ...]:
    """Empire points, then (a little) gold: what the final standings count first."""
    return tuple(s.ep + 0.01 * s.gold for s in state.seats)


def random_bot(pack: Pack, state: State, seat: int, rng: Rng) -> c.AnyCommand:
    return rng.choice(legal(pack, state, seat))


#: Higher first: fight, expand and bid well rather than pass.
_PRIORITY: dict[type, int] = {
    c.ForcedMarch: 9,
    c.Attack: 8,
    c.StartIntrigue: 8,
    c.CollectGold: 6,
    c.MoveArmy: 5,
    c.RaiseTroops: 5,
    c.BuildEmissary: 4,
    c.MoveEmissary: 3,
    c.Sorcery: 3,
    c.UseCard: 4,
    c.PlaceGarrison: 2,
}


def _score(cmd: c.AnyCommand) -> int:
    match cmd:
        case c.CommitCard(cards=cards):
            return len(cards)
        case c.MoveArmy(units=n):
            return 5 + n
        case c.PlaceGarrison(city=city):
            return 3 if city else 2
        case c.Buy(item="unit"):
            return 3
        case c.Buy():
            return 2
        case c.ChooseToken(keep=k):
            return 1 if k == "keep" else 0
        case c.ResolveRaids(sacrifice_in=p):
            return len(p)
        case _:
            return _PRIORITY.get(type(cmd), 0)


def rating(state: State, seat: int, commands: list[c.AnyCommand]) -> list[int]:
    """The heuristic bot's score of each of ``commands``: the search's bias."""
    return [_score(x) for x in commands]


def heuristic_bot(pack: Pack, state: State, seat: int, rng: Rng) -> c.AnyCommand:
    options = legal(pack, state, seat)
    best = max(_score(x) for x in options)
    return rng.choice([x for x in options if _score(x) == best])
