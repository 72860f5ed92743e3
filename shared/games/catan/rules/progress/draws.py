"""Progress-card draws (city gates, tied defenders) and the hand limit (docs/rules/catan.md §12.1)."""

from __future__ import annotations

from itertools import combinations

from shared.games.catan import events as ev
from shared.games.catan.cards import TRACKS, VP_CARDS, track_of
from shared.games.catan.rules.flow import CatanFold, clockwise, open_task
from shared.games.catan.state import State


def draw(f: CatanFold, seat: int, track: int) -> None:
    deck = f.state.decks[track]
    if not deck:
        return
    card = deck[0]
    f.emit(ev.CardDrawn(seat=seat, deck=track, card=card), ev.CardDrawnShadow(seat=seat, deck=track))
    if card in VP_CARDS:  # victory-point cards are shown at once and never held
        f.emit(ev.CardRevealed(seat=seat, card=card))


def gate(f: CatanFold) -> None:
    s = f.state
    _, red, face = s.dice
    track = TRACKS.index(face)
    for seat in clockwise(s, s.active):
        level = s.players[seat].levels[track]
        if level >= 1 and red <= level + 1:
            draw(f, seat, track)


def excess(state: State, seat: int) -> int:
    return max(0, len(state.players[seat].cards) - state.options.progress_hand_limit)


def open_limit_discards(f: CatanFold) -> None:
    """Off-turn seats above the limit discard at once; the active seat may wait for its turn's end."""
    s = f.state
    waits = s.options.own_turn_progress_limit == "end_of_turn"
    over = [
        (seat, excess(s, seat))
        for seat in range(s.seats)
        if not (waits and seat == s.active) and excess(s, seat)
    ]
    if over:
        open_task(f, "progress_discard", tuple(o[0] for o in over), amounts=tuple(o[1] for o in over))


def discard(f: CatanFold, seat: int, cards: tuple[str, ...]) -> None:
    for card in cards:
        f.emit(ev.CardDiscarded(seat=seat, card=card), ev.CardDiscardedShadow(seat=seat, deck=track_of(card)))


def discard_valid(state: State, seat: int, cards: tuple[str, ...], n: int) -> bool:
    hand = list(state.players[seat].cards)
    if len(cards) != n:
        return False
    for c in cards:
        if c not in hand:
            return False
        hand.remove(c)
    return True


def discard_options(state: State, seat: int, n: int) -> list[tuple[str, ...]]:
    return sorted(set(combinations(state.players[seat].cards, n)))
