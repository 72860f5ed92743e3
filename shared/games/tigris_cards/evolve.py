"""Fold one event into the state: apply the recorded facts, decide nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

import msgspec

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import Card, add, add_all, card_of
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
from shared.games.tigris_cards.state import Player, Slot, Spot, State, Union
from shared.games.tigris_common.colours import Colour

replace = msgspec.structs.replace


def matched_evolve(state: State | None, event: TigrisCardsEvent) -> State:
    """Every event's step (exhaustive: mypy checks each class is handled);
    :func:`evolve` takes the cases that hand the event to one step from
    :data:`STEPS_BY_TYPE`."""
    if isinstance(event, GameStarted):
        return State(
            seats=event.seats,
            options=event.options,
            table=tb.new_table(),
            players=tuple(Player(hand=(0, 0, 0, 0)) for _ in range(event.seats)),
        )
    assert state is not None, "the first event must be GameStarted"
    match event:
        case DeckShuffled():
            return _shuffled(state, event)
        case CardsDrawn():
            return _drawn(state, event)
        case CardsSetAside():
            return _set_aside(state, event)
        case TurnStarted():
            return _turn(state, event)
        case ActionTaken():
            return _action(state, event)
        case LeaderPlaced():
            return _leader_placed(state, event)
        case LeaderReturned():
            return _leader_returned(state, event)
        case CardPlayed():
            return _card_played(state, event)
        case ConnectorChosen():
            return _connector_chosen(state, event)
        case ConnectorRevealed():
            return _connector_revealed(state, event)
        case CatastropheStruck():
            return _catastrophe(state, event)
        case VpCardLaid():
            return _vp_card(state, event)
        case ShipBuilt():
            return _ship_built(state, event)
        case ConflictBegun():
            return _conflict_begun(state, event)
        case SupportCommitted():
            return _committed(state, event)
        case ConflictResolved():
            return _resolved(state, event)
        case SpoilsTaken():
            return _spoils(state, event)
        case TreasureExchanged():
            return _treasure(state, event)
        case Awaiting():
            return _awaiting(state, event)
        # Announcements: what they change is recorded by the events beside
        # them (the private draw, the private connector colour, the next Awaiting).
        case CardsDrawnCount() | Passed() | ConnectorLaid() | OfferDeclined():
            return state
        case _:
            assert_never(event)


def _player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _take_from_hand(state: State, seat: int, colour: Colour, n: int = 1) -> State:
    return _player(state, seat, hand=add(state.players[seat].hand, colour, -n))


def _to_vp(state: State, seat: int, cards: tuple[Card, ...]) -> State:
    return _player(state, seat, vp=state.players[seat].vp + cards)


def _shuffled(state: State, e: DeckShuffled) -> State:
    return replace(state, deck=e.order)


def _drawn(state: State, e: CardsDrawn) -> State:
    n = len(e.cards)
    assert state.deck[:n] == e.cards, "drawn cards differ from the recorded deck order"
    state = _player(state, e.seat, hand=add_all(state.players[e.seat].hand, e.cards))
    return replace(state, deck=state.deck[n:])


def _set_aside(state: State, e: CardsSetAside) -> State:
    return replace(state, deck=state.deck[e.count :], boxed=state.boxed + state.deck[: e.count])


def _turn(state: State, e: TurnStarted) -> State:
    return replace(state, active=e.seat, actions_left=e.actions, quiet_turns=e.quiet)


def _action(state: State, e: ActionTaken) -> State:
    return replace(state, actions_left=e.left)


def _leader_placed(state: State, e: LeaderPlaced) -> State:
    table = state.table if e.origin is None else tb.with_leader(state.table, e.origin, None)
    return replace(state, table=tb.with_leader(table, e.spot, e.token))


def _leader_returned(state: State, e: LeaderReturned) -> State:
    assert tb.occupied(state.table, e.spot).leader == e.token
    return replace(state, table=tb.with_leader(state.table, e.spot, None))


def _card_played(state: State, e: CardPlayed) -> State:
    state = _take_from_hand(state, e.seat, e.colour)
    return replace(state, table=tb.append(state.table, e.column, card_of(e.colour)))


def _connector_chosen(state: State, e: ConnectorChosen) -> State:
    state = _take_from_hand(state, e.seat, e.colour)
    return replace(state, union=Union(seat=e.seat, gap=e.gap, colour=e.colour))


def _connector_revealed(state: State, e: ConnectorRevealed) -> State:
    spot = Spot(column=e.gap, row=-1)
    table = tb.put(state.table, spot, Slot(card=card_of(e.colour)))
    return replace(state, table=table, union=None)


def _catastrophe(state: State, e: CatastropheStruck) -> State:
    state = _player(state, e.seat, catastrophe=False)
    colour = Colour(e.card.value)
    return replace(state, table=tb.remove(state.table, [e.spot]), discard=add(state.discard, colour))


def _vp_card(state: State, e: VpCardLaid) -> State:
    return _to_vp(_take_from_hand(state, e.seat, e.colour), e.seat, (card_of(e.colour),))


def _ship_built(state: State, e: ShipBuilt) -> State:
    column = state.table.columns[e.column]
    rows = range(len(column) - e.cards, len(column))
    table = tb.remove(state.table, [Spot(column=e.column, row=r) for r in rows])
    table = tb.append(table, e.column, e.ship)
    table = replace(table, ships=tuple(s for s in table.ships if s != e.ship))
    return replace(state, table=table, discard=add(state.discard, e.colour, e.cards))


def _conflict_begun(state: State, e: ConflictBegun) -> State:
    return replace(state, conflict=e.conflict)


def _committed(state: State, e: SupportCommitted) -> State:
    conflict = state.conflict
    assert conflict is not None
    side = "attacker_cards" if e.seat == conflict.attacker else "defender_cards"
    state = _take_from_hand(state, e.seat, e.colour, e.count)
    return replace(state, conflict=replace(conflict, **{side: e.count}))


def _resolved(state: State, e: ConflictResolved) -> State:
    assert state.conflict is not None, "a conflict resolves only after it began"
    support = state.conflict.support
    if e.reward:
        state = _to_vp(state, e.winner, (card_of(support),))
    return replace(state, conflict=None, discard=add(state.discard, support, e.discarded))


def _spoils(state: State, e: SpoilsTaken) -> State:
    cards = tuple(tb.occupied(state.table, s).card for s in e.spots)
    state = replace(state, table=tb.remove(state.table, e.spots))
    return _to_vp(state, e.seat, cards)


def _treasure(state: State, e: TreasureExchanged) -> State:
    head = Spot(column=e.column, row=0)
    slot = tb.occupied(state.table, head)
    assert slot.card is Card.TREASURE
    state = _take_from_hand(state, e.seat, Colour.RED)
    table = tb.put(state.table, head, replace(slot, card=Card.RED))
    return _to_vp(replace(state, table=table), e.seat, (Card.TREASURE,))


def _awaiting(state: State, e: Awaiting) -> State:
    return replace(state, phase=e.phase)


def _unchanged(state: State, event: Any) -> State:
    return state


#: ``matched_evolve``'s cases that hand the event to one step, by the event's
#: exact type: a look-up where the ``match`` tried each class pattern in turn
#: (11 failed ones an event on average, about 0.2 µs each against a struct
#: class; docs/performance.md, "Round 3: projection rebuild").
#: tests/games/test_evolve_by_type.py holds it to the match.
STEPS_BY_TYPE: dict[type, Callable[[State, Any], State]] = {
    DeckShuffled: _shuffled,
    CardsDrawn: _drawn,
    CardsSetAside: _set_aside,
    TurnStarted: _turn,
    ActionTaken: _action,
    LeaderPlaced: _leader_placed,
    LeaderReturned: _leader_returned,
    CardPlayed: _card_played,
    ConnectorChosen: _connector_chosen,
    ConnectorRevealed: _connector_revealed,
    CatastropheStruck: _catastrophe,
    VpCardLaid: _vp_card,
    ShipBuilt: _ship_built,
    ConflictBegun: _conflict_begun,
    SupportCommitted: _committed,
    ConflictResolved: _resolved,
    SpoilsTaken: _spoils,
    TreasureExchanged: _treasure,
    Awaiting: _awaiting,
    **dict.fromkeys((CardsDrawnCount, Passed, ConnectorLaid, OfferDeclined), _unchanged),
}


def evolve(state: State | None, event: TigrisCardsEvent) -> State:
    step = STEPS_BY_TYPE.get(type(event))
    if step is None or state is None:
        return matched_evolve(state, event)
    return step(state, event)
