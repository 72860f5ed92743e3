"""Bots. Both read only what their seat may know: the table, their own hand,
and the VP piles as the public feed laid them (a perfect memory, not a peek).

``random`` picks a kind of command first, then one of that kind, so that the
hundreds of leader moves do not drown the card plays and games end briskly.
``greedy`` looks one step ahead with a hand-made value of each command.
They are the ``easy`` and ``medium`` levels; ``hard`` searches
(:mod:`shared.kernel.search`), scoring unfinished rollouts by :func:`standing`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import assert_never

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
from shared.games.tigris_cards.rules.kingdoms import kingdom, leaders_in
from shared.games.tigris_cards.rules.scoring import colour_points, treasures
from shared.games.tigris_cards.state import State
from shared.games.tigris_common.colours import Colour, Leader
from shared.games.tigris_common.scoring import strength
from shared.kernel.rng import Rng


def standing(state: State) -> tuple[float, ...]:
    """Every seat's VP piles scored as at the end, as one number (weakest colour first)."""
    return tuple(
        sum(v / 100**k for k, v in enumerate(strength(colour_points(p), treasures(p)))) for p in state.players
    )


def random_bot(state: State, seat: int, rng: Rng) -> TigrisCardsCommand:
    by_kind: dict[type, list[TigrisCardsCommand]] = defaultdict(list)
    for command in legal(state, seat):
        by_kind[type(command)].append(command)
    kinds = sorted(by_kind, key=lambda k: k.__name__)
    return rng.choice(by_kind[rng.choice(kinds)])


def rating(state: State, seat: int, commands: list[TigrisCardsCommand]) -> list[float]:
    """The greedy bot's value of each of ``commands``: the search's bias."""
    outlook = _Outlook(state, seat)
    return [outlook.value(c) for c in commands]


def greedy_bot(state: State, seat: int, rng: Rng) -> TigrisCardsCommand:
    options = legal(state, seat)
    outlook = _Outlook(state, seat)
    values = [outlook.value(c) for c in options]
    best = max(values)
    # One draw breaks ties, not one per candidate: the generator is a hash.
    return rng.choice([c for c, v in zip(options, values, strict=True) if v == best])


class _Outlook:
    """What the greedy bot works out once per decision, then reuses for
    every candidate command."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        self.hand = state.players[seat].hand
        points = colour_points(state.players[seat])
        low = min(points.values())
        # One more point is worth most in the weakest colour (it is the score).
        self.weakness = {c: 1.0 / (1 + points[c] - low) for c in points}
        self.spans = [kingdom(state.table, c) for c in range(len(state.table.columns))]
        self.placed = {t.leader for _, s in tb.slots(state.table) if (t := s.leader) and t.seat == seat}
        self.rulers = {
            span: {t.leader: t.seat for _, t in leaders_in(state.table, span)} for span in set(self.spans)
        }
        self.sizes = {
            span: sum(len(state.table.columns[c]) for c in range(span[0], span[1] + 1))
            for span in set(self.spans)
        }

    def value(self, command: TigrisCardsCommand) -> float:
        match command:  # the most frequent kinds first: this runs for every candidate
            case PlaceLeader():
                return self.leader(command)
            case PlayCard(colour=colour, column=column):
                return self.card(colour, column)
            case ScoreCard() | BuildShip() | TakeTreasure():
                return 10.0
            case Decline() | Pass():
                return -1.0
            case CommitSupport(count=n):
                return _support_value(self.state, self.seat, n)
            case PlayConnector():
                return 0.3
            case ChooseConflictColour():
                return 0.0
            case PlayCatastrophe() | WithdrawLeader():
                return -0.5
            case _:
                assert_never(command)

    def card(self, colour: Colour, column: int) -> float:
        rulers = self.rulers[self.spans[column]]
        receiver = rulers.get(colour.leader, rulers.get(Leader.KING))
        if receiver == self.seat and count(self.hand, colour) >= 2:
            return 2.0 + self.weakness[colour]
        if receiver is not None and receiver != self.seat:
            return -0.8
        # A plain card still grows a kingdom and keeps the draw pile moving.
        return 0.5

    def leader(self, command: PlaceLeader) -> float:
        span = self.spans[command.spot.column]
        rival = self.rulers[span].get(command.leader)
        if rival is not None and rival != self.seat:
            return 0.3 if count(self.hand, Colour.RED) >= 3 else -0.6
        size = self.sizes[span]
        if command.leader in self.placed:
            return 0.05 + size / 1000  # shuffling leaders about rarely pays
        return 0.8 + size / 100


def _support_value(state: State, seat: int, n: int) -> float:
    conflict = state.conflict
    assert conflict is not None
    if seat == conflict.attacker:
        lead = conflict.attacker_base + n - conflict.defender_base
        return (1.0 if lead > 1 else 0.0) - n * 0.1
    lead = conflict.defender_base + n - conflict.attacker_base - (conflict.attacker_cards or 0)
    return (1.0 if lead >= 0 else 0.0) - n * 0.1
