"""The end of an action, ship income, refilling, and the end of the game
(docs/rules/tigris-cards.md §6, §12.2, §13, §14)."""

from __future__ import annotations

from shared.games.tigris_cards.cards import SHIP_COLOURS, Card, is_ship
from shared.games.tigris_cards.events import Awaiting, CardsDrawn, CardsDrawnCount, TurnStarted
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.kingdoms import kingdom, leaders_in
from shared.games.tigris_cards.state import Act, Over, State, VpOffer
from shared.games.tigris_common.colours import Colour

ACTIONS_PER_TURN = 2
INCOME = "income"


def end_action(f: CardsFold) -> None:
    if f.state.actions_left > 0:
        f.emit(Awaiting(phase=Act(seat=f.state.active)))
    else:
        offer_income(f, income_owed(f.state))


def income_owed(state: State) -> tuple[Colour, ...]:
    """One offer per pair of a ship and an active player's leader of one of
    its colours in the ship's kingdom (the king is no joker here)."""
    owed: list[Colour] = []
    for column, slots in enumerate(state.table.columns):
        for slot in slots:
            if not is_ship(slot.card):
                continue
            colours = SHIP_COLOURS[slot.card]
            for _, token in leaders_in(state.table, kingdom(state.table, column)):
                if token.seat == state.active and token.leader.colour in colours:
                    owed.append(token.leader.colour)
    return tuple(owed)


def offer_income(f: CardsFold, owed: tuple[Colour, ...]) -> None:
    # Offered even without a matching hand card, so that waiting on a seat
    # never tells the table what that seat holds.
    if owed:
        f.emit(Awaiting(phase=VpOffer(seat=f.state.active, colour=owed[0], reason=INCOME, queue=owed[1:])))
    else:
        end_turn(f)


def treasures_left(state: State) -> int:
    return sum(1 for column in state.table.columns if column[0].card is Card.TREASURE)


def end_turn(f: CardsFold) -> None:
    state = f.state
    needs = [state.options.hand_size - sum(p.hand) for p in state.players]
    if treasures_left(state) <= 1:
        f.emit(Awaiting(phase=Over(reason="treasures")))
        return
    if sum(max(0, n) for n in needs) > len(state.deck):
        # The partly refilled hands would not matter for scoring, so none are dealt.
        f.emit(Awaiting(phase=Over(reason="cards")))
        return
    quiet = state.quiet_turns + 1 if not any(needs) else 0
    limit = state.options.stalemate_rounds * state.seats
    if limit and quiet >= limit:
        f.emit(Awaiting(phase=Over(reason="stalemate")))
        return
    for k in range(state.seats):
        seat = (state.active + k) % state.seats
        deal(f, seat, needs[seat])
    start_turn(f, (state.active + 1) % state.seats, quiet)


def deal(f: CardsFold, seat: int, n: int) -> None:
    if n > 0:
        f.emit(CardsDrawn(seat=seat, cards=f.state.deck[:n]), CardsDrawnCount(seat=seat, count=n))


def start_turn(f: CardsFold, seat: int, quiet: int = 0) -> None:
    f.emit(TurnStarted(seat=seat, actions=ACTIONS_PER_TURN, quiet=quiet), Awaiting(phase=Act(seat=seat)))
