"""Small table fixtures written as text, for given/when/then rule tests.

A column is written as its head followed by the cards below it, one letter a
card: ``T`` treasure, ``R`` red, ``B`` blue, ``G`` green, ``K`` black, and
``1``/``2``/``3`` for the blue/black, blue/green and blue/red ships. Seats are
the dynasties of the worked examples in clockwise order: Lion 0, Bull 1,
Bow 2, Vase 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import SHIPS, Card
from shared.games.tigris_cards.events import TigrisCardsEvent
from shared.games.tigris_cards.options import Options
from shared.games.tigris_cards.state import COLUMNS, GAP, Act, Player, Slot, Spot, State, Table, Token
from shared.games.tigris_common.colours import COLOURS, Colour, Leader
from shared.kernel.rng import Rng

LION, BULL, BOW, VASE = 0, 1, 2, 3
LETTER = {
    "T": Card.TREASURE,
    "R": Card.RED,
    "B": Card.BLUE,
    "G": Card.GREEN,
    "K": Card.BLACK,
    "1": Card.SHIP_BLACK,
    "2": Card.SHIP_GREEN,
    "3": Card.SHIP_RED,
}
COLOUR = {"R": Colour.RED, "B": Colour.BLUE, "G": Colour.GREEN, "K": Colour.BLACK}


def spot(column: int, row: int) -> Spot:
    return Spot(column=column, row=row)


def gap(g: int) -> Spot:
    return Spot(column=g, row=GAP)


def hand(text: str) -> tuple[int, int, int, int]:
    colours = [COLOUR[ch] for ch in text]
    return tuple(colours.count(c) for c in COLOURS)  # type: ignore[return-value]


def make_state(
    columns: Mapping[int, str] | None = None,
    gaps: Mapping[int, str] | None = None,
    leaders: Mapping[tuple[int, Leader], Spot] | None = None,
    hands: Mapping[int, str] | None = None,
    seats: int = 4,
    active: int = 0,
    deck: str = "RBGK" * 20,
    vp: Mapping[int, str] | None = None,
    **options: Any,
) -> State:
    cols = [[Slot(card=LETTER[ch]) for ch in (columns or {}).get(c, "T")] for c in range(COLUMNS)]
    gap_slots: list[Slot | None] = [None] * (COLUMNS - 1)
    for g, ch in (gaps or {}).items():
        gap_slots[g] = Slot(card=LETTER[ch])
    table = Table(columns=tuple(tuple(c) for c in cols), gaps=tuple(gap_slots), ships=SHIPS)
    built = {s.card for c in table.columns for s in c}
    table = msgspec.structs.replace(table, ships=tuple(s for s in SHIPS if s not in built))
    for (seat, leader), where in (leaders or {}).items():
        table = tb.with_leader(table, where, Token(seat=seat, leader=leader))
    players = tuple(
        Player(
            hand=hand((hands or {}).get(s, "")),
            vp=tuple(LETTER[ch] for ch in (vp or {}).get(s, "")),
        )
        for s in range(seats)
    )
    return State(
        seats=seats,
        options=msgspec.convert(options, Options),
        table=table,
        players=players,
        deck=tuple(COLOUR[ch] for ch in deck),
        active=active,
        actions_left=2,
        phase=Act(seat=active),
    )


class Run:
    """Commands applied one after another, keeping every event."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[TigrisCardsEvent] = []

    def do(self, seat: int, *commands: Any) -> Run:
        for command in commands:
            events = GAME.decide(self.state, seat, command, Rng(b"\x07" * 32, len(self.events)))
            self.events += events
            self.state = GAME.fold(events, self.state)
        return self

    def of_type(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def column_text(state: State, column: int) -> str:
    back = {v: k for k, v in LETTER.items()}
    return "".join(back[s.card] for s in state.table.columns[column])


def leader_at(state: State, where: Spot) -> Token | None:
    slot = tb.slot_at(state.table, where)
    return None if slot is None else slot.leader
