"""Each shortcut of the engine's hot paths answers as the plain definition it replaces.

The board masks are remembered per immutable tuple and a placed tile's masks are
derived from the state before (``bitboard.retiled``): checked against a scan of a
fresh copy of every state of whole games. The random bot picks from the acting
seat's list without building it (``legal.pick_action``): checked against
``rng.choice(legal(...))`` with the same generator. The decision whether a pass
is the only action (``legal.only_pass``) against the full list.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_, is_not

import msgspec

from shared.games.tigris import GAME
from shared.games.tigris.bitboard import (
    BLOCK,
    Masks,
    from_flags,
    mask,
    red_of,
    squares_mask,
    tiles_of,
)
from shared.games.tigris.board import SQUARES
from shared.games.tigris.bots import random_bot
from shared.games.tigris.commands import Pass
from shared.games.tigris.legal import _listed, actions, only_pass, pick_action
from shared.games.tigris.state import Acting, State
from shared.games.tigris_common.colours import Colour
from shared.kernel.rng import Rng
from tests.games.tigris.positions import CASES, playout, states

_CASES = CASES[::2]


def _fresh(state: State) -> State:
    """An equal state sharing no tuple with ``state`` (nothing remembered about it)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=State)


def _plain_masks(state: State) -> tuple[int, int, int, int, int, int]:
    tiles = from_flags(bytes(map(is_not, state.tiles, repeat(None))))
    red = from_flags(bytes(map(is_, state.tiles, repeat(Colour.RED))))
    pieces = mask(sq for row in state.leaders for sq in row if sq is not None)
    down = 0
    for built in state.monuments:
        down |= BLOCK[built.top_left]
    return tiles, red, pieces, mask(state.catastrophes), down, mask(state.treasures)


def _masks(state: State) -> tuple[int, int, int, int, int, int]:
    board = Masks(state)
    assert board.occupied == board.tiles | board.pieces
    treasures = squares_mask(state.treasures)
    return tiles_of(state), red_of(state), board.pieces, board.catastrophes, board.down, treasures


def test_remembered_and_derived_masks_equal_a_scan() -> None:
    for case in _CASES:
        p = playout(case)
        state = None
        # Folded event by event, as the reducer does: every tile tuple after the first
        # gets its masks from ``retiled``, never from a scan.
        for event in p.events:
            state = GAME.evolve(state, event)
            assert _masks(state) == _plain_masks(state)
        assert state is not None
        assert _masks(_fresh(state)) == _plain_masks(state)


def test_the_random_bot_picks_what_a_choice_from_the_list_picks() -> None:
    for case in _CASES:
        for version, state in states(playout(case)):
            for seat in sorted(GAME.actors(state)):
                listed = GAME.legal(state, seat)
                expected = Rng(b"\x03" * 32, version).choice(listed)
                assert random_bot(state, seat, Rng(b"\x03" * 32, version)) == expected
                if isinstance(state.phase, Acting):
                    rng = Rng(b"\x05" * 32, version)
                    assert pick_action(state, seat, rng) == Rng(b"\x05" * 32, version).choice(listed)


def test_every_index_of_the_list_is_picked_as_listed() -> None:
    """``pick_action`` at each index (a generator that answers it) gives that entry."""
    _, state = states(playout(_CASES[0]))[40]
    assert isinstance(state.phase, Acting)
    listed = actions(state, state.active)

    class Fixed(Rng):
        def __init__(self, index: int) -> None:
            super().__init__(bytes(32), 0)
            self.index = index

        def below(self, n: int) -> int:
            assert n == len(listed)
            return self.index

    assert [pick_action(state, state.active, Fixed(i)) for i in range(len(listed))] == listed


def test_only_pass_is_said_exactly_when_nothing_else_is_listed() -> None:
    for case in _CASES:
        for _, state in states(playout(case))[::5]:
            if isinstance(state.phase, Acting):
                seat = state.active
                assert only_pass(state, seat) == all(isinstance(c, Pass) for c in actions(state, seat))


def test_listed_walks_sparse_and_dense_masks_alike() -> None:
    table = tuple(Pass() for _ in range(SQUARES))  # distinct objects: compared by identity below
    for m in (0, 1, 1 << (SQUARES - 1), mask(range(0, SQUARES, 13)), mask(range(0, SQUARES, 2))):
        listed = _listed(table, m)
        plain = compress(table, (m >> sq & 1 for sq in range(SQUARES)))
        assert [id(c) for c in listed] == [id(c) for c in plain]
