"""The active seat's own moves: before the roll and in the action phase.

Each command type maps to the enumeration of its legal instances and to the
code that applies it; ``decide`` accepts a command of an enumerated type only
if it is in the enumeration, so ``legal`` and ``decide`` cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import CITY, ROAD, SETTLEMENT, WALL, covers
from shared.games.catan.rules import development, domestic, improvements, knights, progress, trade, turn
from shared.games.catan.rules.building import city_spots, road_spots, settlement_spots, wall_spots
from shared.games.catan.rules.flow import CatanFold, set_effects
from shared.games.catan.rules.progress import draws, science
from shared.games.catan.rules.progress import trade as trade_deck
from shared.games.catan.state import State

Options = Callable[[State, int], list[Any]]
Apply = Callable[[CatanFold, int, Any], None]


def _afford(state: State, seat: int, cost: tuple[int, ...]) -> bool:
    return covers(state.players[seat].hand, cost)


def _roads(state: State, seat: int) -> list[cmd.BuildRoad]:
    return [cmd.BuildRoad(path=p) for p in road_spots(state, seat)] if _afford(state, seat, ROAD) else []


def _settlements(state: State, seat: int) -> list[cmd.BuildSettlement]:
    if not _afford(state, seat, SETTLEMENT):
        return []
    return [cmd.BuildSettlement(spot=s) for s in settlement_spots(state, seat)]


def _cities(state: State, seat: int) -> list[cmd.BuildCity]:
    return [cmd.BuildCity(spot=s) for s in city_spots(state, seat)] if _afford(state, seat, CITY) else []


def _walls(state: State, seat: int) -> list[cmd.BuildWall]:
    if not state.options.ck or not _afford(state, seat, WALL):
        return []
    return [cmd.BuildWall(spot=s) for s in wall_spots(state, seat)]


def _end(state: State, seat: int) -> list[cmd.EndTurn]:
    return [] if state.options.ck and draws.excess(state, seat) else [cmd.EndTurn()]


def _discard_progress(state: State, seat: int) -> list[cmd.DiscardProgress]:
    if not draws.excess(state, seat):
        return []
    return [cmd.DiscardProgress(cards=(c,)) for c in sorted(set(state.players[seat].cards))]


def _build_road(f: CatanFold, seat: int, c: cmd.BuildRoad) -> None:
    f.emit(ev.CardsPaid(seat=seat, cards=ROAD), ev.RoadPlaced(seat=seat, path=c.path))


def _build_settlement(f: CatanFold, seat: int, c: cmd.BuildSettlement) -> None:
    f.emit(ev.CardsPaid(seat=seat, cards=SETTLEMENT), ev.BuildingPlaced(seat=seat, spot=c.spot, level=1))


def _build_city(f: CatanFold, seat: int, c: cmd.BuildCity) -> None:
    f.emit(ev.CardsPaid(seat=seat, cards=CITY), ev.BuildingPlaced(seat=seat, spot=c.spot, level=2))


def _build_wall(f: CatanFold, seat: int, c: cmd.BuildWall) -> None:
    f.emit(ev.CardsPaid(seat=seat, cards=WALL), ev.WallPlaced(seat=seat, spot=c.spot))


def _discard_one(f: CatanFold, seat: int, c: cmd.DiscardProgress) -> None:
    draws.discard(f, seat, c.cards)


def _knight_options(kind: type) -> Options:
    return _ck_only(lambda state, seat: [c for c in knights.options(state, seat) if isinstance(c, kind)])


def _base(state: State) -> bool:
    return not state.options.ck


def _ck_only(fn: Options) -> Options:
    return lambda state, seat: fn(state, seat) if state.options.ck else []


def _base_only(fn: Options) -> Options:
    return lambda state, seat: fn(state, seat) if _base(state) else []


MAIN: dict[type, tuple[Options, Apply]] = {
    cmd.BuildRoad: (_roads, _build_road),
    cmd.BuildSettlement: (_settlements, _build_settlement),
    cmd.BuildCity: (_cities, _build_city),
    cmd.TradeBank: (trade.bank_options, trade.trade_bank),
    cmd.BuyDevCard: (
        _base_only(lambda s, seat: [cmd.BuyDevCard()] if development.can_buy(s, seat) else []),
        lambda f, seat, c: development.buy(f, seat),
    ),
    cmd.PlayDevCard: (_base_only(development.play_options), development.play),
    cmd.BuildWall: (_walls, _build_wall),
    cmd.BuildKnight: (_knight_options(cmd.BuildKnight), knights.apply),
    cmd.ActivateKnight: (_knight_options(cmd.ActivateKnight), knights.apply),
    cmd.PromoteKnight: (_knight_options(cmd.PromoteKnight), knights.apply),
    cmd.MoveKnight: (_knight_options(cmd.MoveKnight), knights.apply),
    cmd.ChaseRobber: (_knight_options(cmd.ChaseRobber), knights.apply),
    cmd.BuyImprovement: (_ck_only(improvements.options), improvements.buy),
    cmd.PlayProgress: (_ck_only(progress.options), progress.play),
    cmd.HarborExchange: (_ck_only(trade_deck.harbor_options), trade_deck.harbor),
    cmd.DiscardProgress: (_ck_only(_discard_progress), _discard_one),
    cmd.EndTurn: (_end, lambda f, seat, c: turn.end_turn(f)),
}  # fmt: skip

# Commands checked by a predicate in their handler (their family is too large to list).
OPEN = {cmd.OfferTrade: domestic.offer}


def _roll_options(state: State, seat: int) -> list[Any]:
    out: list[Any] = [cmd.RollDice()]
    if state.options.ck:
        out += science.alchemist_options(state, seat)
        if state.options.knight_errant_variant and not state.effects.errant:
            out += [c for c in knights.options(state, seat) if isinstance(c, cmd.ChaseRobber)]
    else:
        out += development.play_options(state, seat)  # any development card may precede the roll
    return out


def _roll_apply(f: CatanFold, seat: int, c: Any) -> None:
    if isinstance(c, cmd.RollDice):
        turn.roll(f)
    elif isinstance(c, cmd.PlayProgress):  # Alchemist: the chosen dice are the roll
        f.emit(ev.CardPlayed(seat=seat, card=c.card))
        turn.roll(f, c.a, c.b)
    elif isinstance(c, cmd.ChaseRobber):  # Knight-Errant variant
        knights.apply(f, seat, c)
        set_effects(f, errant=True)
    else:
        development.play(f, seat, c)


KNIGHT_COMMANDS = (cmd.BuildKnight, cmd.ActivateKnight, cmd.PromoteKnight, cmd.MoveKnight, cmd.ChaseRobber)


def main_options(state: State, seat: int) -> list[Any]:
    out: list[Any] = knights.options(state, seat) if state.options.ck else []
    for kind, (options, _) in MAIN.items():
        if kind not in KNIGHT_COMMANDS:
            out += options(state, seat)
    out += domestic.offer_options(state, seat)
    return out


ROLL = (_roll_options, _roll_apply)
