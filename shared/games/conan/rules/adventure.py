"""Conan and adventures (docs/rules/conan.md §9): the free move, adventure
tokens, the end of an adventure, and the coronation window of Age III (§10)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.rules.board import NEUTRAL, Tx, active_seats, home_owner, pack_of, supply_left
from shared.games.conan.state import AdventureEnd, Coronation, State, TokenChoice, Turn


def conan_moves(state: State) -> list[str]:
    pack = pack_of(state)
    return [
        n
        for n in pack.neighbours(state.conan_at)
        if state.options.conan_enters_out_of_play or n in _playable(state)
    ]


def _playable(state: State) -> set[str]:
    return {p.id for p in pack_of(state).provinces if p.zone in state.zones}


def move_conan(tx: Tx, seat: int, to: str | None) -> None:
    """The Conan player's free move at the start of their turn (§9.1)."""
    state = tx.state
    dest, here = state.destination, state.conan_at
    if to is None:
        take = here == dest
    else:
        before, after = tx.pack.dist(here, dest), tx.pack.dist(to, dest)
        take = after < before or (after == before and not state.options.sideways_move_discards)
        if here == dest and not state.options.leaving_destination_discards:
            take = True
        tx.emit(ev.ConanMoved(to=to))
    turn = state.phase
    assert isinstance(turn, Turn)
    tx.emit(ev.PhaseReplaced(phase=replace(turn, step="cards", conan_done=True)))
    if take:
        take_leftmost(tx, seat)
    else:
        discard_leftmost(tx)


def take_leftmost(tx: Tx, seat: int) -> None:
    if not tx.state.track:
        return
    token = tx.state.track[0]
    tx.emit(
        ev.TokenTaken(seat=seat, token=token, source="track"), ev.TokenTakenCount(seat=seat, source="track")
    )
    if not tx.state.track and tx.state.options.bid_immediately:
        tx.emit(ev.PhasePushed(phase=AdventureEnd()))
    tx.emit(ev.PhasePushed(phase=TokenChoice(seat=seat)))


def discard_leftmost(tx: Tx) -> None:
    if not tx.state.track:
        return
    tx.emit(ev.TokenDiscarded())
    if not tx.state.track and tx.state.options.bid_immediately:
        tx.emit(ev.PhasePushed(phase=AdventureEnd()))


def choose_token(tx: Tx, seat: int, keep: str) -> None:
    token = tx.state.seats[seat].pending_token
    if keep == "keep":
        tx.emit(ev.TokenKept(seat=seat))
    else:
        value = tx.pack.tokens[token][1]
        amount = value if keep == "gold" else min(value, supply_left(tx.state, "sorcery"))
        tx.emit(
            ev.TokenExchanged(seat=seat, token=token, resource=keep, amount=amount),
            ev.ResourcesChanged(seat=seat, reason="token_exchange", **{keep: amount}),
        )
    tx.emit(ev.PhasePopped())


def _draw_from_container(tx: Tx, n: int) -> None:
    """Refill the container from exchanged tokens when it runs short (§9.3)."""
    if len(tx.state.container) < n and tx.state.exchanged:
        order = (*tx.state.container, *tx.rng.shuffled(sorted(tx.state.exchanged)))
        tx.emit(ev.TokensShuffled(order=tuple(order)))


def adventure_end(tx: Tx, phase: AdventureEnd) -> None:
    """Automatic steps of 2.6.5; interactive parts are pushed on top."""
    state = tx.state
    match phase.step:
        case "reward":
            tx.emit(ev.PhaseReplaced(phase=replace(phase, step="coronation")))
            if state.conan_at == state.destination and state.conan_player != NEUTRAL:
                _draw_from_container(tx, 1)
                if tx.state.container:
                    seat, token = state.conan_player, tx.state.container[0]
                    tx.emit(ev.TokenTaken(seat=seat, token=token, source="container"))
                    tx.emit(ev.TokenTakenCount(seat=seat, source="container"))
                    tx.emit(ev.PhasePushed(phase=TokenChoice(seat=seat)))
            elif state.conan_at != state.destination:
                tx.emit(ev.ConanMoved(to=state.destination))
        case "coronation":
            tx.emit(ev.PhaseReplaced(phase=replace(phase, step="next")))
            owner = home_owner(state, state.conan_at)
            last_age = state.age == tx.pack.header.ages
            if last_age and owner != NEUTRAL and owner in active_seats(state) and state.crowned == NEUTRAL:
                tx.emit(ev.PhasePushed(phase=Coronation(seat=owner)))
        case _:
            tx.emit(ev.PhasePopped())
            _next_adventure(tx)


def _current_seat(state: State) -> int:
    for phase in reversed(state.phases):
        if isinstance(phase, Turn):
            return phase.seat
    return state.first_player


def _next_adventure(tx: Tx) -> None:
    from shared.games.conan.rules.bidding import start_bidding

    n = len(tx.state.seats)
    tx.emit(ev.FirstPlayerSet(seat=(_current_seat(tx.state) + 1) % n))
    if age_deck_left(tx.state) > 0:
        reveal_next(tx)
        start_bidding(tx)
    else:
        tx.emit(ev.AdventureRevealed(card="", destination=tx.state.destination), ev.AgeEnding())


def age_deck_left(state: State) -> int:
    revealed = len(state.adventures_used) + (1 if state.adventure else 0)
    return state.age * pack_of(state).header.adventures_per_age - revealed


def reveal_next(tx: Tx) -> None:
    card = tx.pack.adventures[tx.state.adventure_deck[0]]
    tx.emit(ev.AdventureRevealed(card=card.id, destination=card.destination))
    _draw_from_container(tx, card.tokens)
    tx.emit(ev.TrackFilled(count=min(card.tokens, len(tx.state.container))))


def category_total(state: State, seat: int, category: str) -> tuple[int, ...]:
    tokens = pack_of(state).tokens
    return tuple(sorted(tokens[t][1] for t in state.seats[seat].tokens if tokens[t][0] == category))


def tally(state: State, values: tuple[int, ...]) -> int:
    """A category total for majorities: by value, or by count (§12 step 5)."""
    return sum(values) if state.options.majorities_by_value else len(values)


def crown(tx: Tx, seat: int, category: str | None) -> None:
    tx.emit(ev.PhasePopped())
    if category is None:
        return
    totals = {}
    for s in active_seats(tx.state):
        values = category_total(tx.state, s, category)
        tx.emit(ev.TokensRevealed(seat=s, category=category, values=values))
        totals[s] = tally(tx.state, values)
    best_other = max((v for s, v in totals.items() if s != seat), default=-1)
    mine = totals[seat]
    ok = mine > best_other or (mine == best_other and tx.state.options.coronation_tie_succeeds)
    tx.emit(ev.Crowned(seat=seat, category=category, success=ok))
    if ok:
        tx.emit(ev.ResourcesChanged(seat=seat, reason="crowned", ep=3))
