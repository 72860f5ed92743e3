"""What Age of Conan keeps hidden, for the generic secrecy test.

Hidden from everyone: the order of the strategy, adventure and objective decks
and of every kingdom deck, and the face-down adventure tokens on the track, in
the container and discarded. Hidden by a seat from the others: its strategy and
kingdom hands, its adventure tokens (kept, and the one it is deciding about),
its sealed bid, its committed contest cards and its secret artifact category.

Hands and tokens are varied by exchanging them with the unseen pile they come
from, so every count and every total stays; sealed choices are chosen afresh
among the ones the rules allow. Adventure tokens, adventure cards and
objectives are unique items with ids; strategy and kingdom cards come in
copies, so a card's name is not an id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

import msgspec
from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import CATEGORIES, Pack
from shared.games.conan.rules.bidding import bid_options
from shared.games.conan.rules.contest import strategy_choices
from shared.games.conan.state import Bid, Contest, SeatState, State
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience


def conceal(pack: Pack, state: State, owner: Audience, rng: Rng) -> State:
    return _unseen(state, rng) if owner is None else _seat(pack, state, owner, rng)


def _unseen(state: State, rng: Rng) -> State:
    container, track, discarded = _regroup(
        rng.shuffled((*state.container, *state.track, *state.discarded_tokens)),
        (len(state.container), len(state.track)),
    )
    return replace(
        state,
        strategy_deck=tuple(rng.shuffled(state.strategy_deck)),
        adventure_deck=tuple(rng.shuffled(state.adventure_deck)),
        objective_deck=tuple(rng.shuffled(state.objective_deck)),
        container=container,
        track=track,
        discarded_tokens=discarded,
        seats=tuple(replace(s, kingdom_deck=tuple(rng.shuffled(s.kingdom_deck))) for s in state.seats),
    )


def _regroup(items: list[Any], sizes: tuple[int, ...]) -> list[tuple[Any, ...]]:
    out, start = [], 0
    for size in sizes:
        out.append(tuple(items[start : start + size]))
        start += size
    return [*out, tuple(items[start:])]


def _swap(held: list[Any], pile: list[Any], rng: Rng) -> None:
    """Exchange each held item, with even odds, for one at a random place of ``pile``."""
    for i, item in enumerate(held):
        if pile and rng.below(2):
            j = rng.below(len(pile))
            held[i], pile[j] = pile[j], item


def _seat(pack: Pack, state: State, owner: int, rng: Rng) -> State:
    s = state.seats[owner]
    # Cards under a sealed choice stay in hand; the choice itself is made afresh below.
    reserved = [*s.sealed_cards, *((s.sealed_bid.card,) if s.sealed_bid and s.sealed_bid.card else ())]
    free = list(s.strategy_hand)
    for card in reserved:
        free.remove(card)
    strategy_deck = list(state.strategy_deck)
    _swap(free, strategy_deck, rng)
    kingdom_hand, kingdom_deck = list(s.kingdom_hand), list(s.kingdom_deck)
    _swap(kingdom_hand, kingdom_deck, rng)
    mine = [*s.tokens, *((s.pending_token,) if s.pending_token >= 0 else ())]
    unseen = [*state.container, *state.track, *state.discarded_tokens]
    _swap(mine, unseen, rng)
    container, track, discarded = _regroup(unseen, (len(state.container), len(state.track)))
    seat = replace(
        s,
        strategy_hand=tuple(sorted(reserved + free)),
        kingdom_hand=tuple(sorted(kingdom_hand)),
        kingdom_deck=tuple(kingdom_deck),
        tokens=tuple(sorted(mine[: len(s.tokens)])),
        pending_token=mine[-1] if s.pending_token >= 0 else -1,
        sealed_category=rng.choice(CATEGORIES) if s.sealed_category else "",
    )
    state = replace(
        _with(state, owner, seat),
        strategy_deck=tuple(strategy_deck),
        container=container,
        track=track,
        discarded_tokens=discarded,
    )
    return _sealed(pack, state, owner, rng)


def _with(state: State, owner: int, seat: SeatState) -> State:
    return replace(state, seats=(*state.seats[:owner], seat, *state.seats[owner + 1 :]))


def _sealed(pack: Pack, state: State, owner: int, rng: Rng) -> State:
    s = state.seats[owner]
    if s.sealed_bid is not None:
        token, card = rng.choice(bid_options(state, owner))
        s = replace(s, sealed_bid=Bid(token=token, card=card))
    contest = next((p for p in reversed(state.phases) if isinstance(p, Contest)), None)
    if s.sealed_cards and contest is not None:
        choices = strategy_choices(pack, state, contest, owner)
        # A hand dealt afresh may not hold as many cards this contest allows as
        # were sealed: then the most it can seal (drawn from the sample alone, never the true cards).
        same = [c for c in choices if len(c) == len(s.sealed_cards)] or [
            c for c in choices if len(c) == max(map(len, choices))
        ]
        s = replace(s, sealed_cards=rng.choice(same))
    return _with(state, owner, s)


def sample_hidden(pack: Pack, state: State, seat: int, rng: Rng) -> State:
    """Everything the seat has not seen dealt afresh, each from the pool it
    could have come from: the other strategy hands with the strategy deck, each
    kingdom's hand with its deck (the seat's own deck reordered), the other
    seats' adventure tokens with the face-down ones, the decks reordered, and
    the other seats' sealed bids, contest cards and categories chosen again
    among what the rules allow."""
    others = [s for s in range(len(state.seats)) if s != seat]
    strategy = rng.shuffled(
        sorted((*state.strategy_deck, *(c for s in others for c in state.seats[s].strategy_hand)))
    )
    unseen = [*state.container, *state.track, *state.discarded_tokens]
    tokens = rng.shuffled(sorted((*unseen, *(t for s in others for t in _tokens(state.seats[s])))))
    seats = list(state.seats)
    for s in others:
        old = seats[s]
        kingdom = rng.shuffled(sorted((*old.kingdom_hand, *old.kingdom_deck)))
        held = len(old.tokens)
        seats[s] = replace(
            old,
            strategy_hand=tuple(sorted(strategy[: len(old.strategy_hand)])),
            kingdom_hand=tuple(sorted(kingdom[: len(old.kingdom_hand)])),
            kingdom_deck=tuple(kingdom[len(old.kingdom_hand) :]),
            tokens=tuple(sorted(tokens[:held])),
            pending_token=tokens[held] if old.pending_token >= 0 else -1,
            sealed_category=rng.choice(CATEGORIES) if old.sealed_category else "",
        )
        strategy = strategy[len(old.strategy_hand) :]
        tokens = tokens[held + (old.pending_token >= 0) :]
    mine = seats[seat]
    seats[seat] = replace(mine, kingdom_deck=tuple(rng.shuffled(sorted(mine.kingdom_deck))))
    container, track, discarded = _regroup(tokens, (len(state.container), len(state.track)))
    state = replace(
        state,
        seats=tuple(seats),
        strategy_deck=tuple(strategy),
        adventure_deck=tuple(rng.shuffled(sorted(state.adventure_deck))),
        objective_deck=tuple(rng.shuffled(sorted(state.objective_deck))),
        container=container,
        track=track,
        discarded_tokens=discarded,
    )
    for s in others:
        state = _sealed(pack, state, s, rng)
    return state


def _tokens(s: SeatState) -> tuple[int, ...]:
    return (*s.tokens, *((s.pending_token,) if s.pending_token >= 0 else ()))


def reveals(event: ev.AnyEvent, audience: Audience) -> bool:
    match event:
        # Draws and tokens taken: to the seat that takes them.
        case ev.CardsDrawn() | ev.TokenTaken():
            return True
        # Sealed bids and contest cards turned over, cards discarded face up,
        # tokens shown to exchange them or to score a category, the next
        # adventure and objective turned up, and the final standings.
        case ev.BidsRevealed() | ev.ContestCardsRevealed() | ev.CardsDiscarded() | ev.TokenExchanged():
            return True
        case ev.TokensRevealed() | ev.AdventureRevealed() | ev.ObjectiveDrawn() | ev.GameEnded():
            return True
        # Final scoring counts every seat's adventure tokens in the open.
        case ev.ResourcesChanged(reason=reason):
            return reason.startswith("majority_")
        # Orders no seat sees, and public facts: nothing hidden comes to light.
        case (
            ev.Started() | ev.DeckShuffled() | ev.TokensShuffled() | ev.CardsDrawnCount()
            | ev.TableCardPlayed() | ev.TableCardTurned() | ev.UnitsChanged() | ev.EmissariesChanged()
            | ev.MarkerSet() | ev.RaidersChanged() | ev.CampaignSet() | ev.ConanMoved() | ev.ConanPlayerSet()
            | ev.FirstPlayerSet() | ev.FatePoolRolled() | ev.FateDieTaken() | ev.TrackFilled()
            | ev.TokenTakenCount() | ev.TokenKept() | ev.TokenDiscarded() | ev.BidSealed() | ev.BidPlaced()
            | ev.BidTokensSet() | ev.ContestCardCommitted() | ev.ContestCardDeclared() | ev.ContestRolled()
            | ev.ContestResolved() | ev.PhasePushed() | ev.PhaseReplaced() | ev.PhasePopped()
            | ev.ArtifactsSet() | ev.CategoryChosen() | ev.CategoryChoiceMade() | ev.ObjectiveMet()
            | ev.AgeStarted() | ev.AgeEnding() | ev.Crowned()
        ):  # fmt: skip
            return False
        case _:
            assert_never(event)


def hidden_ids(state: State, audience: Audience) -> frozenset[str]:
    tokens = [*state.container, *state.track, *state.discarded_tokens]
    for seat, s in enumerate(state.seats):
        if seat != audience:
            tokens += [*s.tokens, *((s.pending_token,) if s.pending_token >= 0 else ())]
    return frozenset(
        (*(_token(t) for t in tokens), *state.adventure_deck, *state.objective_deck),
    )


def named_ids(event: ev.AnyEvent) -> frozenset[str]:
    """Every string the event carries (adventure and objective ids among them),
    and the adventure tokens it numbers."""
    names = set(_strings(msgspec.to_builtins(event)))
    match event:
        case ev.TokenTaken(token=token) | ev.TokenExchanged(token=token):
            names.add(_token(token))
        case ev.TokensShuffled(order=order):
            names.update(_token(t) for t in order)
    return frozenset(names)


def _token(token: int) -> str:
    return f"token:{token}"


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
