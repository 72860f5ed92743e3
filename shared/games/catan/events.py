"""Every event: past-tense facts with explicit tags. Outcomes of chance and
choices are recorded here, so ``evolve`` only applies them."""

from __future__ import annotations

from shared.games.catan.cards import Hand
from shared.games.catan.options import Options
from shared.games.catan.state import Answer, Effects, Knight, Task
from shared.kernel.messages import Event


class Started(Event, tag="catan.started"):
    seats: int
    options: Options
    first: int


class StartRolled(Event, tag="catan.start_rolled"):
    """One round of the roll for the starting player: who rolled, and both dice of each."""

    seats: tuple[int, ...]
    dice: tuple[tuple[int, int], ...]


class BoardLaid(Event, tag="catan.board_laid"):
    terrain: tuple[int, ...]
    numbers: tuple[int, ...]
    harbors: tuple[int, ...]


class DecksShuffled(Event, tag="catan.decks_shuffled"):
    dev: tuple[str, ...]
    progress: tuple[tuple[str, ...], ...]


class PhaseSet(Event, tag="catan.phase_set"):
    phase: str
    active: int
    turn: int
    setup_queue: tuple[int, ...] = ()
    setup_spot: int = -1


class EffectsSet(Event, tag="catan.effects_set"):
    effects: Effects


class TodoSet(Event, tag="catan.todo_set"):
    todo: tuple[str, ...]


class TaskOpened(Event, tag="catan.task_opened"):
    task: Task


class HarborOffered(Event, tag="catan.harbor_offered"):
    """The resource a Commercial Harbor hands over face down: for the two seats
    only; the public ``TaskOpened`` before it carries no data."""

    owner: int
    seat: int
    kind: int


class Answered(Event, tag="catan.answered"):
    answer: Answer


class AnsweredShadow(Event, tag="catan.answered_shadow"):
    seat: int


class TaskClosed(Event, tag="catan.task_closed"):
    kind: str
    answers: tuple[Answer, ...] = ()


class BuildingPlaced(Event, tag="catan.building_placed"):
    seat: int
    spot: int
    level: int


class CityPillaged(Event, tag="catan.city_pillaged"):
    seat: int
    spot: int
    tipped: bool


class RoadPlaced(Event, tag="catan.road_placed"):
    seat: int
    path: int


class RoadRemoved(Event, tag="catan.road_removed"):
    path: int


class WallPlaced(Event, tag="catan.wall_placed"):
    seat: int
    spot: int


class KnightSet(Event, tag="catan.knight_set"):
    knight: Knight


class KnightRemoved(Event, tag="catan.knight_removed"):
    spot: int


class CardsPaid(Event, tag="catan.cards_paid"):
    """Cards from a seat to the bank, in the open (costs, discards, bank trades)."""

    seat: int
    cards: Hand


class CardsGained(Event, tag="catan.cards_gained"):
    seat: int
    cards: Hand


class CardsPassed(Event, tag="catan.cards_passed"):
    """Cards between two seats in the open (domestic trade, monopolies)."""

    src: int
    dst: int
    cards: Hand


class CardsTaken(Event, tag="catan.cards_taken"):
    """Cards between two seats that only those two see (theft, gifts)."""

    src: int
    dst: int
    cards: Hand


class CardsTakenShadow(Event, tag="catan.cards_taken_shadow"):
    src: int
    dst: int
    count: int


class HandShown(Event, tag="catan.hand_shown"):
    """Master Merchant: a seat looks at another's resource and commodity cards."""

    seat: int
    target: int
    cards: Hand


class ProgressShown(Event, tag="catan.progress_shown"):
    """Spy: a seat looks at another's progress cards, and at nothing else of its hand."""

    seat: int
    target: int
    cards: tuple[str, ...]


class DiceRolled(Event, tag="catan.dice_rolled"):
    yellow: int
    red: int
    event: str = ""  # "", "ship", "trade", "politics", "science"


class RobberMoved(Event, tag="catan.robber_moved"):
    hex: int


class MerchantMoved(Event, tag="catan.merchant_moved"):
    seat: int
    hex: int


class NumbersSwapped(Event, tag="catan.numbers_swapped"):
    a: int
    b: int


class BarbarianMoved(Event, tag="catan.barbarian_moved"):
    position: int


class BarbariansAttacked(Event, tag="catan.barbarians_attacked"):
    """Resets the ship and deactivates every knight (or every fighter), whatever the outcome."""

    barbarians: int
    knights: int
    contributions: tuple[int, ...]
    fighters: tuple[int, ...] | None = None  # "meanies" variant: only these knights fought


class DefenderAwarded(Event, tag="catan.defender_awarded"):
    seat: int


class ImprovementBought(Event, tag="catan.improvement_bought"):
    seat: int
    track: int
    level: int


class MetropolisPlaced(Event, tag="catan.metropolis_placed"):
    track: int
    spot: int


class LongestRoadSet(Event, tag="catan.longest_road_set"):
    holder: int
    lengths: tuple[int, ...]


class LargestArmySet(Event, tag="catan.largest_army_set"):
    holder: int


class CardDrawn(Event, tag="catan.card_drawn"):
    """A development (deck -1) or progress card (deck 0..2) drawn into a hand."""

    seat: int
    deck: int
    card: str


class CardDrawnShadow(Event, tag="catan.card_drawn_shadow"):
    seat: int
    deck: int


class CardRevealed(Event, tag="catan.card_revealed"):
    """A victory-point progress card put face up."""

    seat: int
    card: str


class CardPlayed(Event, tag="catan.card_played"):
    seat: int
    card: str


class CardDiscarded(Event, tag="catan.card_discarded"):
    seat: int
    card: str


class CardDiscardedShadow(Event, tag="catan.card_discarded_shadow"):
    seat: int
    deck: int


class CardStolen(Event, tag="catan.card_stolen"):
    """A progress card taken by a Spy."""

    src: int
    dst: int
    card: str


class CardStolenShadow(Event, tag="catan.card_stolen_shadow"):
    src: int
    dst: int


class GameWon(Event, tag="catan.game_won"):
    seat: int
    points: tuple[int, ...]


CatanEvent = (
    Started | StartRolled | BoardLaid | DecksShuffled | PhaseSet | EffectsSet | TodoSet | TaskOpened
    | HarborOffered | Answered | AnsweredShadow | TaskClosed | BuildingPlaced | CityPillaged | RoadPlaced
    | RoadRemoved | WallPlaced | KnightSet | KnightRemoved | CardsPaid | CardsGained | CardsPassed
    | CardsTaken | CardsTakenShadow | HandShown | ProgressShown | DiceRolled | RobberMoved | MerchantMoved
    | NumbersSwapped | BarbarianMoved | BarbariansAttacked | DefenderAwarded | ImprovementBought
    | MetropolisPlaced | LongestRoadSet | LargestArmySet | CardDrawn | CardDrawnShadow | CardRevealed
    | CardPlayed | CardDiscarded | CardDiscardedShadow | CardStolen | CardStolenShadow | GameWon
)  # fmt: skip
