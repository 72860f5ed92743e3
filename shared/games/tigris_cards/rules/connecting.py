"""Action 2b: a connector joins two kingdoms, and the trader's treasure exchange
(docs/rules/tigris-cards.md §9).

The connector lies face down, earns nobody a VP, and links nothing while the
external conflicts it caused are settled one by one, in the order the active
player chooses. Only then is it turned face up; a trader in the united kingdom
with at least two real treasures may then swap a red hand card for one.
"""

from __future__ import annotations

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import Card, count
from shared.games.tigris_cards.commands import PlayConnector, TakeTreasure
from shared.games.tigris_cards.events import (
    ActionTaken,
    Awaiting,
    ConflictBegun,
    ConnectorChosen,
    ConnectorLaid,
    ConnectorRevealed,
    LeaderReturned,
    TreasureExchanged,
)
from shared.games.tigris_cards.rejections import CANNOT_CONNECT, CARD_NOT_IN_HAND, NO_TREASURE_THERE
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.kingdoms import (
    Span,
    cards_in,
    civilisation_count,
    colour_strength,
    kingdom,
    leader_of_colour,
    left_side,
    right_side,
)
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import (
    GAPS,
    ChooseConflict,
    Conflict,
    Spot,
    State,
    Support,
    TreasureOffer,
)
from shared.games.tigris_common.colours import LEADERS, Colour, Leader
from shared.kernel.rejection import require


def side_size(state: State, span: Span) -> int:
    ships = state.options.ship_counts_for_threshold
    lo, hi = span
    stacks = sum(civilisation_count(state.table, c, ships) for c in range(lo, hi + 1))
    return stacks + sum(1 for g in range(lo, hi) if state.table.gaps[g] is not None)


def can_connect(state: State, gap: int) -> bool:
    if not 0 <= gap < GAPS or state.table.gaps[gap] is not None:
        return False
    need = state.options.connect_threshold
    if state.options.connect_rule == "columns":
        ships = state.options.ship_counts_for_threshold
        return all(civilisation_count(state.table, c, ships) >= need for c in (gap, gap + 1))
    sides = (left_side(state.table, gap), right_side(state.table, gap))
    return all(side_size(state, span) >= need for span in sides)


def play_connector(f: CardsFold, seat: int, command: PlayConnector) -> None:
    require(
        count(f.state.players[seat].hand, command.colour) > 0,
        CARD_NOT_IN_HAND,
        f"You hold no {command.colour} card.",
        colour=command.colour,
    )
    require(
        can_connect(f.state, command.gap),
        CANNOT_CONNECT,
        "A connector needs an empty gap between two columns with enough cards.",
        gap=command.gap,
    )
    f.emit(
        ActionTaken(seat=seat, left=f.state.actions_left - 1),
        ConnectorLaid(seat=seat, gap=command.gap),
        ConnectorChosen(seat=seat, gap=command.gap, colour=command.colour),
    )
    continue_union(f)


def open_conflicts(state: State, gap: int) -> tuple[Colour, ...]:
    """Colours with a leader on each side of the face-down connector."""
    left, right = left_side(state.table, gap), right_side(state.table, gap)
    return tuple(
        leader.colour
        for leader in LEADERS
        if leader_of_colour(state.table, left, leader) and leader_of_colour(state.table, right, leader)
    )


def continue_union(f: CardsFold) -> None:
    union = f.state.union
    assert union is not None
    colours = open_conflicts(f.state, union.gap)
    if not colours:
        reveal(f)
    elif len(colours) == 1:
        begin_external(f, colours[0])
    else:
        f.emit(Awaiting(phase=ChooseConflict(seat=f.state.active, colours=colours)))


def begin_external(f: CardsFold, colour: Colour) -> None:
    state, union = f.state, f.state.union
    assert union is not None
    sides = (left_side(state.table, union.gap), right_side(state.table, union.gap))
    found = [leader_of_colour(state.table, span, colour.leader) for span in sides]
    seats = [f[1].seat for f in found if f is not None]
    # The active player attacks if involved, else the first involved seat clockwise.
    attacker = min(seats, key=lambda s: (s - state.active) % state.seats)
    left_is_attacker = seats[0] == attacker
    bases = [colour_strength(state.table, span, colour) for span in sides]
    attacker_base, defender_base = bases if left_is_attacker else bases[::-1]
    conflict = Conflict(
        kind="external",
        colour=colour,
        support=colour,
        attacker=attacker,
        defender=seats[1] if left_is_attacker else seats[0],
        attacker_base=attacker_base,
        defender_base=defender_base,
    )
    f.emit(ConflictBegun(conflict=conflict), Awaiting(phase=Support(seat=attacker)))


def reveal(f: CardsFold) -> None:
    union = f.state.union
    assert union is not None
    f.emit(ConnectorRevealed(gap=union.gap, colour=union.colour))
    span = kingdom(f.state.table, union.gap)
    trader = leader_of_colour(f.state.table, span, Leader.TRADER)
    treasures = tuple(
        spot.column for spot, slot in cards_in(f.state.table, span) if slot.card is Card.TREASURE
    )
    allowed = trader is not None and (
        f.state.options.inactive_trader_exchanges or trader[1].seat == f.state.active
    )
    if trader is not None and allowed and len(treasures) >= 2:
        f.emit(Awaiting(phase=TreasureOffer(seat=trader[1].seat, columns=treasures)))
    else:
        end_action(f)


def take_treasure(f: CardsFold, seat: int, command: TakeTreasure) -> None:
    offer = f.state.phase
    assert isinstance(offer, TreasureOffer)
    require(command.column in offer.columns, NO_TREASURE_THERE, "No treasure to take in that column.")
    require(
        count(f.state.players[seat].hand, Colour.RED) > 0,
        CARD_NOT_IN_HAND,
        "A red hand card must take the treasure's place.",
    )
    head = Spot(column=command.column, row=0)
    token = tb.occupied(f.state.table, head).leader
    if token is not None and not f.state.options.exchange_keeps_leader:
        f.emit(LeaderReturned(token=token, spot=head))
    f.emit(TreasureExchanged(seat=seat, column=command.column))
    end_action(f)
