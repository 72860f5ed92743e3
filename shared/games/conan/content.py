"""Content-pack schema: the typed records every data file decodes into.

The engine never names a province or a card; it reads these records, gathered
in one :class:`Pack`. The loader (``loader.py``) fills them from YAML and
``validate.py`` checks their cross references.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

import msgspec

from shared.kernel.messages import Record

FATE_FACES = ("MILITARY", "INTRIGUE", "MILITARY_INTRIGUE", "COURT_CONAN", "COURT", "WILD")
CONTEST_FACES = ("HIT", "ATTACKER_HIT", "HIT_CONAN", "SHIELD", "AXE", "BLANK")
CATEGORIES = ("monsters", "treasures", "women")
CARD_TYPES = ("table", "instant", "event")
WINDOWS = (
    "turn.start",
    "court.resolve",
    "contest.before_attacker_roll",
    "contest.before_defender_roll",
    "contest.after_attacker_roll",
    "contest.after_defender_roll",
    "contest.after",
)
#: Effect primitives (docs/rules/conan.md §2.3) this engine interprets, with the windows
#: where each makes sense (checked at load so a pack cannot ask the impossible).
CONTEST_BEFORE = ("contest.before_attacker_roll", "contest.before_defender_roll")
CONTEST_AFTER_ROLL = ("contest.after_attacker_roll", "contest.after_defender_roll")
CARD_OPS: dict[str, tuple[str, ...]] = {
    "add_dice": CONTEST_BEFORE,
    "face_counts_as": CONTEST_BEFORE + CONTEST_AFTER_ROLL,
    "conan_counts_present": CONTEST_BEFORE,
    "reroll": CONTEST_AFTER_ROLL,
    "forced_march_free": ("contest.after",),
    "draw": ("court.resolve",),
    "gain": ("court.resolve",),
    "place_units": ("court.resolve",),
    "raider_remove": ("court.resolve",),
}
PERMANENT_OPS = ("win_ties", "add_dice", "gold_bonus", "cost_modifier", "bid_swap")


class Effect(Record, frozen=True, forbid_unknown_fields=True):
    op: str
    n: int = 0
    face: str = ""
    successes: int = 1
    limit: int = 0  # 0 = every matching die
    deck: str = ""
    resource: str = ""
    where: str = ""
    contest: str = ""  # military | intrigue | "" (any)
    trigger: str = ""  # gold_bonus: alliance | collect
    card_type: str = ""
    delta: int = 0
    min: int = 0


class Province(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    zone: str
    region: str
    value: int
    savage: bool
    coastal: bool
    home_of: str | None
    track: tuple[str, ...]
    adjacent: tuple[str, ...]
    conan_start: bool = False


class Kingdom(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    colour: str
    home: str
    zone: str
    start_units: int
    start_emissaries: int
    start_gold: int
    start_sorcery: int
    units: int
    emissaries: int


class StrategyCard(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    copies: int
    bid_value: int
    success_faces: tuple[str, ...]
    military_terrains: tuple[str, ...]
    regions_small: tuple[str, ...]
    regions_full: tuple[str, ...]


class When(Record, frozen=True, forbid_unknown_fields=True):
    contest: str = ""  # military | intrigue | "" (any)
    role: str = ""  # attacker | defender | "" (any)


class KingdomCard(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    kingdom: str
    name: str
    type: str
    copies: int
    windows: tuple[str, ...]
    effects: tuple[Effect, ...]
    text: str
    cost: int = 0
    when: When = When()


class AdventureCard(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    title: str
    destination: str
    tokens: int


class TokenKind(Record, frozen=True, forbid_unknown_fields=True):
    category: str
    value: int
    count: int


class Condition(Record, frozen=True, forbid_unknown_fields=True):
    type: str
    n: int
    region: str = ""


class Objective(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    ep: int
    condition: Condition


OBJECTIVE_TYPES = (
    "forts_at_least",
    "towers_at_least",
    "cities_at_least",
    "gold_at_least",
    "crom_at_least",
    "provinces_at_least",
    "units_at_least",
    "emissaries_at_least",
    "provinces_in_region_at_least",
    "adventure_tokens_at_least",
    "sorcery_at_least",
)


class Artifact(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    effects: tuple[Effect, ...]
    category: str = ""


class Header(Record, frozen=True, forbid_unknown_fields=True):
    id: str
    title: str
    label: str
    bidding_tokens: tuple[int, ...]
    keep_token: int
    reset_token: int
    court_draw_options: tuple[str, ...]
    purchase_costs: dict[str, int]
    age_change_income: dict[str, int]
    supply: dict[str, int]
    adventures_per_age: int
    ages: int
    stack_limit: int
    starting_hand: dict[str, int]
    setups: dict[int, tuple[str, ...]]
    always_in_play: tuple[str, ...]
    #: final scoring step 2: EP per province holding the player's fort, or city.
    #: The seed names the step but no amount, hence 0 unless a pack knows better.
    final_ep_per_fort: int = 0
    final_ep_per_city: int = 0


class ProvinceLayout(Record, frozen=True, forbid_unknown_fields=True):
    x: int
    y: int
    shape: tuple[tuple[int, int], ...] = ()


class MapFeature(Record, frozen=True, forbid_unknown_fields=True):
    kind: str  # desert | mountains | ...: land that is no province
    shape: tuple[tuple[int, int], ...]


class MapLabel(Record, frozen=True, forbid_unknown_fields=True):
    kind: str  # sea | desert | mountains | ...
    name: str
    x: int
    y: int
    angle: int = 0


class Point(Record, frozen=True, forbid_unknown_fields=True):
    x: int
    y: int


class Layout(Record, frozen=True, forbid_unknown_fields=True):
    """Where a client draws the map (``layout.yaml``, optional): never read by the rules."""

    width: int
    height: int
    provinces: dict[str, ProvinceLayout]
    features: tuple[MapFeature, ...] = ()
    labels: tuple[MapLabel, ...] = ()
    zones: dict[str, Point] = {}


class Dice(Record, frozen=True, forbid_unknown_fields=True):
    fate_faces: tuple[str, ...]
    pool_size: int
    contest_faces: tuple[str, ...]
    max_per_roll: int


#: A name in a pack's words: a card's title, a province on the map.
WordName = Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
#: A kingdom card's rule text.
WordText = Annotated[str, msgspec.Meta(min_length=1, max_length=300)]
#: A language's code, as its words file is named (``i18n/fi.yaml``).
LANGUAGE = r"^[a-z]{2,3}$"
#: Bounds a translation file cannot outgrow: a pack has far fewer entries.
_MAX_ENTRIES = 256
Names = Annotated[dict[str, WordName], msgspec.Meta(max_length=_MAX_ENTRIES)]


class CardWords(Record, frozen=True, forbid_unknown_fields=True):
    name: WordName
    text: WordText


class PackWords(Record, frozen=True, forbid_unknown_fields=True):
    """A pack's words in one language, keyed by the pack's own ids (a map label,
    which has none, by its English name). English is the pack's own files;
    every other language is ``i18n/<code>.yaml`` beside them, where a missing
    entry falls back to English and an id the pack lacks is refused."""

    provinces: Names = {}
    kingdoms: Names = {}
    zones: Names = {}
    #: intrigue regions (a strategy card's, an objective's)
    regions: Names = {}
    strategy_cards: Names = {}
    kingdom_cards: Annotated[dict[str, CardWords], msgspec.Meta(max_length=_MAX_ENTRIES)] = {}
    #: the artifacts and the bonus card
    artifacts: Names = {}
    adventures: Names = {}
    objectives: Names = {}
    labels: Names = {}


class PackError(ValueError):
    """A pack that cannot be played, named by file, entry and field: pack
    authors are not Python programmers."""

    def __init__(self, file: str, entry: str, field: str, message: str) -> None:
        super().__init__(f"{file}: entry {entry!r}, field {field!r}: {message}")
        self.file, self.entry, self.field = file, entry, field


# Compared and hashed by identity: a pack is loaded once and shared, and the
# views memoise its map by it.
@dataclass(frozen=True, eq=False)
class Pack:
    header: Header
    dice: Dice
    provinces: tuple[Province, ...]
    kingdoms: dict[str, Kingdom]
    strategy: dict[str, StrategyCard]
    kingdom_cards: dict[str, KingdomCard]
    adventures: dict[str, AdventureCard]
    tokens: tuple[tuple[str, int], ...]  # token id -> (category, value)
    objectives: dict[str, Objective]
    artifacts: dict[str, Artifact]
    bonus: Artifact
    index: dict[str, int]
    distance: tuple[tuple[int, ...], ...]
    #: where a client draws the map (``layout.yaml``); optional, the rules never read it
    layout: Layout | None = None
    #: the pack's words by language (``en`` from the pack's own files): for clients only
    words: dict[str, PackWords] = field(default_factory=dict)

    def province(self, pid: str) -> Province:
        return self.provinces[self.index[pid]]

    def neighbours(self, pid: str) -> tuple[str, ...]:
        return self.province(pid).adjacent

    def dist(self, a: str, b: str) -> int:
        return self.distance[self.index[a]][self.index[b]]

    def strategy_deck(self) -> list[str]:
        return [c.id for c in self.strategy.values() for _ in range(c.copies)]

    def kingdom_deck(self, kingdom: str) -> list[str]:
        return [c.id for c in self.kingdom_cards.values() if c.kingdom == kingdom for _ in range(c.copies)]

    def home(self, kingdom: str) -> str:
        return self.kingdoms[kingdom].home
