"""The barbarian ship, the attack, pillage of the weakest, Defender of Catan, tied
defenders' draws (docs/rules/catan.md §10)."""

from __future__ import annotations

from shared.games.catan import events as ev
from shared.games.catan.rules.building import SETTLEMENTS, settlements_built
from shared.games.catan.rules.flow import CatanFold, clockwise, open_task
from shared.games.catan.rules.progress import draws
from shared.games.catan.state import State


def strength(state: State) -> int:
    """Barbarians: every city on the board (a metropolis is a city; tipped cities are not)."""
    return sum(1 for lvl in state.level if lvl == 2)


def contributions(state: State, fighters: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Active knights' strength per seat (only ``fighters`` in the "meanies" variant)."""
    out = [0] * state.seats
    for k in state.knights:
        if k.active and (fighters is None or k.spot in fighters):
            out[k.owner] += k.strength
    return tuple(out)


def active_knights(state: State, seat: int) -> list[int]:
    return [k.spot for k in state.knights if k.owner == seat and k.active]


def pillageable(state: State, seat: int) -> list[int]:
    return [
        s for s, lvl in enumerate(state.level)
        if lvl == 2 and state.owner[s] == seat and s not in state.metropolis
    ]  # fmt: skip


def advance_ship(f: CatanFold) -> None:
    position = f.state.barbarian + 1
    f.emit(ev.BarbarianMoved(position=position))
    if position < f.state.options.barbarian_track:
        return
    mustering = tuple(seat for seat in range(f.state.seats) if active_knights(f.state, seat))
    if f.state.options.meanies_variant and mustering:
        open_task(f, "muster", mustering)
    else:
        attack(f)


def muster_choices(state: State, seat: int) -> list[int]:
    """Bit i set: the seat's i-th active knight (by spot) fights."""
    return list(range(1 << len(active_knights(state, seat))))


def mustered(state: State, answers: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    spots: list[int] = []
    for seat, mask in answers:
        spots += [spot for i, spot in enumerate(active_knights(state, seat)) if mask >> i & 1]
    return tuple(sorted(spots))


def attack(f: CatanFold, fighters: tuple[int, ...] | None = None) -> None:
    s = f.state
    barbs, contrib = strength(s), contributions(s, fighters)
    knights = sum(contrib)
    f.emit(ev.BarbariansAttacked(barbarians=barbs, knights=knights, contributions=contrib, fighters=fighters))
    if barbs > knights:
        _pillage(f, contrib)
    else:
        _reward(f, contrib)


def _pillage(f: CatanFold, contrib: tuple[int, ...]) -> None:
    s = f.state
    candidates = [seat for seat in range(s.seats) if pillageable(s, seat)]
    if not candidates:
        return
    low = min(contrib[c] for c in candidates)
    losers = tuple(c for c in clockwise(s, s.active) if c in candidates and contrib[c] == low)
    choosing = tuple(c for c in losers if len(pillageable(s, c)) > 1)
    for c in losers:
        if c not in choosing:
            pillage(f, c, pillageable(f.state, c)[0])
    if choosing:
        open_task(f, "pillage", choosing)


def pillage(f: CatanFold, seat: int, spot: int) -> None:
    tipped = settlements_built(f.state, seat) >= SETTLEMENTS
    f.emit(ev.CityPillaged(seat=seat, spot=spot, tipped=tipped))


def _reward(f: CatanFold, contrib: tuple[int, ...]) -> None:
    s = f.state
    top = max(contrib)
    best = [seat for seat in clockwise(s, s.active) if contrib[seat] == top]
    if len(best) == 1:
        f.emit(ev.DefenderAwarded(seat=best[0]))
        return
    if top == 0 and s.options.zero_strength_defense_reward == "none":
        return
    defender_draws(f, tuple(best))


def defender_draws(f: CatanFold, seats: tuple[int, ...]) -> None:
    """Tied defenders draw one at a time, clockwise from the roller, each choosing among
    the decks that hold cards when its turn to draw comes: a draw never finds its deck
    emptied by an earlier one. With one deck left there is nothing to choose."""
    for i, seat in enumerate(seats):
        decks = deck_choices(f.state)
        if not decks:
            return
        if len(decks) > 1:
            open_task(f, "defender_draw", (seat,), data=seats[i + 1 :])
            return
        draws.draw(f, seat, decks[0])


def deck_choices(state: State) -> list[int]:
    return [t for t in range(3) if state.decks[t]]
