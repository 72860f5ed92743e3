"""Commands: what a seat asks for, imperative, tagged ``conan.<snake_name>``."""

from __future__ import annotations

from shared.kernel.messages import Command


class PlaceBid(Command, tag="conan.place_bid"):
    token: int
    card: str | None = None


class SwapBidCard(Command, tag="conan.swap_bid_card"):
    card: str | None = None  # None keeps the revealed card


class ChooseToken(Command, tag="conan.choose_token"):
    keep: str  # keep | gold | sorcery


class MoveConan(Command, tag="conan.move_conan"):
    to: str | None = None  # None: Conan stays


class PlayTableCard(Command, tag="conan.play_table_card"):
    card: str


class RefreshTableCard(Command, tag="conan.refresh_table_card"):
    card: str


class TakeDie(Command, tag="conan.take_die"):
    action: str  # military | intrigue | court


class RaiseTroops(Command, tag="conan.raise_troops"):
    provinces: tuple[str, ...]


class MoveArmy(Command, tag="conan.move_army"):
    frm: str
    to: str
    units: int


class Attack(Command, tag="conan.attack"):
    province: str
    defender: int = -1  # named only when several other armies could defend a battle


class EndAction(Command, tag="conan.end_action"):
    pass


class MoveEmissary(Command, tag="conan.move_emissary"):
    frm: str
    to: str


class StartIntrigue(Command, tag="conan.start_intrigue"):
    province: str


class CollectGold(Command, tag="conan.collect_gold"):
    province: str


class BuildEmissary(Command, tag="conan.build_emissary"):
    province: str


class ConanAct(Command, tag="conan.conan_act"):
    to: str | None = None
    raider: str | None = None


class CourtDraw(Command, tag="conan.court_draw"):
    option: str  # strategy_kingdom | two_strategy


class PlayEvent(Command, tag="conan.play_event"):
    card: str


class CommitCard(Command, tag="conan.commit_card"):
    cards: tuple[str, ...] = ()  # sorted; up to the strategy_cards_per_contest option


class UseCard(Command, tag="conan.use_card"):
    card: str


class Sorcery(Command, tag="conan.sorcery"):
    pass


class Proceed(Command, tag="conan.proceed"):
    pass


class ForcedMarch(Command, tag="conan.forced_march"):
    defender: int = -1  # as for Attack


class Withdraw(Command, tag="conan.withdraw"):
    to: str


class Crown(Command, tag="conan.crown"):
    category: str | None = None  # None declines the attempt


class ResolveRaids(Command, tag="conan.resolve_raids"):
    sacrifice_in: tuple[str, ...] = ()


class PlaceGarrison(Command, tag="conan.place_garrison"):
    province: str
    city: bool = False  # turn the fort into a city instead of placing a unit


class Buy(Command, tag="conan.buy"):
    item: str  # emissary | unit | kingdom_and_strategy | strategy
    province: str | None = None


class ChooseCategory(Command, tag="conan.choose_category"):
    category: str


AnyCommand = (
    PlaceBid | SwapBidCard | ChooseToken | MoveConan | PlayTableCard | RefreshTableCard | TakeDie
    | RaiseTroops | MoveArmy | Attack | EndAction | MoveEmissary | StartIntrigue | CollectGold
    | BuildEmissary | ConanAct | CourtDraw | PlayEvent | CommitCard | UseCard | Sorcery | Proceed
    | ForcedMarch | Withdraw | Crown | ResolveRaids | PlaceGarrison | Buy | ChooseCategory
)  # fmt: skip
