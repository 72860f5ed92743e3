"""The full, server-side state: frozen records and no behaviour.

The table is the single source of truth for where leaders stand: a leader is
a :class:`Token` on a :class:`Slot`, so cards sliding up in a column carry
their leaders with them and no position ever needs rewriting.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from shared.games.tigris_cards.cards import TOTAL_CARDS, Card, Counts
from shared.games.tigris_cards.options import Options
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.messages import Record

COLUMNS = 8
GAPS = COLUMNS - 1
#: ``Spot.row`` of a connector: the gap to the right of ``Spot.column``'s head.
GAP = -1
#: Client-sent spots name a column of the table, and a row no deeper than
#: every card in the game stacked in one column.
Column = Annotated[int, Meta(ge=0, le=COLUMNS - 1)]
Row = Annotated[int, Meta(ge=GAP, le=TOTAL_CARDS)]


class Token(Record, frozen=True, order=True):
    """One leader of one dynasty."""

    seat: int
    leader: Leader


class Slot(Record, frozen=True):
    card: Card
    leader: Token | None = None


class Spot(Record, frozen=True, order=True):
    """A card on the table: ``row`` 0 is the head of ``column``, 1.. the cards
    below it, and :data:`GAP` the connector between ``column`` and ``column + 1``."""

    column: Column
    row: Row


class Table(Record, frozen=True):
    columns: tuple[tuple[Slot, ...], ...]  # each starts with its head
    gaps: tuple[Slot | None, ...]  # face-up connectors only
    ships: tuple[Card, ...]  # still available to build


class Player(Record, frozen=True):
    hand: Counts
    vp: tuple[Card, ...] = ()  # in the order laid; the last one is the top card
    catastrophe: bool = True  # still in hand


class Union(Record, frozen=True):
    """A connector lying face down while its conflicts are settled."""

    seat: int
    gap: int
    colour: Colour


class Conflict(Record, frozen=True):
    kind: str  # "internal" or "external"
    colour: Colour  # the leaders' colour
    support: Colour  # the colour of the cards committed from hand
    attacker: int
    defender: int
    attacker_base: int
    defender_base: int
    attacker_cards: int | None = None
    defender_cards: int | None = None


class Phase(Record, frozen=True, tag_field="step"):
    """Who is awaited, and for which decision."""


class Act(Phase, frozen=True, tag="act"):
    seat: int


class VpOffer(Phase, frozen=True, tag="vp_offer"):
    """``seat`` may lay one ``colour`` card from hand on its VP pile."""

    seat: int
    colour: Colour
    reason: str  # "card", "reward" or "income"
    column: int = -1  # the column played into (reason "card")
    queue: tuple[Colour, ...] = ()  # ship income still owed after this one


class ShipOffer(Phase, frozen=True, tag="ship_offer"):
    seat: int
    column: int
    colour: Colour
    ships: tuple[Card, ...]
    slid: bool = False  # the series formed by cards sliding up (an option)


class TreasureOffer(Phase, frozen=True, tag="treasure_offer"):
    seat: int
    columns: tuple[int, ...]  # heads that are still treasures in the united kingdom


class Support(Phase, frozen=True, tag="support"):
    seat: int


class ChooseConflict(Phase, frozen=True, tag="choose_conflict"):
    seat: int
    colours: tuple[Colour, ...]


class Over(Phase, frozen=True, tag="over"):
    reason: str


AnyPhase = Act | VpOffer | ShipOffer | TreasureOffer | Support | ChooseConflict | Over


class State(Record, frozen=True):
    seats: int
    options: Options
    table: Table
    players: tuple[Player, ...]
    deck: tuple[Colour, ...] = ()
    discard: Counts = (0, 0, 0, 0)  # out of play, face up
    boxed: tuple[Colour, ...] = ()  # two-player removal, never seen
    active: int = 0
    actions_left: int = 0
    quiet_turns: int = 0
    phase: AnyPhase = Act(seat=0)
    union: Union | None = None
    conflict: Conflict | None = None
