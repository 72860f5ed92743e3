"""The full server-side state: frozen records, no behaviour."""

from __future__ import annotations

from shared.games.catan.cards import EMPTY, Hand
from shared.games.catan.options import Options
from shared.kernel.messages import Record

#: Seats at a table: the registrations' bounds.
MIN_SEATS, MAX_SEATS = 3, 4


class Knight(Record, frozen=True):
    spot: int
    owner: int
    strength: int  # 1 basic, 2 strong, 3 mighty
    active: bool = False
    # Turn numbers: a knight activated this turn may not act; one promotion per turn.
    activated_turn: int = -1
    promoted_turn: int = -1


class Player(Record, frozen=True):
    hand: Hand = EMPTY
    # Development cards (base) or progress cards (C&K) held, sorted.
    cards: tuple[str, ...] = ()
    # Development cards bought this turn (not playable until the next one).
    fresh: tuple[str, ...] = ()
    knights_played: int = 0
    vp_cards: int = 0  # revealed Printer/Constitution
    defender: int = 0
    levels: tuple[int, int, int] = (0, 0, 0)  # trade, politics, science


class Answer(Record, frozen=True):
    seat: int
    cards: Hand = EMPTY
    choice: int = -1
    names: tuple[str, ...] = ()
    counter: Hand = ()  # a counter-offer: the cards asked for in return for ``cards``


class Task(Record, frozen=True):
    """A decision the game waits for; several seats may be awaited at once."""

    kind: str
    seats: tuple[int, ...]
    amounts: tuple[int, ...] = ()  # per awaited seat, aligned with ``seats``
    owner: int = -1  # the seat whose action opened it
    data: tuple[int, ...] = ()  # kind-specific facts (a trade's hands, a knight's strength)
    answers: tuple[Answer, ...] = ()  # hidden from others until the task closes


class Effects(Record, frozen=True):
    """Turn-scoped effects, cleared when the turn ends."""

    dev_played: bool = False
    trade_offers: int = 0  # counted only under the house-rule cap on offers
    cranes: int = 0
    fleet: tuple[int, ...] = ()  # card kinds tradable 2:1 this turn (Merchant Fleet)
    # Commercial Harbor exchanges left: each opponent once per card played this turn.
    harbor_targets: tuple[int, ...] = ()
    errant: bool = False  # a knight already chased the robber before this turn's roll


class State(Record, frozen=True):
    options: Options
    seats: int
    terrain: tuple[int, ...] = ()
    numbers: tuple[int, ...] = ()
    harbors: tuple[int, ...] = ()
    robber: int = -1
    merchant: int = -1
    merchant_owner: int = -1
    owner: tuple[int, ...] = ()  # per intersection, -1 empty
    level: tuple[int, ...] = ()  # per intersection: 0 none, 1 settlement, 2 city
    tipped: tuple[int, ...] = ()  # pillaged cities on their side (settlements using a city piece)
    walls: tuple[int, ...] = ()
    metropolis: tuple[int, int, int] = (-1, -1, -1)  # spot per track
    roads: tuple[int, ...] = ()  # per path, -1 empty
    knights: tuple[Knight, ...] = ()  # sorted by spot
    players: tuple[Player, ...] = ()
    bank: Hand = EMPTY
    dev_deck: tuple[str, ...] = ()
    decks: tuple[tuple[str, ...], ...] = ((), (), ())  # progress decks, top first
    barbarian: int = 0
    attacks: int = 0
    defenders_left: int = 6
    longest: int = -1
    road_lengths: tuple[int, ...] = ()
    largest_army: int = -1
    phase: str = "setup"  # setup, roll, main, over
    active: int = 0
    turn: int = 0
    setup_queue: tuple[int, ...] = ()
    setup_spot: int = -1  # the building the next set-up road must touch
    dice: tuple[int, int, str] = (0, 0, "")
    todo: tuple[str, ...] = ()
    task: Task | None = None
    effects: Effects = Effects()
    winner: int = -1


def knight_at(state: State, spot: int) -> Knight | None:
    for k in state.knights:
        if k.spot == spot:
            return k
    return None


def knight_on(state: State, spot: int) -> Knight:
    """The knight at ``spot``, where the rules know one stands (a listed command names it)."""
    k = knight_at(state, spot)
    assert k is not None, spot
    return k
