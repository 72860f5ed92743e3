"""Commands: what a seat asks for, imperative, tagged ``conan.<snake_name>``."""

from __future__ import annotations

from shared.kernel.bounds import Count, Ids, Name, OptionalSeat
from shared.kernel.messages import Command


class PlaceBid(Command, tag="conan.place_bid"):
    token: Count  # a bidding token's value, as the pack prints it
    card: Name | None = None


class SwapBidCard(Command, tag="conan.swap_bid_card"):
    card: Name | None = None  # None keeps the revealed card


class ChooseToken(Command, tag="conan.choose_token"):
    keep: Name  # keep | gold | sorcery


class MoveConan(Command, tag="conan.move_conan"):
    to: Name | None = None  # None: Conan stays


class PlayTableCard(Command, tag="conan.play_table_card"):
    card: Name


class RefreshTableCard(Command, tag="conan.refresh_table_card"):
    card: Name


class TakeDie(Command, tag="conan.take_die"):
    action: Name  # military | intrigue | court


class RaiseTroops(Command, tag="conan.raise_troops"):
    provinces: Ids


class MoveArmy(Command, tag="conan.move_army"):
    frm: Name
    to: Name
    units: Count


class Attack(Command, tag="conan.attack"):
    province: Name
    defender: OptionalSeat = -1  # named only when several other armies could defend a battle


class EndAction(Command, tag="conan.end_action"):
    pass


class MoveEmissary(Command, tag="conan.move_emissary"):
    frm: Name
    to: Name


class StartIntrigue(Command, tag="conan.start_intrigue"):
    province: Name


class CollectGold(Command, tag="conan.collect_gold"):
    province: Name


class BuildEmissary(Command, tag="conan.build_emissary"):
    province: Name


class ConanAct(Command, tag="conan.conan_act"):
    to: Name | None = None
    raider: Name | None = None


class CourtDraw(Command, tag="conan.court_draw"):
    option: Name  # strategy_kingdom | two_strategy


class PlayEvent(Command, tag="conan.play_event"):
    card: Name


class CommitCard(Command, tag="conan.commit_card"):
    cards: Ids = ()  # sorted; up to the strategy_cards_per_contest option


class UseCard(Command, tag="conan.use_card"):
    card: Name


class Sorcery(Command, tag="conan.sorcery"):
    pass


class Proceed(Command, tag="conan.proceed"):
    pass


class ForcedMarch(Command, tag="conan.forced_march"):
    defender: OptionalSeat = -1  # as for Attack


class Withdraw(Command, tag="conan.withdraw"):
    to: Name
    #: the province left, named in a Military action (after a contest it is the contest's)
    frm: Name | None = None


class Crown(Command, tag="conan.crown"):
    category: Name | None = None  # None declines the attempt


class ResolveRaids(Command, tag="conan.resolve_raids"):
    sacrifice_in: Ids = ()


class PlaceGarrison(Command, tag="conan.place_garrison"):
    province: Name
    city: bool = False  # turn the fort into a city instead of placing a unit


class Buy(Command, tag="conan.buy"):
    item: Name  # emissary | unit | kingdom_and_strategy | strategy
    province: Name | None = None


class ChooseCategory(Command, tag="conan.choose_category"):
    category: Name


AnyCommand = (
    PlaceBid | SwapBidCard | ChooseToken | MoveConan | PlayTableCard | RefreshTableCard | TakeDie
    | RaiseTroops | MoveArmy | Attack | EndAction | MoveEmissary | StartIntrigue | CollectGold
    | BuildEmissary | ConanAct | CourtDraw | PlayEvent | CommitCard | UseCard | Sorcery | Proceed
    | ForcedMarch | Withdraw | Crown | ResolveRaids | PlaceGarrison | Buy | ChooseCategory
)  # fmt: skip
