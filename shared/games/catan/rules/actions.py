"""The active seat's own moves: before the roll and in the action phase.

Each command type maps to the enumeration of its legal instances (``MAIN``,
``roll_options``); ``decide`` accepts a command of an enumerated type only if
it is in the enumeration, so ``legal`` and ``decide`` cannot disagree. The
accepted command is then applied by an exhaustive match over its type.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TypeGuard, assert_never

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import CITY, ROAD, SETTLEMENT, WALL
from shared.games.catan.rules import development, domestic, improvements, knights, progress, trade, turn
from shared.games.catan.rules.building import city_spots, road_spots, settlement_spots, wall_spots
from shared.games.catan.rules.flow import CatanFold, set_effects
from shared.games.catan.rules.progress import draws, science
from shared.games.catan.rules.progress import trade as trade_deck
from shared.games.catan.state import State

Options = Callable[[State, int], Sequence[cmd.CatanCommand]]


def _afford(state: State, seat: int, cost: tuple[int, ...]) -> bool:
    # ``cards.covers`` without its length check: a stored hand and a cost both name every kind.
    return all(map(operator.ge, state.players[seat].hand, cost))


def _roads(state: State, seat: int) -> list[cmd.BuildRoad]:
    return [cmd.BUILD_ROAD[p] for p in road_spots(state, seat)] if _afford(state, seat, ROAD) else []


def _settlements(state: State, seat: int) -> list[cmd.BuildSettlement]:
    if not _afford(state, seat, SETTLEMENT):
        return []
    return [cmd.BUILD_SETTLEMENT[s] for s in settlement_spots(state, seat)]


def _cities(state: State, seat: int) -> list[cmd.BuildCity]:
    return [cmd.BUILD_CITY[s] for s in city_spots(state, seat)] if _afford(state, seat, CITY) else []


def _walls(state: State, seat: int) -> list[cmd.BuildWall]:
    if not state.options.ck or not _afford(state, seat, WALL):
        return []
    return [cmd.BuildWall(spot=s) for s in wall_spots(state, seat)]


def _end(state: State, seat: int) -> list[cmd.EndTurn]:
    return [] if state.options.ck and draws.excess(state, seat) else [cmd.END_TURN]


def _discard_progress(state: State, seat: int) -> list[cmd.DiscardProgress]:
    if not draws.excess(state, seat):
        return []
    return [cmd.DiscardProgress(cards=(c,)) for c in sorted(set(state.players[seat].cards))]


def _knight_options(kind: type[knights.KnightCommand]) -> Options:
    return lambda state, seat: [c for c in knights.options(state, seat) if isinstance(c, kind)]


def _buy_dev_card(state: State, seat: int) -> list[cmd.BuyDevCard]:
    return [cmd.BUY_DEV_CARD] if development.can_buy(state, seat) else []


#: Every command type of the action phase (offers aside), with its legal instances now.
MAIN: dict[type[cmd.CatanCommand], Options] = {
    cmd.BuildRoad: _roads,
    cmd.BuildSettlement: _settlements,
    cmd.BuildCity: _cities,
    cmd.TradeBank: trade.bank_options,
    cmd.BuyDevCard: _buy_dev_card,
    cmd.PlayDevCard: development.play_options,
    cmd.BuildWall: _walls,
    cmd.BuildKnight: _knight_options(cmd.BuildKnight),
    cmd.ActivateKnight: _knight_options(cmd.ActivateKnight),
    cmd.PromoteKnight: _knight_options(cmd.PromoteKnight),
    cmd.MoveKnight: _knight_options(cmd.MoveKnight),
    cmd.ChaseRobber: _knight_options(cmd.ChaseRobber),
    cmd.BuyImprovement: improvements.options,
    cmd.PlayProgress: progress.options,
    cmd.HarborExchange: trade_deck.harbor_options,
    cmd.DiscardProgress: _discard_progress,
    cmd.EndTurn: _end,
}
BASE_ONLY = frozenset({cmd.BuyDevCard, cmd.PlayDevCard})
CK_ONLY = frozenset({
    cmd.BuildWall, cmd.BuildKnight, cmd.ActivateKnight, cmd.PromoteKnight, cmd.MoveKnight, cmd.ChaseRobber,
    cmd.BuyImprovement, cmd.PlayProgress, cmd.HarborExchange, cmd.DiscardProgress,
})  # fmt: skip
#: ``MAIN`` without the other edition's commands, by ``options.ck``: those have no legal instance.
MAIN_IN = {
    ck: {kind: listing for kind, listing in MAIN.items() if kind not in (BASE_ONLY if ck else CK_ONLY)}
    for ck in (False, True)
}


#: The commands of the action phase that are listed (domestic offers are checked by predicate).
MainCommand = (
    cmd.BuildRoad | cmd.BuildSettlement | cmd.BuildCity | cmd.TradeBank | cmd.BuyDevCard | cmd.PlayDevCard
    | cmd.BuildWall | knights.KnightCommand | cmd.BuyImprovement | cmd.PlayProgress | cmd.HarborExchange
    | cmd.DiscardProgress | cmd.EndTurn
)  # fmt: skip


def main_accepts(command: cmd.CatanCommand, state: State, seat: int) -> TypeGuard[MainCommand]:
    listing = MAIN_IN[state.options.ck].get(type(command))
    return listing is not None and command in listing(state, seat)


def main_apply(f: CatanFold, seat: int, c: MainCommand) -> None:
    match c:
        case cmd.EndTurn():  # first: the most frequent command, and a match tries its cases in order
            turn.end_turn(f)
        case cmd.BuildRoad(path=path):
            f.emit(ev.CardsPaid(seat=seat, cards=ROAD), ev.RoadPlaced(seat=seat, path=path))
        case cmd.BuildSettlement(spot=spot):
            f.emit(
                ev.CardsPaid(seat=seat, cards=SETTLEMENT), ev.BuildingPlaced(seat=seat, spot=spot, level=1)
            )
        case cmd.BuildCity(spot=spot):
            f.emit(ev.CardsPaid(seat=seat, cards=CITY), ev.BuildingPlaced(seat=seat, spot=spot, level=2))
        case cmd.TradeBank():
            trade.trade_bank(f, seat, c)
        case cmd.BuyDevCard():
            development.buy(f, seat)
        case cmd.PlayDevCard():
            development.play(f, seat, c)
        case cmd.BuildWall(spot=spot):
            f.emit(ev.CardsPaid(seat=seat, cards=WALL), ev.WallPlaced(seat=seat, spot=spot))
        case (
            cmd.BuildKnight()
            | cmd.ActivateKnight()
            | cmd.PromoteKnight()
            | cmd.MoveKnight()
            | cmd.ChaseRobber()
        ):
            knights.apply(f, seat, c)
        case cmd.BuyImprovement():
            improvements.buy(f, seat, c)
        case cmd.PlayProgress():
            progress.play(f, seat, c)
        case cmd.HarborExchange():
            trade_deck.harbor(f, seat, c)
        case cmd.DiscardProgress(cards=cards):
            draws.discard(f, seat, cards)
        case _:
            assert_never(c)


#: What the active seat may send before its roll.
RollCommand = cmd.RollDice | cmd.PlayProgress | cmd.ChaseRobber | cmd.PlayDevCard


def roll_options(state: State, seat: int) -> list[RollCommand]:
    out: list[RollCommand] = [cmd.ROLL_DICE]
    if state.options.ck:
        out += science.alchemist_options(state, seat)
        if state.options.knight_errant_variant and not state.effects.errant:
            out += [c for c in knights.options(state, seat) if isinstance(c, cmd.ChaseRobber)]
    else:
        out += development.play_options(state, seat)  # any development card may precede the roll
    return out


def roll_accepts(command: cmd.CatanCommand, state: State, seat: int) -> TypeGuard[RollCommand]:
    # The roll is always listed (first): the most frequent command of all needs no listing.
    return isinstance(command, cmd.RollDice) or command in roll_options(state, seat)


def roll_apply(f: CatanFold, seat: int, c: RollCommand) -> None:
    match c:
        case cmd.RollDice():
            turn.roll(f)
        case cmd.PlayProgress():  # Alchemist: the chosen dice are the roll
            f.emit(ev.CardPlayed(seat=seat, card=c.card))
            turn.roll(f, c.a, c.b)
        case cmd.ChaseRobber():  # Knight-Errant variant
            knights.apply(f, seat, c)
            set_effects(f, errant=True)
        case cmd.PlayDevCard():
            development.play(f, seat, c)
        case _:
            assert_never(c)


KNIGHT_COMMANDS = (cmd.BuildKnight, cmd.ActivateKnight, cmd.PromoteKnight, cmd.MoveKnight, cmd.ChaseRobber)
#: ``MAIN_IN`` without the knights' commands (listed together, once), per edition, in its order.
_BESIDE_KNIGHTS = {
    ck: tuple((kind, listing) for kind, listing in MAIN_IN[ck].items() if kind not in KNIGHT_COMMANDS)
    for ck in (False, True)
}


def main_listed(state: State, seat: int) -> list[cmd.CatanCommand]:
    """``main_options`` without the domestic offers, in the same order."""
    out: list[cmd.CatanCommand] = list(knights.options(state, seat)) if state.options.ck else []
    for _, options in _BESIDE_KNIGHTS[state.options.ck]:
        out += options(state, seat)
    return out


def main_options(state: State, seat: int) -> list[cmd.CatanCommand]:
    out = main_listed(state, seat)
    out += domestic.offer_options(state, seat)
    return out


def main_by_kind(state: State, seat: int) -> dict[type[cmd.CatanCommand], Sequence[cmd.CatanCommand]]:
    """``main_options`` grouped by command type, without the types that have no legal instance."""
    grouped: dict[type[cmd.CatanCommand], list[cmd.CatanCommand]] = {}
    if state.options.ck:  # the knights' commands, listed once rather than once per kind
        for c in knights.options(state, seat):
            grouped.setdefault(type(c), []).append(c)
    by_kind: dict[type[cmd.CatanCommand], Sequence[cmd.CatanCommand]] = dict(grouped)
    for kind, listing in _BESIDE_KNIGHTS[state.options.ck]:
        if got := listing(state, seat):
            by_kind[kind] = got
    if offers := domestic.offer_options(state, seat):
        by_kind[cmd.OfferTrade] = offers
    return by_kind
