"""Victory points and the win check (only the active seat, only on its turn)
(docs/rules/catan.md §14)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from shared.games.catan import events as ev
from shared.games.catan.memo import last_by_identity
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State
from shared.kernel.contract import Result, Standing

NO_METROPOLIS = (-1, -1, -1)


# Asked at every command (the win check), a pure function of the buildings, which change a few dozen
# times a game: the last answer by identity, else remembered per tuple.
@last_by_identity
@lru_cache(maxsize=256)
def _building_points_by_seat(owner: tuple[int, ...], level: tuple[int, ...]) -> Mapping[int, int]:
    """Each owning seat's building points (read-only: the mapping is shared)."""
    pts: dict[int, int] = {}
    for o, lv in zip(owner, level, strict=True):
        if o >= 0:
            pts[o] = pts.get(o, 0) + (2 if lv == 2 else 1)
    return pts


def public_points(state: State, seat: int) -> int:
    p = state.players[seat]
    # A point per settlement or city, and a second per city.
    pts = _building_points_by_seat(state.owner, state.level).get(seat, 0)
    if state.metropolis != NO_METROPOLIS:
        pts += 2 * sum(1 for spot in state.metropolis if spot >= 0 and state.owner[spot] == seat)
    pts += 2 * (state.longest == seat) + 2 * (state.largest_army == seat)
    pts += p.vp_cards + p.defender + (state.merchant_owner == seat)
    return pts


def points(state: State, seat: int) -> int:
    """Including hidden base-game Victory Point cards."""
    # Only the base game deals "victory_point" cards (no progress card bears the name), so the count
    # needs no edition check.
    return public_points(state, seat) + state.players[seat].cards.count("victory_point")


def all_points(state: State) -> tuple[int, ...]:
    return tuple(points(state, s) for s in range(state.seats))


def check_win(f: CatanFold) -> None:
    s = f.state
    if s.phase in ("roll", "main") and points(s, s.active) >= s.options.target:
        f.emit(ev.GameWon(seat=s.active, points=all_points(s)))


def result(state: State) -> Result | None:
    if state.phase != "over":
        return None
    pts = all_points(state)

    def key(seat: int) -> tuple[int, int]:
        return (seat == state.winner, pts[seat])

    ranked = sorted(range(state.seats), key=key, reverse=True)
    standings = tuple(
        Standing(
            seat=s,
            place=1 + sum(key(o) > key(s) for o in range(state.seats)),
            score=pts[s],
            tiebreak=(int(s == state.winner),),
        )
        for s in ranked
    )
    return Result(standings=standings, reason="victory_points")
