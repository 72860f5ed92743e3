"""Record a golden game per hosted game: ``python -m tests.games.golden.record``.

Each file holds one finished self-play game: its events (as a stored game has
them on the wire), and what folding them must give: the result and every
audience's view. The file is one JSON document laid out one event (and one
audience's view) per line, so that a re-record's diff names exactly the
events that changed. Recording is deliberate: only re-record when a rule
change is meant to change how old games replay (it should not), or after a
schema change that comes with an upcaster.
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


def _line(value: object) -> bytes:
    return msgspec.json.format(msgspec.json.encode(value), indent=0)


def laid_out(golden: Golden) -> bytes:
    """The bytes of a golden file: valid JSON, one event and one view per line."""
    head = _line({"game": golden.game, "seats": golden.seats, "options": golden.options})[:-1]
    events = b",\n".join(_line(event) for event in golden.events)
    views = b",\n".join(_line(audience) + b": " + _line(view) for audience, view in golden.views.items())
    return (
        head
        + b',\n"events": [\n'
        + events
        + b'\n],\n"result": '
        + _line(golden.result)
        + b',\n"views": {\n'
        + views
        + b"\n}}\n"
    )


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
    path.write_bytes(laid_out(golden))
    return path


if __name__ == "__main__":
    for key in sys.argv[1:] or registry.available():
        print(record(key))
