"""Answers to an offered VP card: accept by laying the card, or decline.

What follows depends on why the VP was offered: a card played into a column
goes on to the ship check, a conflict reward to the next conflict, and ship
income to the next ship owed.
"""

from __future__ import annotations

from shared.games.tigris_cards.cards import count
from shared.games.tigris_cards.events import OfferDeclined, VpCardLaid
from shared.games.tigris_cards.rejections import CARD_NOT_IN_HAND
from shared.games.tigris_cards.rules import CardsFold, conflicts, playing, turns
from shared.games.tigris_cards.state import ShipOffer, TreasureOffer, VpOffer
from shared.kernel.rejection import require


def score(f: CardsFold, seat: int) -> None:
    offer = f.state.phase
    assert isinstance(offer, VpOffer)
    require(
        count(f.state.players[seat].hand, offer.colour) > 0,
        CARD_NOT_IN_HAND,
        f"You hold no {offer.colour} card to score.",
        colour=offer.colour,
    )
    f.emit(VpCardLaid(seat=seat, colour=offer.colour))
    _continue(f, offer)


def decline(f: CardsFold, seat: int) -> None:
    offer = f.state.phase
    f.emit(OfferDeclined(seat=seat))
    match offer:
        case VpOffer():
            _continue(f, offer)
        case ShipOffer():
            playing.after_ship(f, offer.column, offer.colour, offer.slid)
        case TreasureOffer():
            turns.end_action(f)
        case _:
            raise AssertionError(f"nothing to decline in {offer!r}")


def _continue(f: CardsFold, offer: VpOffer) -> None:
    if offer.reason == playing.CARD:
        playing.after_card_vp(f, offer.column, offer.colour)
    elif offer.reason == conflicts.REWARD:
        conflicts.after_conflict(f)
    else:
        turns.offer_income(f, offer.queue)
