"""Bots: uniform random over the legal commands (``easy``), and a one-ply greedy
player (``medium``); ``hard`` searches (:mod:`shared.kernel.search`).

Both look only at what their seat may see: the board, the flow of play and
their own hand and points. The greedy bot rates each command by the seat's
weakest-colour strength right after it (tile points it earns at once), then
by a small positional preference that gets leaders out where they will score.
"""

from __future__ import annotations

from typing import assert_never

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
from shared.games.tigris.evolve import added
from shared.games.tigris.legal import legal, pick_action
from shared.games.tigris.rules import placement
from shared.games.tigris.rules.kingdoms import Regions, adjacent_temples
from shared.games.tigris.state import Acting, Counts, State, Support
from shared.games.tigris_common.colours import COLOURS, Colour
from shared.games.tigris_common.scoring import strength
from shared.kernel.rng import Rng


def random_bot(state: State, seat: int, rng: Rng) -> TigrisCommand:
    if isinstance(state.phase, Acting) and seat == state.active:
        return pick_action(state, seat, rng)  # the same draw, without the list of ~330
    return rng.choice(legal(state, seat))


def _strength(points: Counts, treasures: int) -> tuple[int, ...]:
    return strength(dict(zip(COLOURS, points, strict=True)), treasures)


def standing(state: State) -> tuple[float, ...]:
    """Every seat's strength as one number (weakest colour first, the rest
    breaking ties), for the search bot's unfinished rollouts."""
    return tuple(
        sum(v / 100**k for k, v in enumerate(_strength(points, treasures)))
        for points, treasures in zip(state.points, state.treasures_won, strict=True)
    )


_IDLE = -5.0


class _Rater:
    """Rates commands for one seat from public facts plus its own hand and points."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.regions = Regions(state)
        self.down = self.regions.down
        self.points = state.points[seat]
        self.treasures = state.treasures_won[seat]
        self._memo: dict[Counts, tuple[int, ...]] = {}

    def rate(self, command: TigrisCommand) -> tuple[tuple[int, ...], float]:
        points, bonus = self.points, 0.0
        match command:
            case PlaceTile(colour=colour, square=sq):
                points, bonus = self._tile(colour, sq)
            case PositionLeader(leader=leader, square=sq):
                bonus = self._leader(INDEX[leader.colour], sq)
            case WithdrawLeader():
                bonus = -3.0
            case PlaceCatastrophe():
                bonus = -2.0
            case SwapTiles():
                drawn = command.red + command.blue + command.green + command.black
                bonus = -0.5 - 0.1 * drawn if drawn else _IDLE
            case Pass():
                # Last resort: bots that all pass would never finish a game.
                bonus = _IDLE
            case BuildMonument():
                bonus = 1.0
            case TakeTreasures():
                bonus = 0.0
            case CommitSupport() | ChooseWarColour() | DeclineMonument():
                pass  # every choice rates the same: the seat's strength as it stands
            case _:
                assert_never(command)
        if points not in self._memo:
            self._memo[points] = _strength(points, self.treasures)
        return self._memo[points], bonus

    def _tile(self, colour: Colour, sq: int) -> tuple[Counts, float]:
        kingdoms = self.regions.adjacent_kingdoms(sq)
        if len(kingdoms) == 2:
            return self.points, -1.5  # wars are a gamble one ply cannot see through
        if len(kingdoms) == 1:
            scorer = placement.tile_scorer(self.regions, next(iter(kingdoms)), colour)
            if scorer == self.seat:
                return added(self.points, colour, 1), 0.5
            return self.points, -0.3 if scorer is not None else 0.2
        # A lone tile: a temple may later host a leader.
        return self.points, 0.1 if colour is Colour.RED else -0.2

    def _leader(self, index: int, sq: int) -> float:
        s = self.state
        kingdoms = self.regions.adjacent_kingdoms(sq)
        rival = any(self.regions.leader_of(k, index) not in (None, self.seat) for k in kingdoms)
        if rival:
            return -1.0
        moving = s.leaders[self.seat][index] is not None
        weakest = sorted(range(4), key=lambda i: self.points[i]).index(index)
        temples = adjacent_temples(s, sq, self.down)
        size = sum(len(self.regions.members[k]) for k in kingdoms)
        return (-1.2 if moving else 1.0) + 0.1 * temples + 0.02 * min(size, 10) + 0.05 * (3 - weakest)


def _support(state: State, seat: int, phase: Support) -> CommitSupport:
    """Commit everything when it can win (or, defending, hold the tie), else nothing."""
    options = legal(state, seat)
    counts = [c.count for c in options if isinstance(c, CommitSupport)]
    if phase.attacker_commit is None:
        best = max(counts)
        return CommitSupport(count=best if phase.attacker_base + best > phase.defender_base else 0)
    needed = phase.attacker_base + phase.attacker_commit - phase.defender_base
    fitting = [c for c in counts if c >= needed]
    return CommitSupport(count=min(fitting) if fitting else 0)


def greedy_bot(state: State, seat: int, rng: Rng) -> TigrisCommand:
    if isinstance(state.phase, Support):
        return _support(state, seat, state.phase)
    options = legal(state, seat)
    rater = _Rater(state, seat)
    rated = [(rater.rate(c), c) for c in options]
    best = max(r for r, _ in rated)
    return rng.choice([c for r, c in rated if r == best])


#: Commands a rollout's greedy move chooses among: rating all ~300-560 costs ~1.2 ms
#: a move, a tenth of a search's budget; a sample keeps most of the greedy play.
ROLLOUT_SAMPLE = 12


def rollout_bot(state: State, seat: int, rng: Rng) -> TigrisCommand:
    """The greedy bot's choice among a random sample of the legal commands: the
    search's rollouts, about as cheap a move as the random bot's and playing for points."""
    if isinstance(state.phase, Support):
        return _support(state, seat, state.phase)
    options = legal(state, seat)
    if len(options) > ROLLOUT_SAMPLE:
        options = [options[rng.below(len(options))] for _ in range(ROLLOUT_SAMPLE)]
    rater = _Rater(state, seat)
    return max(options, key=rater.rate)


def rating(state: State, seat: int, commands: list[TigrisCommand]) -> list[tuple[tuple[int, ...], float]]:
    """The greedy bot's rating of each of ``commands``: the search's bias. In a
    conflict's support the greedy bot's own choice is rated first."""
    if isinstance(state.phase, Support):
        chosen = _support(state, seat, state.phase)
        return [((int(c == chosen),), 0.0) for c in commands]
    rater = _Rater(state, seat)
    return [rater.rate(c) for c in commands]
