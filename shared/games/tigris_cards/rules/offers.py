"""Answers to an offered VP card: accept by laying the card, or decline.

What follows depends on why the VP was offered: a card played into a column
goes on to the ship check, a conflict reward to the next conflict, and ship
income to the next ship owed.
"""

from __future__ import annotations

from shared.games.tigris_cards.cards import count
from shared.games.tigris_cards.events import OfferDeclined, VpCardLaid
from shared.games.tigris_cards.rules import conflicts, playing, turns
from shared.games.tigris_cards.rules.draft import Draft
from shared.games.tigris_cards.state import ShipOffer, TreasureOffer, VpOffer
from shared.kernel.rejection import require


def score(d: Draft, seat: int) -> None:
    offer = d.state.phase
    assert isinstance(offer, VpOffer)
    require(
        count(d.state.players[seat].hand, offer.colour) > 0,
        "card_not_in_hand",
        f"You hold no {offer.colour} card to score.",
        colour=offer.colour,
    )
    d.emit(VpCardLaid(seat=seat, colour=offer.colour))
    _continue(d, offer)


def decline(d: Draft, seat: int) -> None:
    offer = d.state.phase
    d.emit(OfferDeclined(seat=seat))
    match offer:
        case VpOffer():
            _continue(d, offer)
        case ShipOffer():
            playing.after_ship(d, offer.column, offer.colour, offer.slid)
        case TreasureOffer():
            turns.end_action(d)
        case _:
            raise AssertionError(f"nothing to decline in {offer!r}")


def _continue(d: Draft, offer: VpOffer) -> None:
    if offer.reason == playing.CARD:
        playing.after_card_vp(d, offer.column, offer.colour)
    elif offer.reason == conflicts.REWARD:
        conflicts.after_conflict(d)
    else:
        turns.offer_income(d, offer.queue)
