"""What a seat or a spectator may see, and every event's audience."""

from __future__ import annotations

from typing import assert_never

from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, RESOURCES, Hand
from shared.games.catan.rules.flow import awaited
from shared.games.catan.rules.victory import points, public_points
from shared.games.catan.state import Answer, Effects, Knight, State
from shared.kernel.messages import Record
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Audience, Seats, Visibility, by_type, seat_only


class SeatPublic(Record, frozen=True):
    resources: int
    commodities: int
    progress: int  # cards in hand (development cards in the base game)
    points: int
    knights_played: int
    vp_cards: int
    defender: int
    levels: tuple[int, int, int]


class PendingView(Record, frozen=True):
    kind: str
    owner: int
    seats: tuple[int, ...]
    amounts: tuple[int, ...]
    data: tuple[int, ...]
    awaiting: tuple[int, ...]
    mine: Answer | None = None
    # What the deciding seat looks at (Spy, Master Merchant): shown to that seat only.
    peek_hand: Hand | None = None
    peek_cards: tuple[str, ...] | None = None


class View(Record, frozen=True):
    seat: int | None
    phase: str
    active: int
    turn: int
    terrain: tuple[int, ...]
    numbers: tuple[int, ...]
    harbors: tuple[int, ...]
    robber: int
    merchant: int
    merchant_owner: int
    owner: tuple[int, ...]
    level: tuple[int, ...]
    tipped: tuple[int, ...]
    walls: tuple[int, ...]
    metropolis: tuple[int, int, int]
    roads: tuple[int, ...]
    knights: tuple[Knight, ...]
    bank: Hand
    decks: tuple[int, ...]  # cards left per deck (development deck first)
    barbarian: int
    attacks: int
    longest: int
    road_lengths: tuple[int, ...]
    largest_army: int
    dice: tuple[int, int, str]
    setup_queue: tuple[int, ...]
    setup_spot: int
    effects: Effects
    pending: PendingView | None
    players: tuple[SeatPublic, ...]
    winner: int
    hand: Hand | None = None
    cards: tuple[str, ...] | None = None
    my_points: int | None = None


def _seat(state: State, seat: int) -> SeatPublic:
    p = state.players[seat]
    return SeatPublic(
        resources=sum(p.hand[k] for k in RESOURCES),
        commodities=sum(p.hand[k] for k in COMMODITIES),
        progress=len(p.cards),
        points=public_points(state, seat),
        knights_played=p.knights_played,
        vp_cards=p.vp_cards,
        defender=p.defender,
        levels=p.levels,
    )


def _pending(state: State, audience: Audience) -> PendingView | None:
    t = state.task
    if t is None:
        return None
    mine = next((a for a in t.answers if a.seat == audience), None)
    peeking = t.kind in ("spy", "master_merchant") and audience == t.owner
    target = state.players[t.data[0]] if peeking else None
    # The resource offered by a Commercial Harbor is handed over face down.
    party = audience is not None and (audience == t.owner or audience in t.seats)
    return PendingView(
        kind=t.kind,
        owner=t.owner,
        seats=t.seats,
        amounts=t.amounts,
        data=t.data if t.kind != "harbor" or party else (),
        awaiting=awaited(t),
        mine=mine,
        peek_hand=target.hand if target is not None and t.kind == "master_merchant" else None,
        peek_cards=target.cards if target is not None and t.kind == "spy" else None,
    )


def view(state: State, audience: Audience) -> View:
    me = audience if audience is not None and 0 <= audience < state.seats else None
    return View(
        seat=me, phase=state.phase, active=state.active, turn=state.turn,
        terrain=state.terrain, numbers=state.numbers, harbors=state.harbors, robber=state.robber,
        merchant=state.merchant, merchant_owner=state.merchant_owner, owner=state.owner, level=state.level,
        tipped=state.tipped, walls=state.walls, metropolis=state.metropolis, roads=state.roads,
        knights=state.knights, bank=state.bank,
        decks=(len(state.dev_deck), *(len(d) for d in state.decks)),
        barbarian=state.barbarian, attacks=state.attacks, longest=state.longest,
        road_lengths=state.road_lengths, largest_army=state.largest_army, dice=state.dice,
        setup_queue=state.setup_queue, setup_spot=state.setup_spot, effects=state.effects,
        pending=_pending(state, me), players=tuple(_seat(state, s) for s in range(state.seats)),
        winner=state.winner,
        hand=state.players[me].hand if me is not None else None,
        cards=state.players[me].cards if me is not None else None,
        my_points=points(state, me) if me is not None else None,
    )  # fmt: skip


def _pair(a: int, b: int) -> Seats:
    return Seats(seats=frozenset((a, b)))


def matched_visibility(event: ev.CatanEvent) -> Visibility:
    """Every event's audience (exhaustive: mypy checks each class is handled);
    :func:`visibility` answers the cases that read no field from
    :data:`VISIBILITY_BY_TYPE`."""
    match event:
        case ev.DecksShuffled():
            return SERVER_ONLY
        case ev.Answered(answer=answer):
            return seat_only(answer.seat)
        case ev.CardDrawn(seat=seat) | ev.CardDiscarded(seat=seat):
            return seat_only(seat)
        case ev.HandShown(seat=seat) | ev.ProgressShown(seat=seat):
            return seat_only(seat)
        case ev.CardsTaken(src=src, dst=dst) | ev.CardStolen(src=src, dst=dst):
            return _pair(src, dst)
        case ev.HarborOffered(owner=owner, seat=seat):
            return _pair(owner, seat)
        case (
            ev.Started() | ev.StartRolled() | ev.BoardLaid() | ev.PhaseSet() | ev.EffectsSet() | ev.TodoSet()
            | ev.TaskOpened()
            | ev.AnsweredShadow() | ev.TaskClosed() | ev.BuildingPlaced() | ev.CityPillaged()
            | ev.RoadPlaced()
            | ev.RoadRemoved() | ev.WallPlaced() | ev.KnightSet() | ev.KnightRemoved() | ev.CardsPaid()
            | ev.CardsGained() | ev.CardsPassed() | ev.CardsTakenShadow() | ev.DiceRolled() | ev.RobberMoved()
            | ev.MerchantMoved() | ev.NumbersSwapped() | ev.BarbarianMoved() | ev.BarbariansAttacked()
            | ev.DefenderAwarded() | ev.ImprovementBought() | ev.MetropolisPlaced() | ev.LongestRoadSet()
            | ev.LargestArmySet() | ev.CardDrawnShadow() | ev.CardRevealed() | ev.CardPlayed()
            | ev.CardDiscardedShadow() | ev.CardStolenShadow() | ev.GameWon()
        ):  # fmt: skip
            return PUBLIC
        case _:
            assert_never(event)


#: ``matched_visibility``'s cases that read no field (tests/games/test_visibility_by_type.py).
VISIBILITY_BY_TYPE: dict[type, Visibility] = {
    ev.DecksShuffled: SERVER_ONLY,
    **dict.fromkeys(
        (
            ev.Started,
            ev.StartRolled,
            ev.BoardLaid,
            ev.PhaseSet,
            ev.EffectsSet,
            ev.TodoSet,
            ev.TaskOpened,
            ev.AnsweredShadow,
            ev.TaskClosed,
            ev.BuildingPlaced,
            ev.CityPillaged,
            ev.RoadPlaced,
            ev.RoadRemoved,
            ev.WallPlaced,
            ev.KnightSet,
            ev.KnightRemoved,
            ev.CardsPaid,
            ev.CardsGained,
            ev.CardsPassed,
            ev.CardsTakenShadow,
            ev.DiceRolled,
            ev.RobberMoved,
            ev.MerchantMoved,
            ev.NumbersSwapped,
            ev.BarbarianMoved,
            ev.BarbariansAttacked,
            ev.DefenderAwarded,
            ev.ImprovementBought,
            ev.MetropolisPlaced,
            ev.LongestRoadSet,
            ev.LargestArmySet,
            ev.CardDrawnShadow,
            ev.CardRevealed,
            ev.CardPlayed,
            ev.CardDiscardedShadow,
            ev.CardStolenShadow,
            ev.GameWon,
        ),
        PUBLIC,
    ),
}
visibility = by_type(VISIBILITY_BY_TYPE, matched_visibility)
