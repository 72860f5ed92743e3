"""Bots. Both read only what their seat may know: the table, their own hand,
and the VP piles as the public feed laid them (a perfect memory, not a peek).

``random`` picks a kind of command first, then one of that kind, so that the
hundreds of leader moves do not drown the card plays and games end briskly.
``greedy`` looks one step ahead with a hand-made value of each command.
"""

from __future__ import annotations

from collections import defaultdict

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import count
from shared.games.tigris_cards.commands import (
    BuildShip,
    ChooseConflictColour,
    CommitSupport,
    Decline,
    Pass,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    PlayConnector,
    ScoreCard,
    TakeTreasure,
    TigrisCardsCommand,
    WithdrawLeader,
)
from shared.games.tigris_cards.legal import legal
from shared.games.tigris_cards.rules.kingdoms import kingdom, leader_of_colour
from shared.games.tigris_cards.rules.playing import vp_recipient
from shared.games.tigris_cards.rules.scoring import colour_points
from shared.games.tigris_cards.state import State, Token
from shared.games.tigris_common.colours import Colour
from shared.kernel.rng import Rng


def random_bot(state: State, seat: int, rng: Rng) -> TigrisCardsCommand:
    by_kind: dict[type, list[TigrisCardsCommand]] = defaultdict(list)
    for command in legal(state, seat):
        by_kind[type(command)].append(command)
    kinds = sorted(by_kind, key=lambda k: k.__name__)
    return rng.choice(by_kind[rng.choice(kinds)])


def greedy_bot(state: State, seat: int, rng: Rng) -> TigrisCardsCommand:
    options = legal(state, seat)
    scored = [(_value(state, seat, c) + rng.below(1000) / 100_000, i) for i, c in enumerate(options)]
    return options[max(scored)[1]]


def _weakness(state: State, seat: int) -> dict:
    """How much one more point of each colour is worth: most for the weakest."""
    points = colour_points(state.players[seat])
    low = min(points.values())
    return {c: 1.0 / (1 + points[c] - low) for c in points}


def _value(state: State, seat: int, command: TigrisCardsCommand) -> float:
    match command:
        case ScoreCard() | BuildShip() | TakeTreasure():
            return 10.0
        case Decline() | Pass():
            return -1.0
        case PlayCard(colour=colour, column=column):
            return _card_value(state, seat, colour, column)
        case PlaceLeader():
            return _leader_value(state, seat, command)
        case CommitSupport(count=n):
            return _support_value(state, seat, n)
        case ChooseConflictColour():
            return 0.0
        case PlayConnector() | PlayCatastrophe() | WithdrawLeader():
            return -0.5
    return 0.0


def _card_value(state: State, seat: int, colour, column: int) -> float:
    receiver = vp_recipient(state, column, colour)
    if receiver == seat and count(state.players[seat].hand, colour) >= 2:
        return 2.0 + _weakness(state, seat)[colour]
    if receiver is not None and receiver != seat:
        return -0.8
    return 0.1


def _leader_value(state: State, seat: int, command: PlaceLeader) -> float:
    token = Token(seat=seat, leader=command.leader)
    here = tb.find_leader(state.table, token)
    span = kingdom(state.table, command.spot.column)
    rival = leader_of_colour(state.table, span, command.leader)
    if rival is not None and rival[1].seat != seat:
        return 0.3 if count(state.players[seat].hand, Colour.RED) >= 3 else -0.6
    size = sum(len(state.table.columns[c]) for c in range(span[0], span[1] + 1))
    return (0.8 if here is None else 0.2) + size / 100


def _support_value(state: State, seat: int, n: int) -> float:
    conflict = state.conflict
    assert conflict is not None
    if seat == conflict.attacker:
        lead = conflict.attacker_base + n - conflict.defender_base
        return (1.0 if lead > 1 else 0.0) - n * 0.1
    lead = conflict.defender_base + n - conflict.attacker_base - (conflict.attacker_cards or 0)
    return (1.0 if lead >= 0 else 0.0) - n * 0.1
