"""The rules' entry point: dispatch on (phase, command), then let ``rules`` emit."""

from __future__ import annotations

from shared.games.tigris import events as ev
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
from shared.games.tigris.legal import actions, actors
from shared.games.tigris.rules import catastrophes, monuments, placement, support, treasures, wars
from shared.games.tigris.rules.flow import Emitter
from shared.games.tigris.rules.kingdoms import LocalKingdoms
from shared.games.tigris.rules.problems import check, fail
from shared.games.tigris.state import (
    Acting,
    ChooseMonument,
    ChooseTreasures,
    ChooseWar,
    MonumentOption,
    Over,
    State,
    Support,
)
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE
from shared.kernel.rng import Rng


def decide(state: State, seat: int, command: TigrisCommand, rng: Rng) -> list[ev.TigrisEvent]:
    # The bag order was drawn at setup, so no rule here needs ``rng``.
    if isinstance(state.phase, Over):
        fail(GAME_OVER)
    if seat not in actors(state):
        fail(NOT_YOUR_TURN, seat=seat)
    em = Emitter(state)
    if isinstance(state.phase, Acting):
        _act(em, seat, command)
    else:
        _answer(em, seat, command)
    return em.events


def _act(em: Emitter, seat: int, command: TigrisCommand) -> None:
    s = em.state
    match command:
        case PositionLeader(leader=leader, square=sq):
            index = INDEX[leader.colour]
            regions = placement.judged_regions(s, seat, index)
            check(placement.leader_problem(s, regions, seat, index, sq), square=sq)
            placement.position_leader(em, seat, index, sq)
        case WithdrawLeader(leader=leader):
            index = INDEX[leader.colour]
            if s.leaders[seat][index] is None:
                fail("leader_not_on_board", leader=leader)
            placement.withdraw_leader(em, seat, index)
        case PlaceTile(colour=colour, square=sq):
            regions = LocalKingdoms(s)
            check(placement.tile_problem(s, regions, seat, colour, sq), square=sq)
            placement.place_tile(em, regions, seat, colour, sq)
        case PlaceCatastrophe(square=sq):
            check(catastrophes.catastrophe_problem(s, seat, sq), square=sq)
            catastrophes.place_catastrophe(em, seat, sq)
        case SwapTiles(red=red, blue=blue, green=green, black=black):
            counts = (red, blue, green, black)
            check(catastrophes.swap_problem(s, seat, counts))
            catastrophes.swap(em, seat, counts)
        case Pass():
            if not s.options.allow_pass and any(not isinstance(c, Pass) for c in actions(s, seat)):
                fail("pass_not_allowed")
            catastrophes.pass_action(em, seat)
        case _:
            fail(WRONG_PHASE, command=type(command).__name__)


def _answer(em: Emitter, seat: int, command: TigrisCommand) -> None:
    s = em.state
    match s.phase, command:
        case Support() as phase, CommitSupport(count=count):
            check(support.support_problem(s, phase, seat, count), count=count)
            support.commit(em, phase, seat, count)
        case ChooseWar(colours=colours), ChooseWarColour(colour=colour):
            if colour not in colours:
                fail("not_a_pending_war", colour=colour)
            wars.start(em, colour)
        case ChooseMonument(options=options), BuildMonument(top_left=tl, monument=monument):
            option = MonumentOption(top_left=tl, monument=monument)
            if option not in options:
                fail("not_a_monument_option", top_left=tl, monument=monument)
            monuments.build(em, option)
        case ChooseMonument() as phase, DeclineMonument():
            monuments.decline(em, phase)
        case ChooseTreasures() as phase, TakeTreasures(squares=squares):
            if tuple(squares) not in treasures.choices(phase.candidates, phase.count):
                fail("bad_treasures", squares=squares)
            treasures.take(em, phase, tuple(squares))
        case _:
            fail(WRONG_PHASE, command=type(command).__name__)
