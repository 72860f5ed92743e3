"""Bidding for Conan (docs/rules/conan.md §9.4): sealed, simultaneous bids of a bidding token
plus a strategy card, revealed together when the last one is in."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules.board import ConanFold, active_seats, clockwise, home
from shared.games.conan.rules.cards import draw
from shared.games.conan.state import Bidding, RevealedBid, State, Turn
from shared.kernel.rng import Rng


def start_bidding(fold: ConanFold) -> None:
    bidders = tuple(active_seats(fold.state))
    for seat in bidders:
        draw(fold, seat, "strategy", 1)
    fold.emit(ev.PhasePushed(phase=Bidding(bidders=bidders)))


def awaited(state: State, phase: Bidding) -> list[int]:
    return [s for s in phase.bidders if state.seats[s].sealed_bid is None]


def bid_options(state: State, seat: int) -> list[tuple[int, str | None]]:
    """A token and a strategy card: the seed has every bidder lay down both;
    ``bid_requires_card=False`` lets a bidder keep its cards and bid the token
    alone (docs/rules/conan.md §9.4)."""
    s = state.seats[seat]
    cards: list[str | None] = list(sorted(set(s.strategy_hand)))
    if not cards or not state.options.bid_requires_card:
        cards = [None, *cards]
    return [(t, c) for t in sorted(set(s.bid_available)) for c in cards]


def place_bid(fold: ConanFold, phase: Bidding, seat: int, token: int, card: str | None) -> None:
    fold.emit(ev.BidSealed(seat=seat, token=token, card=card), ev.BidPlaced(seat=seat))
    if not awaited(fold.state, phase):
        _reveal(fold, phase)


def _value(pack: Pack, state: State, token: int, card: str | None) -> int:
    if card is None:
        return token + state.options.empty_hand_bid_value
    return token + pack.strategy[card].bid_value


def _reveal(fold: ConanFold, phase: Bidding) -> None:
    pack = fold.pack
    state = fold.state
    bids = []
    for seat in phase.bidders:
        bid = state.seats[seat].sealed_bid
        assert bid is not None
        bids.append(
            RevealedBid(
                seat=seat, token=bid.token, card=bid.card, value=_value(pack, state, bid.token, bid.card)
            )
        )
    fold.emit(ev.BidsRevealed(bids=tuple(bids)))
    header = fold.pack.header
    for b in bids:
        s = fold.state.seats[b.seat]
        available: tuple[int, ...]
        spent: tuple[int, ...]
        if b.card is not None:
            fold.emit(ev.CardsDiscarded(seat=b.seat, deck="strategy", cards=(b.card,)))
        if b.token == header.reset_token:
            available, spent = tuple(sorted(header.bidding_tokens)), ()
        elif b.token == header.keep_token:
            continue
        else:
            available = tuple(t for t in s.bid_available if t != b.token)
            spent = tuple(sorted((*s.bid_spent, b.token)))
        fold.emit(ev.BidTokensSet(seat=b.seat, available=available, spent=spent))
    holder = next((b.seat for b in bids if fold.state.seats[b.seat].bonus), None)
    swap = holder is not None and fold.state.seats[holder].strategy_hand
    step = "swap" if swap else "resolve"
    fold.emit(ev.PhaseReplaced(phase=replace(phase, step=step, revealed=tuple(bids))))


def swap_card(fold: ConanFold, phase: Bidding, seat: int, card: str | None) -> None:
    """The bonus card: replace the revealed strategy card by another; both go."""
    revealed = phase.revealed
    if card is not None:
        fold.emit(ev.CardsDiscarded(seat=seat, deck="strategy", cards=(card,)))
        revealed = tuple(
            replace(b, card=card, value=_value(fold.pack, fold.state, b.token, card)) if b.seat == seat else b
            for b in revealed
        )
        fold.emit(ev.BidsRevealed(bids=revealed))
    fold.emit(ev.PhaseReplaced(phase=replace(phase, step="resolve", revealed=revealed)))


def winner(pack: Pack, state: State, phase: Bidding, rng: Rng) -> int:
    """Highest bid; then fewer adventure tokens (count); then the kingdom
    closest to Conan; then the ``bid_last_tiebreak`` option (§9.4)."""

    def key(b: RevealedBid) -> tuple[int, int, int]:
        s = state.seats[b.seat]
        tokens = len(s.tokens) + (1 if s.pending_token >= 0 else 0)
        return (-b.value, tokens, pack.dist(home(pack, state, b.seat), state.conan_at))

    best = min(key(b) for b in phase.revealed)
    tied = sorted(b.seat for b in phase.revealed if key(b) == best)
    rule = state.options.bid_last_tiebreak
    if len(tied) > 1 and rule == "random":
        return rng.choice(tied)
    start = state.first_player
    if rule == "turn_order":
        start = next((p.seat for p in reversed(state.phases) if isinstance(p, Turn)), state.first_player)
    order = clockwise(state, start)
    return min(tied, key=lambda s: order.index(s) if s in order else len(order))


def resolve(fold: ConanFold, phase: Bidding) -> None:
    seat = winner(fold.pack, fold.state, phase, fold.rng)
    fold.emit(ev.ConanPlayerSet(seat=seat), ev.PhasePopped())
    if not fold.state.phases:
        # The opening winner plays first and holds the first player token.
        fold.emit(ev.FirstPlayerSet(seat=seat), ev.PhasePushed(phase=Turn(seat=seat)))
