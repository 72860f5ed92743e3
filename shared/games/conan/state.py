"""The full server-side state: frozen records, no behaviour.

Seats are ints 0..n-1; provinces are stored in pack order and named by id in
commands and events. Private facts (hands, tokens, sealed choices, deck
orders) live here too; ``views.py`` decides who sees them.
"""

from __future__ import annotations

from shared.games.conan.options import Options
from shared.kernel.contract import Standing
from shared.kernel.messages import Record

NEUTRAL = -1


class TableCard(Record, frozen=True):
    card: str
    exhausted: bool = False


class Bid(Record, frozen=True):
    token: int
    card: str | None


class RevealedBid(Record, frozen=True):
    seat: int
    token: int
    card: str | None
    value: int


class SeatState(Record, frozen=True):
    kingdom: str
    gold: int = 0
    sorcery: int = 0
    ep: int = 0
    crom: int = 0
    strategy_hand: tuple[str, ...] = ()
    kingdom_hand: tuple[str, ...] = ()
    kingdom_deck: tuple[str, ...] = ()
    kingdom_discard: tuple[str, ...] = ()
    table: tuple[TableCard, ...] = ()
    bid_available: tuple[int, ...] = ()
    bid_spent: tuple[int, ...] = ()
    tokens: tuple[int, ...] = ()  # adventure tokens, face down
    pending_token: int = -1  # just received, keep-or-exchange not yet chosen
    artifacts: tuple[str, ...] = ()
    bonus: bool = False
    dead: bool = False
    sealed_bid: Bid | None = None
    sealed_cards: tuple[str, ...] = ()  # strategy cards committed for a contest
    committed: bool = False  # a contest card choice was made (public)
    sealed_category: str = ""  # secret artifact category choice


class ProvinceState(Record, frozen=True):
    units: tuple[int, ...]
    emissaries: tuple[int, ...]
    owner: int = NEUTRAL  # control-marker owner
    marker: str = ""  # "" | tower | fort | city
    raiders: int = 0
    campaign_owner: int = NEUTRAL
    campaign_pos: int = 0


class Phase(Record, frozen=True, tag_field="phase"):
    pass


class Bidding(Phase, frozen=True, tag="bidding"):
    step: str = "sealed"  # sealed | swap | resolve
    bidders: tuple[int, ...] = ()
    revealed: tuple[RevealedBid, ...] = ()


class TokenChoice(Phase, frozen=True, tag="token_choice"):
    seat: int


class Coronation(Phase, frozen=True, tag="coronation"):
    seat: int


class AdventureEnd(Phase, frozen=True, tag="adventure_end"):
    step: str = "reward"  # reward | coronation | next


class Turn(Phase, frozen=True, tag="turn"):
    seat: int
    step: str = "conan"  # conan | cards | die
    conan_done: bool = False  # the Conan player's free move is made


class Military(Phase, frozen=True, tag="military"):
    seat: int
    moves_left: int = 2
    moved: tuple[tuple[str, str], ...] = ()  # (from, to)
    #: units that arrived in each province by this action's movements (units are
    #: anonymous: these are the ones that may not move again without one_army_two_moves)
    arrived: tuple[tuple[str, int], ...] = ()
    fought: bool = False
    #: the neutral or hostile province a movement of this action entered: the
    #: action's one contest must be fought there (docs/rules/conan.md §5.2)
    target: str = ""


class Intrigue(Phase, frozen=True, tag="intrigue"):
    seat: int
    moves: tuple[tuple[str, str], ...] = ()
    had_at: tuple[tuple[str, int], ...] = ()  # emissaries per province before moving
    fought: bool = False


class ConanCourt(Phase, frozen=True, tag="conan_court"):
    seat: int


class Court(Phase, frozen=True, tag="court"):
    seat: int


class Side(Record, frozen=True):
    seat: int  # NEUTRAL for a neutral defender
    cards: tuple[str, ...] = ()  # revealed strategy cards
    extra_dice: int = 0
    faces: tuple[tuple[str, int, int], ...] = ()  # (face, successes, limit)
    conan: bool = False  # Conan benefits this side
    dice: tuple[str, ...] = ()
    rerolled: bool = False  # sorcery already used this roll
    free_rerolls: int = 0


class Contest(Phase, frozen=True, tag="contest"):
    kind: str  # campaign | siege | battle | alliance | break
    province: str
    terrain: str
    #: attacker_card | defender_card | before_attacker | after_attacker | before_defender
    #: | after_defender | resolve
    step: str
    attacker: Side
    defender: Side
    split: bool = False  # launched from two provinces: no forced march


class AfterContest(Phase, frozen=True, tag="after_contest"):
    seat: int
    province: str
    kind: str
    won: bool
    defender: int = NEUTRAL  # the player defender of that contest
    split: bool = False
    march_free: bool = False


class Retreat(Phase, frozen=True, tag="retreat"):
    """A battle defender may withdraw to an adjacent friendly province."""

    seat: int
    province: str
    attacker: int


class AgeChange(Phase, frozen=True, tag="age_change"):
    step: int = 1
    pos: int = 0  # index into the clockwise order from the first player
    final: bool = False


class Garrison(Phase, frozen=True, tag="garrison"):
    """Age change step 3 for one seat: its unit and city placements so far."""

    seat: int
    used: tuple[str, ...] = ()  # provinces that took their unit or became a city


class GameOver(Phase, frozen=True, tag="game_over"):
    pass


AnyPhase = (
    Bidding | TokenChoice | Coronation | AdventureEnd | Turn | Military | Intrigue | ConanCourt | Court
    | Contest | AfterContest | Retreat | AgeChange | Garrison | GameOver
)  # fmt: skip


class State(Record, frozen=True):
    options: Options
    seats: tuple[SeatState, ...]
    provinces: tuple[ProvinceState, ...]
    zones: tuple[str, ...]  # zones in play
    phases: tuple[AnyPhase, ...] = ()
    fate_pool: tuple[str, ...] = ()
    conan_at: str = ""
    conan_player: int = NEUTRAL
    first_player: int = 0
    age: int = 1
    adventure: str = ""
    destination: str = ""
    adventure_deck: tuple[str, ...] = ()
    adventures_used: tuple[str, ...] = ()
    track: tuple[int, ...] = ()
    container: tuple[int, ...] = ()
    exchanged: tuple[int, ...] = ()
    discarded_tokens: tuple[int, ...] = ()
    strategy_deck: tuple[str, ...] = ()
    strategy_discard: tuple[str, ...] = ()
    objectives: tuple[str, ...] = ()
    objective_deck: tuple[str, ...] = ()
    age_over: bool = False
    crowned: int = NEUTRAL
    standings: tuple[Standing, ...] = ()
    end_reason: str = ""

    @property
    def phase(self) -> AnyPhase:
        return self.phases[-1]
