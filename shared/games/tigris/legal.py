"""Who is awaited, and every command a seat may issue now.

``legal`` lists exactly the commands ``decide`` accepts (the tests check it
both ways and against a slow reference that asks ``decide``'s predicates
square by square). In the acting phase it answers the same questions as
``placement.leader_problem``, ``placement.tile_problem`` and
``catastrophes.catastrophe_problem`` for the whole board at once, on bit
masks: kingdoms are flooded from the leaders only (leaderless regions never
matter here), and a square's kingdom count is read off rings around them.
"""

from __future__ import annotations

from functools import cache
from itertools import compress, islice, product
from typing import assert_never

from shared.games.tigris.bitboard import (
    BIT,
    BOARD,
    RIVER_MASK,
    Masks,
    flags,
    red_of,
    regions_of,
    spread,
    squares_mask,
)
from shared.games.tigris.board import SQUARES
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
from shared.games.tigris.rules import support, treasures
from shared.games.tigris.state import (
    Acting,
    ChooseMonument,
    ChooseTreasures,
    ChooseWar,
    Over,
    State,
    Support,
)
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour
from shared.kernel.legal_groups import LegalGroup, one_each, runs, without
from shared.kernel.rng import Rng

# Commands are frozen, so one instance per (piece, square) serves every call.
_POSITION: tuple[tuple[PositionLeader, ...], ...] = tuple(
    tuple(PositionLeader(leader=leader, square=sq) for sq in range(SQUARES)) for leader in LEADERS
)
# One-entry tables, so that a withdrawal is a part like any other.
_WITHDRAW: tuple[tuple[WithdrawLeader], ...] = tuple((WithdrawLeader(leader=leader),) for leader in LEADERS)
_PLACE: tuple[tuple[PlaceTile, ...], ...] = tuple(
    tuple(PlaceTile(colour=colour, square=sq) for sq in range(SQUARES)) for colour in COLOURS
)
_CATASTROPHE: tuple[PlaceCatastrophe, ...] = tuple(PlaceCatastrophe(square=sq) for sq in range(SQUARES))
_BLUE = COLOURS.index(Colour.BLUE)
#: Up to this many squares, walking a mask's bits beats flagging every square.
_SPARSE = 12


def actors(state: State) -> frozenset[int]:
    phase = state.phase
    if isinstance(phase, Over):
        return frozenset()
    if isinstance(phase, Support):
        return frozenset((support.awaited(phase),))
    if isinstance(phase, ChooseTreasures):
        return frozenset((phase.seat,))
    return frozenset((state.active,))


def legal(state: State, seat: int) -> list[TigrisCommand]:
    if seat not in actors(state):
        return []
    phase = state.phase
    match phase:
        case Acting():
            return actions(state, seat)
        case Support():
            return [CommitSupport(count=c) for c in support.support_range(state, phase, seat)]
        case ChooseWar():
            return [ChooseWarColour(colour=c) for c in phase.colours]
        case ChooseMonument():
            built: list[TigrisCommand] = [
                BuildMonument(top_left=o.top_left, monument=o.monument) for o in phase.options
            ]
            return [*built, DeclineMonument()]
        case ChooseTreasures():
            picks = treasures.choices(phase.candidates, phase.count)
            return [TakeTreasures(squares=p) for p in picks]
        case Over():
            return []  # no seat acts: ``actors`` is empty
        case _:
            assert_never(phase)


def legal_groups(state: State, seat: int) -> list[LegalGroup]:
    """``legal`` in the view document's compact form. Acting, straight from the
    parts: a table over squares is one group over ``square`` (its command
    without the square, encoded once at import), and the swaps of a hand are
    grouped once per hand; the other phases list a handful of commands."""
    if seat not in actors(state):
        return []
    if not isinstance(state.phase, Acting):
        return one_each(legal(state, seat))
    out: list[LegalGroup] = []
    for table, m in action_parts(state, seat):
        if m is None:
            out += _groups_of(table)
        elif m:
            out.append(_square_group(table, m))
    return out


#: Part of the acting seat's list: ``table``'s entries at the squares of ``m``, in
#: square order, or (``m`` is ``None``) every entry of ``table``.
Part = tuple[tuple[TigrisCommand, ...], int | None]
_PASS: tuple[TigrisCommand, ...] = (Pass(),)
_SQUARES = range(SQUARES)


def actions(state: State, seat: int) -> list[TigrisCommand]:
    out: list[TigrisCommand] = []
    for table, m in action_parts(state, seat):
        out += table if m is None else _listed(table, m)
    return out


#: Each table over squares (by identity: the tables live as long as the module)
#: -> its command without the square, as JSON.
_WITHOUT_SQUARE = {id(table): without(table[0], "square") for table in (*_POSITION, *_PLACE, _CATASTROPHE)}


#: The groups over squares met lately, by (table, squares): a table's mask rarely
#: changes from one version of a game to the next (a leader's squares until a tile
#: lands near it, the catastrophe squares...), and the view document is built anew
#: at every version. The tables live as long as the module, so their ids stay theirs.
_SQUARE_GROUPS: dict[tuple[int, int], LegalGroup] = {}
#: Enough for the groups of the games a projector serves at once (a few dozen each,
#: a few KB at most each); past it the memo starts over rather than grow.
_SQUARE_GROUPS_SIZE = 4096


def _square_group(table: tuple[TigrisCommand, ...], m: int) -> LegalGroup:
    key = (id(table), m)
    group = _SQUARE_GROUPS.get(key)
    if group is None:
        if len(_SQUARE_GROUPS) >= _SQUARE_GROUPS_SIZE:
            _SQUARE_GROUPS.clear()
        group = _SQUARE_GROUPS[key] = LegalGroup(
            command=_WITHOUT_SQUARE[id(table)], each="square", values=_squares(m)
        )
    return group


def _squares(m: int) -> tuple[int, ...]:
    """``m``'s squares in ascending order."""
    if m.bit_count() > _SPARSE:
        return tuple(compress(_SQUARES, flags(m)))
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return tuple(out)


#: Tables listed whole, by identity (the entry holds its table, so the id is not
#: reused) -> their groups. They are few: a withdrawal, the pass, the swaps of
#: each possible hand (``_swaps`` keeps those tables).
_GROUPS: dict[int, tuple[tuple[TigrisCommand, ...], list[LegalGroup]]] = {}


def _groups_of(table: tuple[TigrisCommand, ...]) -> list[LegalGroup]:
    hit = _GROUPS.get(id(table))
    if hit is None:
        hit = _GROUPS[id(table)] = (table, runs(table))
    return hit[1]


def pick_action(state: State, seat: int, rng: Rng) -> TigrisCommand:
    """``rng.choice(actions(state, seat))``, drawing the same number, without listing:
    the random bot's only need of the list is its length and one entry."""
    parts = action_parts(state, seat)
    sizes = [len(table) if m is None else m.bit_count() for table, m in parts]
    i = rng.below(sum(sizes))
    for (table, m), size in zip(parts, sizes, strict=True):
        if i < size:
            return table[i] if m is None else table[next(islice(compress(_SQUARES, flags(m)), i, None))]
        i -= size
    raise AssertionError("an index below the count of the parts")


def only_pass(state: State, seat: int) -> bool:
    """Whether the acting seat's only legal action would be a pass (passing barred)."""
    return all((not table) if m is None else not m for table, m in _moves(state, seat))


def action_parts(state: State, seat: int) -> list[Part]:
    parts = _moves(state, seat)
    if state.options.allow_pass or all((not table) if m is None else not m for table, m in parts):
        parts.append((_PASS, None))
    return parts


def _moves(state: State, seat: int) -> list[Part]:
    """Every action but the pass, in the listed order."""
    board = Masks(state)
    # Only regions holding a leader matter here, so only those are flooded.
    kingdoms = regions_of(board.pieces, board.occupied)
    rings = [spread(k) for k in kingdoms]
    two, three = _overlaps(rings)
    parts = leader_actions(state, seat, board, kingdoms, rings, two)
    parts += tile_actions(state, seat, board, three)
    if state.catastrophes_left[seat]:
        parts.append((_CATASTROPHE, catastrophe_squares(state, board)))
    parts.append((swap_actions(state, seat), None))
    return parts


def _overlaps(rings: list[int]) -> tuple[int, int]:
    """Squares next to at least two, and at least three, different kingdoms
    (``rings`` holds the squares next to each)."""
    one = two = three = 0
    for ring in rings:
        three |= two & ring
        two |= one & ring
        one |= ring
    return two, three


def leader_actions(
    state: State, seat: int, board: Masks, kingdoms: list[int], rings: list[int], two: int
) -> list[Part]:
    """``placement.leader_problem`` for every leader of ``seat`` and every square:
    empty land next to a face-up temple, touching at most one kingdom."""
    temples = red_of(state) & ~board.down
    near = spread(temples) & ~board.tiles & ~board.catastrophes & ~RIVER_MASK
    stay = state.options.allow_move_in_place
    lift = state.options.judge_move_with_leader_lifted
    out: list[Part] = []
    for index, current in enumerate(state.leaders[seat]):
        if current is None:
            free = near & ~board.pieces & ~two
        else:
            bit = BIT[current]
            if lift:
                pieces = board.pieces & ~bit
                free = near & ~pieces & ~_lifted_two(kingdoms, rings, pieces, bit)
            else:
                free = near & ~board.pieces & ~two
            if not stay:
                free &= ~bit
        out.append((_POSITION[index], free))
        if current is not None:
            out.append((_WITHDRAW[index], None))
    return out


def _listed(table: tuple[TigrisCommand, ...], m: int) -> list[TigrisCommand]:
    """``table``'s entries at ``m``'s squares, in square order."""
    if m.bit_count() > _SPARSE:
        return list(compress(table, flags(m)))
    return [table[sq] for sq in _squares(m)]


def _lifted_two(kingdoms: list[int], rings: list[int], pieces: int, bit: int) -> int:
    """Squares next to two kingdoms once the leader on ``bit`` is lifted: only its
    own kingdom changes, falling apart into what the other leaders there hold."""
    left: list[int] = []
    for kingdom, ring in zip(kingdoms, rings, strict=True):
        if kingdom & bit:
            rest = kingdom & ~bit
            left += map(spread, regions_of(rest & pieces, rest))
        else:
            left.append(ring)
    return _overlaps(left)[0]


def tile_actions(state: State, seat: int, board: Masks, three: int) -> list[Part]:
    """``placement.tile_problem`` for every colour in hand and every square: empty,
    river for farms only, touching at most two kingdoms."""
    fits = BOARD & ~board.occupied & ~board.catastrophes & ~three
    return [
        (_PLACE[index], fits & RIVER_MASK if index == _BLUE else fits & ~RIVER_MASK)
        for index, held in enumerate(state.hands[seat])
        if held
    ]


def catastrophe_squares(state: State, board: Masks) -> int:
    """``catastrophes.catastrophe_problem``: anywhere but on a leader, a catastrophe,
    a monument or a treasure."""
    blocked = board.pieces | board.catastrophes | board.down | squares_mask(state.treasures)
    return BOARD & ~blocked


def swap_actions(state: State, seat: int) -> tuple[SwapTiles, ...]:
    """``catastrophes.swap_problem`` over every split of the hand, in ``product`` order."""
    opts = state.options
    return _swaps(state.hands[seat], opts.allow_pass and opts.empty_swap_is_pass)


@cache
def _swaps(held: tuple[int, ...], empty_ok: bool) -> tuple[SwapTiles, ...]:
    # Few hands exist (at most six tiles in four colours), so the cache stays small.
    return tuple(
        SwapTiles(red=red, blue=blue, green=green, black=black)
        for red, blue, green, black in product(*(range(h + 1) for h in held))
        if empty_ok or red + blue + green + black
    )
