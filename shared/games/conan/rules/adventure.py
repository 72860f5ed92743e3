"""Conan and adventures (docs/rules/conan.md §9): the free move, adventure
tokens, the end of an adventure, and the coronation window of Age III (§10)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules.bidding import start_bidding
from shared.games.conan.rules.board import ConanFold, active_seats, home_owner, supply_left
from shared.games.conan.state import NEUTRAL, AdventureEnd, Coronation, State, TokenChoice, Turn


def conan_moves(pack: Pack, state: State) -> list[str]:
    return [
        n
        for n in pack.neighbours(state.conan_at)
        if state.options.conan_enters_out_of_play or n in _playable(pack, state)
    ]


def _playable(pack: Pack, state: State) -> set[str]:
    return {p.id for p in pack.provinces if p.zone in state.zones}


def move_conan(fold: ConanFold, seat: int, to: str | None) -> None:
    """The Conan player's free move at the start of their turn (§9.1)."""
    state = fold.state
    dest, here = state.destination, state.conan_at
    if to is None:
        take = here == dest
    else:
        before, after = fold.pack.dist(here, dest), fold.pack.dist(to, dest)
        take = after < before or (after == before and not state.options.sideways_move_discards)
        if here == dest and not state.options.leaving_destination_discards:
            take = True
        fold.emit(ev.ConanMoved(to=to))
    turn = state.phase
    assert isinstance(turn, Turn)
    fold.emit(ev.PhaseReplaced(phase=replace(turn, step="cards", conan_done=True)))
    if take:
        take_leftmost(fold, seat)
    else:
        discard_leftmost(fold)


def take_leftmost(fold: ConanFold, seat: int) -> None:
    if not fold.state.track:
        return
    token = fold.state.track[0]
    fold.emit(
        ev.TokenTaken(seat=seat, token=token, source="track"), ev.TokenTakenCount(seat=seat, source="track")
    )
    if not fold.state.track and fold.state.options.bid_immediately:
        fold.emit(ev.PhasePushed(phase=AdventureEnd()))
    fold.emit(ev.PhasePushed(phase=TokenChoice(seat=seat)))


def discard_leftmost(fold: ConanFold) -> None:
    if not fold.state.track:
        return
    fold.emit(ev.TokenDiscarded())
    if not fold.state.track and fold.state.options.bid_immediately:
        fold.emit(ev.PhasePushed(phase=AdventureEnd()))


def choose_token(fold: ConanFold, seat: int, keep: str) -> None:
    token = fold.state.seats[seat].pending_token
    if keep == "keep":
        fold.emit(ev.TokenKept(seat=seat))
    else:
        value = fold.pack.tokens[token][1]
        amount = value if keep == "gold" else min(value, supply_left(fold.pack, fold.state, "sorcery"))
        fold.emit(
            ev.TokenExchanged(seat=seat, token=token, resource=keep, amount=amount),
            ev.ResourcesChanged(seat=seat, reason="token_exchange", **{keep: amount}),
        )
    fold.emit(ev.PhasePopped())


def _draw_from_container(fold: ConanFold, n: int) -> None:
    """Refill the container from exchanged tokens when it runs short (§9.3)."""
    if len(fold.state.container) < n and fold.state.exchanged:
        order = (*fold.state.container, *fold.rng.shuffled(sorted(fold.state.exchanged)))
        fold.emit(ev.TokensShuffled(order=tuple(order)))


def adventure_end(fold: ConanFold, phase: AdventureEnd) -> None:
    """Automatic steps of 2.6.5; interactive parts are pushed on top."""
    pack = fold.pack
    state = fold.state
    match phase.step:
        case "reward":
            fold.emit(ev.PhaseReplaced(phase=replace(phase, step="coronation")))
            if state.conan_at == state.destination and state.conan_player != NEUTRAL:
                _draw_from_container(fold, 1)
                if fold.state.container:
                    seat, token = state.conan_player, fold.state.container[0]
                    fold.emit(ev.TokenTaken(seat=seat, token=token, source="container"))
                    fold.emit(ev.TokenTakenCount(seat=seat, source="container"))
                    fold.emit(ev.PhasePushed(phase=TokenChoice(seat=seat)))
            elif state.conan_at != state.destination:
                fold.emit(ev.ConanMoved(to=state.destination))
        case "coronation":
            fold.emit(ev.PhaseReplaced(phase=replace(phase, step="next")))
            owner = home_owner(pack, state, state.conan_at)
            last_age = state.age == fold.pack.header.ages
            if last_age and owner != NEUTRAL and owner in active_seats(state) and state.crowned == NEUTRAL:
                fold.emit(ev.PhasePushed(phase=Coronation(seat=owner)))
        case _:
            fold.emit(ev.PhasePopped())
            _next_adventure(fold)


def _current_seat(state: State) -> int:
    for phase in reversed(state.phases):
        if isinstance(phase, Turn):
            return phase.seat
    return state.first_player


def _next_adventure(fold: ConanFold) -> None:
    n = len(fold.state.seats)
    fold.emit(ev.FirstPlayerSet(seat=(_current_seat(fold.state) + 1) % n))
    if age_deck_left(fold.pack, fold.state) > 0:
        reveal_next(fold)
        start_bidding(fold)
    else:
        fold.emit(ev.AdventureRevealed(card="", destination=fold.state.destination), ev.AgeEnding())


def age_deck_left(pack: Pack, state: State) -> int:
    revealed = len(state.adventures_used) + (1 if state.adventure else 0)
    return state.age * pack.header.adventures_per_age - revealed


def reveal_next(fold: ConanFold) -> None:
    card = fold.pack.adventures[fold.state.adventure_deck[0]]
    fold.emit(ev.AdventureRevealed(card=card.id, destination=card.destination))
    _draw_from_container(fold, card.tokens)
    fold.emit(ev.TrackFilled(count=min(card.tokens, len(fold.state.container))))


def category_total(pack: Pack, state: State, seat: int, category: str) -> tuple[int, ...]:
    tokens = pack.tokens
    return tuple(sorted(tokens[t][1] for t in state.seats[seat].tokens if tokens[t][0] == category))


def tally(state: State, values: tuple[int, ...]) -> int:
    """A category total for majorities: by value, or by count (§12 step 5)."""
    return sum(values) if state.options.majorities_by_value else len(values)


def crown(fold: ConanFold, seat: int, category: str | None) -> None:
    fold.emit(ev.PhasePopped())
    if category is None:
        return
    totals = {}
    for s in active_seats(fold.state):
        values = category_total(fold.pack, fold.state, s, category)
        fold.emit(ev.TokensRevealed(seat=s, category=category, values=values))
        totals[s] = tally(fold.state, values)
    best_other = max((v for s, v in totals.items() if s != seat), default=-1)
    mine = totals[seat]
    ok = mine > best_other or (mine == best_other and fold.state.options.coronation_tie_succeeds)
    fold.emit(ev.Crowned(seat=seat, category=category, success=ok))
    if ok:
        fold.emit(ev.ResourcesChanged(seat=seat, reason="crowned", ep=3))
