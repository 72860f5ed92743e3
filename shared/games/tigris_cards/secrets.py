"""What the card game keeps hidden, for the generic secrecy test.

Hidden from everyone: the draw order, the cards set aside unseen, and (unless
``open_piles``) every VP pile below its top card, its owner's included. Hidden
by a seat from the others: its hand (only its size is public) and the colour
of a connector it laid face down. Each is varied by exchanging cards with the
draw pile, so every colour's total stays as it was. Cards of a colour are
interchangeable, so there are no item ids.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.tigris_cards.cards import card_of
from shared.games.tigris_cards.events import (
    ActionTaken,
    Awaiting,
    CardPlayed,
    CardsDrawn,
    CardsDrawnCount,
    CardsSetAside,
    CatastropheStruck,
    ConflictBegun,
    ConflictResolved,
    ConnectorChosen,
    ConnectorLaid,
    ConnectorRevealed,
    DeckShuffled,
    GameStarted,
    LeaderPlaced,
    LeaderReturned,
    OfferDeclined,
    Passed,
    ShipBuilt,
    SpoilsTaken,
    SupportCommitted,
    TigrisCardsEvent,
    TreasureExchanged,
    TurnStarted,
    VpCardLaid,
)
from shared.games.tigris_cards.state import Over, State
from shared.games.tigris_common.colours import Colour
from shared.games.tigris_common.hidden import exchange, redeal
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience

_PLAIN = frozenset(card_of(c) for c in Colour)


def conceal(state: State, owner: Audience, rng: Rng) -> State:
    return _unseen(state, rng) if owner is None else _seat(state, owner, rng)


def _unseen(state: State, rng: Rng) -> State:
    pool = rng.shuffled((*state.deck, *state.boxed))
    deck, boxed = pool[: len(state.deck)], pool[len(state.deck) :]
    players = list(state.players)
    if not state.options.open_piles:
        for seat, player in enumerate(players):
            below = list(player.vp[:-1])
            for i, card in enumerate(below):
                # Treasures never enter the draw pile; a plain card may trade places with one there.
                if card in _PLAIN and deck and rng.below(2):
                    j = rng.below(len(deck))
                    below[i], deck[j] = card_of(deck[j]), Colour(card.value)
            players[seat] = replace(player, vp=(*rng.shuffled(below), *player.vp[-1:]))
    return replace(state, deck=tuple(deck), boxed=tuple(boxed), players=tuple(players))


def _seat(state: State, owner: int, rng: Rng) -> State:
    player = state.players[owner]
    hand, deck = exchange(player.hand, state.deck, rng)
    players = (*state.players[:owner], replace(player, hand=hand), *state.players[owner + 1 :])
    state = replace(state, players=players, deck=deck)
    union = state.union
    if union is not None and union.seat == owner and state.deck:
        j = rng.below(len(state.deck))
        deck = (*state.deck[:j], union.colour, *state.deck[j + 1 :])
        state = replace(state, union=replace(union, colour=state.deck[j]), deck=deck)
    return state


def sample_hidden(state: State, seat: int, rng: Rng) -> State:
    """Every card the seat has not seen dealt afresh from one pool: the other
    hands, a face-down connector of another seat, the plain cards below the VP
    piles' tops (unless ``open_piles``), the draw pile and the cards set aside.
    Other cards below a top (treasures) stay in their pile, below its plain
    cards: where a pile holds them is no seat's secret, only their order is."""
    others = [s for s in range(state.seats) if s != seat]
    union = state.union if state.union is not None and state.union.seat != seat else None
    hidden = not state.options.open_piles
    piles = [tuple(p.vp[:-1]) if hidden else () for p in state.players]
    plain = [Colour(card.value) for pile in piles for card in pile if card in _PLAIN]
    gathered = (*state.deck, *state.boxed, *plain, *((union.colour,) if union is not None else ()))
    dealt, pool = redeal([state.players[s].hand for s in others], gathered, rng)
    players = list(state.players)
    for s, hand in zip(others, dealt, strict=True):
        players[s] = replace(players[s], hand=hand)
    if union is not None:
        state, pool = replace(state, union=replace(union, colour=pool[0])), pool[1:]
    if hidden:
        for s, (player, pile) in enumerate(zip(players, piles, strict=True)):
            n = sum(card in _PLAIN for card in pile)
            kept = sorted(card for card in pile if card not in _PLAIN)
            players[s] = replace(player, vp=(*kept, *map(card_of, pool[:n]), *player.vp[-1:]))
            pool = pool[n:]
    deck = pool[: len(state.deck)]
    boxed = pool[len(state.deck) :]
    return replace(state, players=tuple(players), deck=deck, boxed=boxed)


def reveals(event: TigrisCardsEvent, audience: Audience) -> bool:
    match event:
        # A draw shows the drawer the deck's top; a face-down connector is turned
        # over for all; at the end every VP pile is counted in the open.
        case CardsDrawn() | ConnectorRevealed() | Awaiting(phase=Over()):
            return True
        case (
            GameStarted()
            | DeckShuffled()
            | CardsDrawnCount()
            | CardsSetAside()
            | TurnStarted()
            | ActionTaken()
            | Passed()
            | LeaderPlaced()
            | LeaderReturned()
            | CardPlayed()
            | ConnectorLaid()
            | ConnectorChosen()
            | CatastropheStruck()
            | VpCardLaid()
            | OfferDeclined()
            | ShipBuilt()
            | ConflictBegun()
            | SupportCommitted()
            | ConflictResolved()
            | SpoilsTaken()
            | TreasureExchanged()
            | Awaiting()
        ):
            return False
        case _:
            assert_never(event)
