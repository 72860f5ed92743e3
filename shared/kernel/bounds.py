"""Bounds on every value an untrusted client can send, as msgspec types.

A client's JSON decodes into the command, options and settings structs of the
platform and of each game. Unbounded, an ``int`` field takes a 200-bit number
that msgpack cannot encode further down the pipeline, and a ``str`` or tuple
takes a megabyte; either crashes a stage instead of being refused. Every such
field is therefore declared with one of these aliases (or a game's own alias
for a range only it knows, such as a board's squares), so that decoding
refuses an out-of-range value with ``msgspec.ValidationError``, which the
platform already answers with a 400.

The bounds only keep values sane. They sit at or a little above the largest
legal value and never decide legality: the rules still judge every move.
Values a struct is built with in code are not checked (msgspec checks on
decoding only), so rules keep their own checks.

``tests/kernel/test_bounds_declared.py`` walks every client-facing type and
fails on any integer, string, float or collection left without bounds.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

#: The most seats any hosted game has at a table, with room for a future game.
MAX_SEATS = 8
#: Options named in one request: more than any game has (Conan has about 45).
MAX_OPTIONS = 64
#: Ids named by one command: more than any board or hand holds.
MAX_IDS = 64

#: A seat at a table.
Seat = Annotated[int, Meta(ge=0, le=MAX_SEATS - 1)]
#: A seat, or -1 where a command uses it for "none" (or, where it says so, "every other seat").
OptionalSeat = Annotated[int, Meta(ge=-1, le=MAX_SEATS - 1)]
#: A number of seats, or of places among them.
SeatCount = Annotated[int, Meta(ge=0, le=MAX_SEATS)]
#: A quantity a client names or configures: cards, units, tiles, rounds, a bid's
#: value, an option's count. Far above any game's box, and small enough that
#: sums and products stay far inside 64 bits.
Count = Annotated[int, Meta(ge=0, le=1_000)]
#: A score or points in a standing: games may go below zero (Conan's negative EP).
Score = Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]
#: A moment in milliseconds since the epoch, up to the end of the year 9999.
EpochMs = Annotated[int, Meta(ge=0, le=253_402_300_799_999)]

#: An identifier or short name: a card, a province, a game key, a player id,
#: a bot, an option's value. Ids the platform makes are at most 64 characters.
Name = Annotated[str, Meta(max_length=64)]
#: A longer name: a tournament's display name, a result's reason, or an id
#: built from other ids (a game id is a tournament id, a round and a table).
LongName = Annotated[str, Meta(max_length=256)]
#: Several ids named in one command (cards committed, provinces chosen).
Ids = Annotated[tuple[Name, ...], Meta(max_length=MAX_IDS)]
#: Points per placing, one per seat.
PointsPerPlace = Annotated[tuple[Score, ...], Meta(max_length=MAX_SEATS)]
#: A game's options as the client sent them. The values stay ``Any`` here
#: because the game's own options type, bounded in turn, decodes this dict
#: before anything uses it.
RawOptions = Annotated[dict[Name, Any], Meta(max_length=MAX_OPTIONS)]
