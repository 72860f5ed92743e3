"""Every command a seat may send: imperative names, explicit tags."""

from __future__ import annotations

from shared.games.catan.cards import Hand
from shared.kernel.messages import Command


class BuildSettlement(Command, tag="catan.build_settlement"):
    spot: int


class BuildCity(Command, tag="catan.build_city"):
    """Upgrade a settlement; in the C&K set-up, the second placement."""

    spot: int


class BuildRoad(Command, tag="catan.build_road"):
    path: int


class RollDice(Command, tag="catan.roll_dice"):
    pass


class EndTurn(Command, tag="catan.end_turn"):
    pass


class MoveRobber(Command, tag="catan.move_robber"):
    hex: int
    victim: int = -1


class SelectCards(Command, tag="catan.select_cards"):
    """Discard on a 7 or to a Saboteur, give to a Wedding, take by Master Merchant."""

    cards: Hand


class Choose(Command, tag="catan.choose"):
    """Answer a pending decision with one number (a spot, a track, a seat, a card kind, yes=1/no=0)."""

    choice: int


class TradeBank(Command, tag="catan.trade_bank"):
    give: int
    get: int


class OfferTrade(Command, tag="catan.offer_trade"):
    give: Hand
    get: Hand
    to: int = -1  # -1: every other seat


class CounterTrade(Command, tag="catan.counter_trade"):
    """Answer an offer with other terms: the cards this seat gives and those it wants."""

    give: Hand
    get: Hand


class BuyDevCard(Command, tag="catan.buy_dev_card"):
    pass


class PlayDevCard(Command, tag="catan.play_dev_card"):
    card: str
    kinds: tuple[int, ...] = ()


class BuildWall(Command, tag="catan.build_wall"):
    spot: int


class BuildKnight(Command, tag="catan.build_knight"):
    spot: int


class ActivateKnight(Command, tag="catan.activate_knight"):
    spot: int


class PromoteKnight(Command, tag="catan.promote_knight"):
    spot: int


class MoveKnight(Command, tag="catan.move_knight"):
    """Move to an empty spot, or displace a weaker opponent's knight there."""

    spot: int
    to: int


class ChaseRobber(Command, tag="catan.chase_robber"):
    spot: int
    hex: int
    victim: int = -1


class BuyImprovement(Command, tag="catan.buy_improvement"):
    track: int
    spot: int = -1  # the city that receives a metropolis, when this purchase wins one


class PlayProgress(Command, tag="catan.play_progress"):
    card: str
    a: int = -1
    b: int = -1


class DiscardProgress(Command, tag="catan.discard_progress"):
    cards: tuple[str, ...]


class TakeCard(Command, tag="catan.take_card"):
    card: str = ""  # "" takes nothing


class HarborExchange(Command, tag="catan.harbor_exchange"):
    """Commercial Harbor: hand ``kind`` (a resource) to ``seat`` for a commodity of theirs."""

    seat: int
    kind: int


CatanCommand = (
    BuildSettlement | BuildCity | BuildRoad | RollDice | EndTurn | MoveRobber | SelectCards | Choose
    | TradeBank | OfferTrade | CounterTrade | BuyDevCard | PlayDevCard | BuildWall | BuildKnight
    | ActivateKnight | PromoteKnight | MoveKnight | ChaseRobber | BuyImprovement | PlayProgress
    | DiscardProgress | TakeCard | HarborExchange
)  # fmt: skip
