"""Reading and rewriting the table (docs/rules/tigris-cards.md §3): the mechanics of slots, no rules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from shared.games.tigris_cards.cards import SHIPS, Card
from shared.games.tigris_cards.state import COLUMNS, GAP, GAPS, Slot, Spot, Table, Token


def new_table() -> Table:
    return Table(
        columns=tuple((Slot(card=Card.TREASURE),) for _ in range(COLUMNS)),
        gaps=(None,) * GAPS,
        ships=SHIPS,
    )


def slot_at(table: Table, spot: Spot) -> Slot | None:
    """The card at ``spot``, or ``None`` for an empty or off-table spot."""
    if not 0 <= spot.column < COLUMNS:
        return None
    if spot.row == GAP:
        return table.gaps[spot.column] if spot.column < GAPS else None
    column = table.columns[spot.column]
    return column[spot.row] if 0 <= spot.row < len(column) else None


def slots(table: Table) -> Iterator[tuple[Spot, Slot]]:
    """Every card on the table, column by column, then the connectors."""
    for c, column in enumerate(table.columns):
        for r, slot in enumerate(column):
            yield Spot(column=c, row=r), slot
    for g, connector in enumerate(table.gaps):
        if connector is not None:
            yield Spot(column=g, row=GAP), connector


def find_leader(table: Table, token: Token) -> Spot | None:
    for spot, slot in slots(table):
        if slot.leader == token:
            return spot
    return None


def put(table: Table, spot: Spot, slot: Slot) -> Table:
    if spot.row == GAP:
        gaps = list(table.gaps)
        gaps[spot.column] = slot
        return msgspec.structs.replace(table, gaps=tuple(gaps))
    columns = list(table.columns)
    column = list(columns[spot.column])
    column[spot.row] = slot
    columns[spot.column] = tuple(column)
    return msgspec.structs.replace(table, columns=tuple(columns))


def occupied(table: Table, spot: Spot) -> Slot:
    """The card at a spot that recorded facts or checked rules say holds one."""
    slot = slot_at(table, spot)
    assert slot is not None, f"no card at {spot}"
    return slot


def with_leader(table: Table, spot: Spot, token: Token | None) -> Table:
    return put(table, spot, msgspec.structs.replace(occupied(table, spot), leader=token))


def append(table: Table, column: int, card: Card) -> Table:
    columns = list(table.columns)
    columns[column] = (*columns[column], Slot(card=card))
    return msgspec.structs.replace(table, columns=tuple(columns))


def remove(table: Table, spots: Iterable[Spot]) -> Table:
    """Take cards away; the cards below close up, leaders riding along."""
    gone = set(spots)
    columns = tuple(
        tuple(s for r, s in enumerate(column) if Spot(column=c, row=r) not in gone)
        for c, column in enumerate(table.columns)
    )
    gaps = tuple(None if Spot(column=g, row=GAP) in gone else slot for g, slot in enumerate(table.gaps))
    return msgspec.structs.replace(table, columns=columns, gaps=gaps)
