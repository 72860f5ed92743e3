"""Ships: four same-coloured cards laid one below another buy a ship.

The trigger is the act of laying the card (docs/rules/tigris-cards.md §12.1:
no ship from cards sliding up), the series is the run at the bottom of the
column ending with the new card, and blue is the joker: a blue series may take
any ship still there.
"""

from __future__ import annotations

from shared.games.tigris_cards.cards import Card, colour_of, is_ship, ships_for_series
from shared.games.tigris_cards.commands import BuildShip
from shared.games.tigris_cards.events import LeaderReturned, ShipBuilt
from shared.games.tigris_cards.rejections import SHIP_UNAVAILABLE
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.state import ShipOffer, Spot, State
from shared.games.tigris_common.colours import Colour
from shared.kernel.rejection import require

SERIES = 4


def bottom_run(state: State, column: int, colour: Colour) -> int:
    """Consecutive ``colour`` cards at the bottom of a column (the head only
    if the option lets it join a series)."""
    slots = state.table.columns[column]
    first = 0 if state.options.head_in_ship_series else 1
    run = 0
    for slot in reversed(slots[first:]):
        if is_ship(slot.card) or colour_of(slot.card) is not colour:
            break
        run += 1
    return run


def ship_choices(state: State, column: int, colour: Colour) -> tuple[Card, ...]:
    run = bottom_run(state, column, colour)
    if run < SERIES or (run > SERIES and not state.options.ship_on_longer_run):
        return ()
    return ships_for_series(colour, state.table.ships)


def build_ship(f: CardsFold, seat: int, command: BuildShip) -> ShipOffer:
    """Swap the series for the chosen ship; the caller continues the action."""
    offer = f.state.phase
    assert isinstance(offer, ShipOffer)
    require(command.ship in offer.ships, SHIP_UNAVAILABLE, "That ship cannot be bought here.")
    slots = f.state.table.columns[offer.column]
    # The bottom-most four of the series go; a head (if allowed in the series)
    # can never leave the table, so it lends its colour but stays.
    taken = min(SERIES, len(slots) - 1)
    for row in range(len(slots) - taken, len(slots)):
        token = slots[row].leader
        if token is not None:
            f.emit(LeaderReturned(token=token, spot=Spot(column=offer.column, row=row)))
    f.emit(ShipBuilt(seat=seat, column=offer.column, colour=offer.colour, ship=command.ship, cards=taken))
    return offer
