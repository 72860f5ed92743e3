"""Record a golden game per hosted game: ``python -m tests.golden.record``.

Each file holds one finished self-play game: its events (JSON lines, the
format a stored game has on the wire), and what folding them must give: the
result and every audience's view. Recording is deliberate: only re-record when
a rule change is meant to change how old games replay (it should not), or
after a schema change that comes with an upcaster.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from shared.games import registry
from shared.kernel.playout import play

HERE = Path(__file__).parent
SEATS = {"highcard": 3, "tigris": 4, "tigris-cards": 2, "catan": 3, "catan-ck": 4, "conan": 3}
SEED = bytes(range(32))


class Golden(msgspec.Struct):
    game: str
    seats: int
    options: dict[str, object]
    events: list[msgspec.Raw]
    result: msgspec.Raw
    views: dict[str, msgspec.Raw]


def record(key: str) -> Path:
    game = registry.get(key)
    seats = SEATS.get(key, game.min_seats)
    p = play(game, seats, SEED)
    enc = msgspec.json.encode
    golden = Golden(
        game=key,
        seats=seats,
        options=msgspec.to_builtins(game.options()),
        events=[msgspec.Raw(enc(e)) for e in p.events],
        result=msgspec.Raw(enc(game.result(p.state))),
        views={str(a): msgspec.Raw(enc(game.view(p.state, a))) for a in [None, *range(seats)]},
    )
    path = HERE / f"{key}.json"
    path.write_bytes(msgspec.json.format(enc(golden), indent=0))
    return path


if __name__ == "__main__":
    for key in sys.argv[1:] or registry.available():
        print(record(key))
