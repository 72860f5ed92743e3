"""Kingdoms: runs of columns joined by face-up connectors (docs/rules/tigris-cards.md §5).

Horizontal contact exists only between heads and the connectors between them,
so a kingdom is an interval of columns and everything in them, plus the
connectors inside that interval. A face-down connector links nothing yet.
"""

from __future__ import annotations

from collections.abc import Iterator

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import colour_of, is_ship
from shared.games.tigris_cards.state import GAP, Slot, Spot, Table, Token
from shared.games.tigris_common.colours import Colour, Leader

Span = tuple[int, int]  # first and last column, inclusive


def kingdom(table: Table, column: int) -> Span:
    lo = column
    while lo > 0 and table.gaps[lo - 1] is not None:
        lo -= 1
    hi = column
    while hi < len(table.gaps) and table.gaps[hi] is not None:
        hi += 1
    return lo, hi


def cards_in(table: Table, span: Span) -> Iterator[tuple[Spot, Slot]]:
    lo, hi = span
    for c in range(lo, hi + 1):
        for r, slot in enumerate(table.columns[c]):
            yield Spot(column=c, row=r), slot
    for g in range(lo, hi):
        connector = table.gaps[g]
        if connector is not None:
            yield Spot(column=g, row=GAP), connector


def leaders_in(table: Table, span: Span) -> list[tuple[Spot, Token]]:
    return [(spot, slot.leader) for spot, slot in cards_in(table, span) if slot.leader is not None]


def leader_of_colour(table: Table, span: Span, leader: Leader) -> tuple[Spot, Token] | None:
    """After every conflict there is at most one leader of a colour per kingdom."""
    for spot, token in leaders_in(table, span):
        if token.leader is leader:
            return spot, token
    return None


def colour_strength(table: Table, span: Span, colour: Colour) -> int:
    """Cards of ``colour`` in a kingdom: treasures count red, ships never."""
    return sum(1 for _, slot in cards_in(table, span) if colour_of(slot.card) is colour)


def stands_on_red(table: Table, spot: Spot) -> bool:
    slot = tb.slot_at(table, spot)
    return slot is not None and colour_of(slot.card) is Colour.RED


def civilisation_count(table: Table, column: int, ships_count: bool) -> int:
    """Cards below the head of one column."""
    below = table.columns[column][1:]
    return sum(1 for slot in below if ships_count or not is_ship(slot.card))


def left_side(table: Table, gap: int) -> Span:
    """The kingdom that ends at the left of a gap."""
    return kingdom(table, gap)


def right_side(table: Table, gap: int) -> Span:
    return kingdom(table, gap + 1)
