"""Action 3: each player's single catastrophe removes one card from the table
(docs/rules/tigris-cards.md §10).

Heads, ships and cards carrying a leader are immune; a removed connector
splits its kingdom and leaves the gap free to be filled again.
"""

from __future__ import annotations

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import colour_of, is_ship
from shared.games.tigris_cards.commands import PlayCatastrophe
from shared.games.tigris_cards.events import ActionTaken, Awaiting, CatastropheStruck
from shared.games.tigris_cards.rejections import CARD_PROTECTED, CATASTROPHE_USED
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.ships import bottom_run, ship_choices
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import GAP, ShipOffer, Spot, State
from shared.kernel.rejection import require


def can_strike(state: State, spot: Spot) -> bool:
    slot = tb.slot_at(state.table, spot)
    return slot is not None and spot.row != 0 and slot.leader is None and not is_ship(slot.card)


def play_catastrophe(f: CardsFold, seat: int, command: PlayCatastrophe) -> None:
    require(f.state.players[seat].catastrophe, CATASTROPHE_USED, "You have used your catastrophe.")
    require(
        can_strike(f.state, command.spot),
        CARD_PROTECTED,
        "Only a column card or connector without a leader can be removed (no heads, no ships).",
        spot=command.spot,
    )
    slot = tb.occupied(f.state.table, command.spot)
    f.emit(
        ActionTaken(seat=seat, left=f.state.actions_left - 1),
        CatastropheStruck(seat=seat, spot=command.spot, card=slot.card),
    )
    if f.state.options.ship_after_slide and command.spot.row != GAP:
        offer_slid_ship(f, command.spot)
    else:
        end_action(f)


def offer_slid_ship(f: CardsFold, removed: Spot) -> None:
    """Only a series that closed up across the gap counts: cards from above
    the removed one must have slid down into the bottom run."""
    slots = f.state.table.columns[removed.column]
    bottom = colour_of(slots[-1].card)
    run = 0 if bottom is None else bottom_run(f.state, removed.column, bottom)
    joined = removed.row < len(slots) and len(slots) - run < removed.row
    choices = ship_choices(f.state, removed.column, bottom) if joined and bottom else ()
    if bottom is not None and choices:
        offer = ShipOffer(seat=f.state.active, column=removed.column, colour=bottom, ships=choices, slid=True)
        f.emit(Awaiting(phase=offer))
    else:
        end_action(f)
