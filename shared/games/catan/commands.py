"""Every command a seat may send: imperative names, explicit tags."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from shared.games.catan.board import AXIAL, N_PATHS, N_SPOTS
from shared.games.catan.cards import KINDS, TRACKS, SentHand
from shared.kernel.bounds import Ids, Name, OptionalSeat, Seat
from shared.kernel.messages import Command

HEXES = len(AXIAL)
# Knights one seat may own: two each of basic, strong and mighty (knights.PER_LEVEL,
# not imported: knights imports this module).
KNIGHTS_PER_SEAT = 6

SpotId = Annotated[int, Meta(ge=0, le=N_SPOTS - 1)]
#: A spot, or -1 for none.
OptionalSpot = Annotated[int, Meta(ge=-1, le=N_SPOTS - 1)]
PathId = Annotated[int, Meta(ge=0, le=N_PATHS - 1)]
HexId = Annotated[int, Meta(ge=0, le=HEXES - 1)]
Kind = Annotated[int, Meta(ge=0, le=len(KINDS) - 1)]
Track = Annotated[int, Meta(ge=0, le=len(TRACKS) - 1)]
#: Monopoly names one kind, Year of Plenty two.
PickedKinds = Annotated[tuple[Kind, ...], Meta(max_length=2)]
#: The one number that answers a decision or a progress card: a spot, a path
#: (Diplomat), a hex, a seat, a kind, a track, a die face, a knight strength,
#: a mask of the seat's active knights (muster), or -1 (declines, none).
Number = Annotated[int, Meta(ge=-1, le=max(N_SPOTS, N_PATHS, HEXES, 1 << KNIGHTS_PER_SEAT) - 1)]


class BuildSettlement(Command, tag="catan.build_settlement"):
    spot: SpotId


class BuildCity(Command, tag="catan.build_city"):
    """Upgrade a settlement; in the C&K set-up, the second placement."""

    spot: SpotId


class BuildRoad(Command, tag="catan.build_road"):
    path: PathId


class RollDice(Command, tag="catan.roll_dice"):
    pass


class EndTurn(Command, tag="catan.end_turn"):
    pass


class MoveRobber(Command, tag="catan.move_robber"):
    hex: HexId
    victim: OptionalSeat = -1


class SelectCards(Command, tag="catan.select_cards"):
    """Discard on a 7 or to a Saboteur, give to a Wedding, take by Master Merchant."""

    cards: SentHand


class Choose(Command, tag="catan.choose"):
    """Answer a pending decision with one number (a spot, a track, a seat, a card kind, yes=1/no=0)."""

    choice: Number


class TradeBank(Command, tag="catan.trade_bank"):
    give: Kind
    get: Kind


class OfferTrade(Command, tag="catan.offer_trade"):
    give: SentHand
    get: SentHand
    to: OptionalSeat = -1  # -1: every other seat


class CounterTrade(Command, tag="catan.counter_trade"):
    """Answer an offer with other terms: the cards this seat gives and those it wants."""

    give: SentHand
    get: SentHand


class BuyDevCard(Command, tag="catan.buy_dev_card"):
    pass


class PlayDevCard(Command, tag="catan.play_dev_card"):
    card: Name
    kinds: PickedKinds = ()


class BuildWall(Command, tag="catan.build_wall"):
    spot: SpotId


class BuildKnight(Command, tag="catan.build_knight"):
    spot: SpotId


class ActivateKnight(Command, tag="catan.activate_knight"):
    spot: SpotId


class PromoteKnight(Command, tag="catan.promote_knight"):
    spot: SpotId


class MoveKnight(Command, tag="catan.move_knight"):
    """Move to an empty spot, or displace a weaker opponent's knight there."""

    spot: SpotId
    to: SpotId


class ChaseRobber(Command, tag="catan.chase_robber"):
    spot: SpotId
    hex: HexId
    victim: OptionalSeat = -1


class BuyImprovement(Command, tag="catan.buy_improvement"):
    track: Track
    spot: OptionalSpot = -1  # the city that receives a metropolis, when this purchase wins one


class PlayProgress(Command, tag="catan.play_progress"):
    card: Name
    a: Number = -1
    b: Number = -1


class DiscardProgress(Command, tag="catan.discard_progress"):
    cards: Ids


class TakeCard(Command, tag="catan.take_card"):
    card: Name = ""  # "" takes nothing


class HarborExchange(Command, tag="catan.harbor_exchange"):
    """Commercial Harbor: hand ``kind`` (a resource) to ``seat`` for a commodity of theirs."""

    seat: Seat
    kind: Kind


CatanCommand = (
    BuildSettlement | BuildCity | BuildRoad | RollDice | EndTurn | MoveRobber | SelectCards | Choose
    | TradeBank | OfferTrade | CounterTrade | BuyDevCard | PlayDevCard | BuildWall | BuildKnight
    | ActivateKnight | PromoteKnight | MoveKnight | ChaseRobber | BuyImprovement | PlayProgress
    | DiscardProgress | TakeCard | HarborExchange
)  # fmt: skip

# The commands the listings hand out at nearly every state, built once: commands are frozen, so one
# object serves every listing, and building a struct costs more than handing one out.
ROLL_DICE = RollDice()
END_TURN = EndTurn()
BUY_DEV_CARD = BuyDevCard()
BUILD_ROAD = tuple(BuildRoad(path=p) for p in range(N_PATHS))
BUILD_SETTLEMENT = tuple(BuildSettlement(spot=s) for s in range(N_SPOTS))
BUILD_CITY = tuple(BuildCity(spot=s) for s in range(N_SPOTS))
