"""Who may see an event: every game maps each event to exactly one of these.

A private fact is emitted as a private event plus a public shadow (for
example ``TilesDrawn`` to one seat and ``TilesDrawnCount`` to everyone), so
redaction is a filter, never a field-by-field rewrite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from shared.kernel.messages import Record

#: ``None`` is the spectator; an ``int`` is a seat (0..n-1).
Audience = int | None


class Public(Record, frozen=True):
    """Everyone sees it, spectators included."""


class Seats(Record, frozen=True):
    """Only these seats see it."""

    seats: frozenset[int]


class ServerOnly(Record, frozen=True):
    """Nobody sees it until the game is over (bag orders, deck orders)."""


Visibility = Public | Seats | ServerOnly

PUBLIC = Public()
SERVER_ONLY = ServerOnly()


def seat_only(seat: int) -> Seats:
    return Seats(seats=frozenset((seat,)))


def may_see(visibility: Visibility, audience: Audience) -> bool:
    match visibility:
        case Public():
            return True
        case Seats(seats=seats):
            return audience is not None and audience in seats
        case ServerOnly():
            return False


E = TypeVar("E")


def by_type(
    fixed: Mapping[type, Visibility], matched: Callable[[E], Visibility]
) -> Callable[[E], Visibility]:
    """A game's map, ``matched`` (a ``match`` over its event classes), answered
    from ``fixed`` for the classes whose visibility their type alone decides:
    one dict look-up where the ``match`` tries class pattern after class
    pattern (1-5 µs an event, most of them public; docs/performance.md, "Round
    3: projection rebuild"). The exact type is looked up, so a subclass goes
    to ``matched``. ``fixed`` must be ``matched``'s cases that read no field,
    exactly: each game's test holds it to that."""
    get = fixed.get

    def visibility(event: E) -> Visibility:
        seen = get(type(event))
        return matched(event) if seen is None else seen

    return visibility


def redact(events: Sequence[E], visibility_of: Callable[[E], Visibility], audience: Audience) -> list[E]:
    """The events ``audience`` may see, in order; ``visibility_of`` is the game's map."""
    return [e for e in events if may_see(visibility_of(e), audience)]
