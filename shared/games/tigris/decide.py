"""The rules' entry point: dispatch on the command, then let ``rules`` emit.

An action command performs its main effect, an answer applies the decision a
seat was asked for; either says where the walk through the rest of the
action and the turn goes on (``rules.flow``), or ``None`` while a seat's
answer is awaited.
"""

from __future__ import annotations

from typing import TypeVar, assert_never

from shared.games.tigris import events as ev
from shared.games.tigris import rejections as rj
from shared.games.tigris.board import INDEX
from shared.games.tigris.commands import (
    BuildMonument,
    ChooseWarColour,
    CommitSupport,
    DeclineMonument,
    Pass,
    PlaceCatastrophe,
    PlaceTile,
    PositionLeader,
    SwapTiles,
    TakeTreasures,
    TigrisCommand,
    WithdrawLeader,
)
from shared.games.tigris.evolve import evolve
from shared.games.tigris.legal import actors, only_pass
from shared.games.tigris.rejections import check, fail
from shared.games.tigris.rules import catastrophes, flow, monuments, placement, support, treasures, wars
from shared.games.tigris.rules.kingdoms import LocalKingdoms
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import (
    Acting,
    AnyPhase,
    ChooseMonument,
    ChooseTreasures,
    ChooseWar,
    MonumentOption,
    Over,
    Stage,
    State,
    Support,
)
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE
from shared.kernel.rng import Rng

Action = PositionLeader | WithdrawLeader | PlaceTile | PlaceCatastrophe | SwapTiles | Pass
Answer = CommitSupport | ChooseWarColour | BuildMonument | DeclineMonument | TakeTreasures
P = TypeVar("P", bound=AnyPhase)


def decide(state: State, seat: int, command: TigrisCommand, rng: Rng) -> list[ev.TigrisEvent]:
    # The bag order was drawn at setup, so no rule here draws from ``rng``.
    if isinstance(state.phase, Over):
        fail(GAME_OVER)
    if seat not in actors(state):
        fail(NOT_YOUR_TURN, seat=seat)
    play = Play(state, evolve, rng)
    match command:
        case PositionLeader() | WithdrawLeader() | PlaceTile() | PlaceCatastrophe() | SwapTiles() | Pass():
            _awaiting(state.phase, Acting, command)
            going_on = _act(play, seat, command)
        case CommitSupport() | ChooseWarColour() | BuildMonument() | DeclineMonument() | TakeTreasures():
            going_on = _answer(play, seat, command)
        case _:
            assert_never(command)
    if going_on is not None:
        flow.resume(play, going_on)
    return play.events


def _awaiting(phase: AnyPhase, kind: type[P], command: TigrisCommand) -> P:
    """The phase, if it is the decision ``command`` answers."""
    if not isinstance(phase, kind):
        fail(WRONG_PHASE, command=type(command).__name__)
    return phase


def _act(play: Play, seat: int, command: Action) -> Stage | None:
    s = play.state
    match command:
        case PositionLeader(leader=leader, square=sq):
            index = INDEX[leader.colour]
            regions = placement.judged_regions(s, seat, index)
            check(placement.leader_problem(s, regions, seat, index, sq), square=sq)
            return placement.position_leader(play, seat, index, sq)
        case WithdrawLeader(leader=leader):
            index = INDEX[leader.colour]
            if s.leaders[seat][index] is None:
                fail(rj.LEADER_NOT_ON_BOARD, leader=leader)
            return placement.withdraw_leader(play, seat, index)
        case PlaceTile(colour=colour, square=sq):
            kingdoms = LocalKingdoms(s)
            check(placement.tile_problem(s, kingdoms, seat, colour, sq), square=sq)
            return placement.place_tile(play, kingdoms, seat, colour, sq)
        case PlaceCatastrophe(square=sq):
            check(catastrophes.catastrophe_problem(s, seat, sq), square=sq)
            return catastrophes.place_catastrophe(play, seat, sq)
        case SwapTiles(red=red, blue=blue, green=green, black=black):
            counts = (red, blue, green, black)
            check(catastrophes.swap_problem(s, seat, counts))
            return catastrophes.swap(play, seat, counts)
        case Pass():
            if not s.options.allow_pass and not only_pass(s, seat):
                fail(rj.PASS_NOT_ALLOWED)
            return catastrophes.pass_action(play, seat)
        case _:
            assert_never(command)


def _answer(play: Play, seat: int, command: Answer) -> Stage | None:
    s = play.state
    match command:
        case CommitSupport(count=count):
            conflict = _awaiting(s.phase, Support, command)
            check(support.support_problem(s, conflict, seat, count), count=count)
            return support.commit(play, conflict, seat, count)
        case ChooseWarColour(colour=colour):
            if colour not in _awaiting(s.phase, ChooseWar, command).colours:
                fail(rj.NOT_A_PENDING_WAR, colour=colour)
            wars.start(play, colour)
            return None  # the attacker commits support next
        case BuildMonument(top_left=tl, monument=monument):
            option = MonumentOption(top_left=tl, monument=monument)
            if option not in _awaiting(s.phase, ChooseMonument, command).options:
                fail(rj.NOT_A_MONUMENT_OPTION, top_left=tl, monument=monument)
            return monuments.build(play, option)
        case DeclineMonument():
            return monuments.decline(play, _awaiting(s.phase, ChooseMonument, command))
        case TakeTreasures(squares=squares):
            offer = _awaiting(s.phase, ChooseTreasures, command)
            if tuple(squares) not in treasures.choices(offer.candidates, offer.count):
                fail(rj.BAD_TREASURES, squares=squares)
            return treasures.take(play, offer, tuple(squares))
        case _:
            assert_never(command)
