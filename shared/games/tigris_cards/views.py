"""What each audience may see, and who sees each event (docs/rules/tigris-cards.md §16).

Hands, the draw order and a face-down connector's colour are secret. A VP
pile shows only its top card to everyone, its owner included (nobody may look
through a pile), unless the open-piles variant is on; the full counts appear
once the game is over. Views hold tuples in table order only, so equal
information always encodes to identical bytes.
"""

from __future__ import annotations

from typing import assert_never

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import Card, Counts, counts_of
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
from shared.games.tigris_cards.rules.scoring import colour_points, result, treasures
from shared.games.tigris_cards.state import AnyPhase, Conflict, Player, Slot, State, Token
from shared.games.tigris_common.colours import LEADERS, Colour, Leader
from shared.kernel.contract import Result
from shared.kernel.messages import Record
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Audience, Visibility, by_type, seat_only


class PendingConnector(Record, frozen=True):
    gap: int
    colour: Colour | None  # only the seat that laid it knows


class Tally(Record, frozen=True):
    """A VP pile counted: plain cards in COLOURS order, and treasures."""

    points: Counts
    treasures: int


class PlayerView(Record, frozen=True):
    seat: int
    hand_size: int
    supply: tuple[Leader, ...]
    catastrophe: bool
    vp_top: Card | None
    vp_open: Tally | None  # open-piles variant, or the final count


class GameView(Record, frozen=True):
    audience: int | None
    active: int
    actions_left: int
    phase: AnyPhase
    columns: tuple[tuple[Slot, ...], ...]
    gaps: tuple[Slot | None, ...]
    ships: tuple[Card, ...]
    pending: PendingConnector | None
    conflict: Conflict | None
    players: tuple[PlayerView, ...]
    deck_size: int
    discard: Counts
    set_aside: int
    hand: Counts | None
    result: Result | None


def _tally(player: Player) -> Tally:
    points = colour_points(player)
    return Tally(points=counts_of(points), treasures=treasures(player))


def _player_view(state: State, seat: int, over: bool) -> PlayerView:
    player = state.players[seat]
    supply = tuple(ld for ld in LEADERS if tb.find_leader(state.table, Token(seat=seat, leader=ld)) is None)
    show_all = over or state.options.open_piles
    return PlayerView(
        seat=seat,
        hand_size=sum(player.hand),
        supply=supply,
        catastrophe=player.catastrophe,
        vp_top=None if show_all or not player.vp else player.vp[-1],
        vp_open=_tally(player) if show_all else None,
    )


def view(state: State, audience: Audience) -> GameView:
    outcome = result(state)
    union = state.union
    pending = None
    if union is not None:
        pending = PendingConnector(gap=union.gap, colour=union.colour if audience == union.seat else None)
    return GameView(
        audience=audience,
        active=state.active,
        actions_left=state.actions_left,
        phase=state.phase,
        columns=state.table.columns,
        gaps=state.table.gaps,
        ships=state.table.ships,
        pending=pending,
        conflict=state.conflict,
        players=tuple(_player_view(state, s, outcome is not None) for s in range(state.seats)),
        deck_size=len(state.deck),
        discard=state.discard,
        set_aside=len(state.boxed),
        hand=None if audience is None else state.players[audience].hand,
        result=outcome,
    )


def matched_visibility(event: TigrisCardsEvent) -> Visibility:
    """Every event's audience (exhaustive: mypy checks each class is handled);
    :func:`visibility` answers the cases that read no field from
    :data:`VISIBILITY_BY_TYPE`."""
    match event:
        case DeckShuffled():
            return SERVER_ONLY
        case CardsDrawn(seat=seat) | ConnectorChosen(seat=seat):
            return seat_only(seat)
        case (
            GameStarted()
            | CardsDrawnCount()
            | CardsSetAside()
            | TurnStarted()
            | ActionTaken()
            | Passed()
            | LeaderPlaced()
            | LeaderReturned()
            | CardPlayed()
            | ConnectorLaid()
            | ConnectorRevealed()
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
            return PUBLIC
        case _:
            assert_never(event)


#: ``matched_visibility``'s cases that read no field (tests/games/test_visibility_by_type.py).
VISIBILITY_BY_TYPE: dict[type, Visibility] = {
    DeckShuffled: SERVER_ONLY,
    **dict.fromkeys(
        (
            GameStarted,
            CardsDrawnCount,
            CardsSetAside,
            TurnStarted,
            ActionTaken,
            Passed,
            LeaderPlaced,
            LeaderReturned,
            CardPlayed,
            ConnectorLaid,
            ConnectorRevealed,
            CatastropheStruck,
            VpCardLaid,
            OfferDeclined,
            ShipBuilt,
            ConflictBegun,
            SupportCommitted,
            ConflictResolved,
            SpoilsTaken,
            TreasureExchanged,
            Awaiting,
        ),
        PUBLIC,
    ),
}
visibility = by_type(VISIBILITY_BY_TYPE, matched_visibility)
