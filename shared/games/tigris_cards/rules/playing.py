"""Action 2a: a hand card appended to a column, and the VP it may earn (docs/rules/tigris-cards.md §8).

The VP goes to the owner of the kingdom's leader of the card's colour, or,
failing one, to the owner of its king (the joker); that owner lays a matching
card from his own hand. The ship check follows (docs/rules/tigris-cards.md §8: VP first by default).
"""

from __future__ import annotations

from shared.games.tigris_cards.cards import count
from shared.games.tigris_cards.commands import BuildShip, PlayCard
from shared.games.tigris_cards.events import ActionTaken, Awaiting, CardPlayed
from shared.games.tigris_cards.rejections import CARD_NOT_IN_HAND, COLUMN_FULL
from shared.games.tigris_cards.rules import CardsFold, ships
from shared.games.tigris_cards.rules.kingdoms import civilisation_count, kingdom, leader_of_colour
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import COLUMNS, ShipOffer, State, VpOffer
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rejection import require

CARD = "card"


def has_room(state: State, column: int) -> bool:
    # A ship takes one position in the column, like the card it is laid as.
    if not 0 <= column < COLUMNS:
        return False
    return civilisation_count(state.table, column, ships_count=True) < state.options.column_capacity


def play_card(f: CardsFold, seat: int, command: PlayCard) -> None:
    require(
        count(f.state.players[seat].hand, command.colour) > 0,
        CARD_NOT_IN_HAND,
        f"You hold no {command.colour} card.",
        colour=command.colour,
    )
    require(
        has_room(f.state, command.column),
        COLUMN_FULL,
        "That column has no room for another card.",
        column=command.column,
    )
    f.emit(
        ActionTaken(seat=seat, left=f.state.actions_left - 1),
        CardPlayed(seat=seat, colour=command.colour, column=command.column),
    )
    if f.state.options.vp_before_ship:
        offer_vp(f, command.column, command.colour)
    else:
        offer_ship(f, command.column, command.colour)


def vp_recipient(state: State, column: int, colour: Colour) -> int | None:
    span = kingdom(state.table, column)
    found = leader_of_colour(state.table, span, colour.leader)
    if found is None:
        found = leader_of_colour(state.table, span, Leader.KING)
    return None if found is None else found[1].seat


def offer_vp(f: CardsFold, column: int, colour: Colour) -> None:
    seat = vp_recipient(f.state, column, colour)
    if seat is None:
        after_card_vp(f, column, colour)
    else:
        f.emit(Awaiting(phase=VpOffer(seat=seat, colour=colour, reason=CARD, column=column)))


def after_card_vp(f: CardsFold, column: int, colour: Colour) -> None:
    if f.state.options.vp_before_ship:
        offer_ship(f, column, colour)
    else:
        end_action(f)


def after_ship(f: CardsFold, column: int, colour: Colour, slid: bool = False) -> None:
    if slid or f.state.options.vp_before_ship:
        end_action(f)
    else:
        offer_vp(f, column, colour)


def offer_ship(f: CardsFold, column: int, colour: Colour) -> None:
    choices = ships.ship_choices(f.state, column, colour)
    if choices:
        offer = ShipOffer(seat=f.state.active, column=column, colour=colour, ships=choices)
        f.emit(Awaiting(phase=offer))
    else:
        after_ship(f, column, colour)


def build_ship(f: CardsFold, seat: int, command: BuildShip) -> None:
    offer = ships.build_ship(f, seat, command)
    after_ship(f, offer.column, offer.colour, offer.slid)
