"""Invariants checked after every event of a self-play game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from shared.games.tigris_cards.cards import PLAIN_COUNTS, SHIPS, TREASURES, Card, card_of
from shared.games.tigris_cards.events import Awaiting, GameStarted
from shared.games.tigris_cards.rules.kingdoms import kingdom, leaders_in
from shared.games.tigris_cards.state import State, Support
from shared.games.tigris_common.colours import COLOURS


def plain_cards(state: State) -> Counter:
    """Where every plain card is, counted by colour; treasures apart."""
    counts: Counter = Counter(state.deck)
    counts.update(state.boxed)
    for i, colour in enumerate(COLOURS):
        counts[colour] += state.discard[i] + sum(p.hand[i] for p in state.players)
    cards: Counter = Counter(s.card for col in state.table.columns for s in col)
    cards.update(s.card for s in state.table.gaps if s is not None)
    for player in state.players:
        cards.update(player.vp)
    for colour in COLOURS:
        counts[colour] += cards[card_of(colour)]
    if state.union is not None:
        counts[state.union.colour] += 1
    if state.conflict is not None:
        c = state.conflict
        counts[c.support] += (c.attacker_cards or 0) + (c.defender_cards or 0)
    return counts


def treasure_count(state: State) -> int:
    on_table = sum(1 for col in state.table.columns if col[0].card is Card.TREASURE)
    return on_table + sum(p.vp.count(Card.TREASURE) for p in state.players)


def check(state: State, event: Any = None) -> None:
    if isinstance(event, GameStarted):
        return  # the deck is shuffled by the next event
    assert plain_cards(state) == _PLAIN, "a card was created or lost"
    assert treasure_count(state) == TREASURES
    slots = [s for col in state.table.columns for s in col]
    built = [s.card for s in slots if s.card in _SHIPS]
    assert sorted(built + list(state.table.ships)) == _ALL_SHIPS
    assert not any(s.leader for s in slots if s.card in _SHIPS), "no leader on a ship"
    for col in state.table.columns:
        assert col[0].card in (Card.TREASURE, Card.RED), "the head slot is always filled"
        assert len(col) - 1 <= state.options.column_capacity
    tokens = [s.leader for s in slots if s.leader]
    tokens += [s.leader for s in state.table.gaps if s is not None and s.leader]
    assert len(tokens) == len(set(tokens)), "a leader stands in two places"
    assert all(0 <= sum(p.hand) <= state.options.hand_size for p in state.players)
    # Settled points only: a leader placed into a rival's kingdom starts the
    # conflict with the next event, and the awaited seat then commits support.
    if isinstance(event, Awaiting) and not isinstance(event.phase, Support):
        _one_leader_per_colour(state)


_PLAIN = Counter(PLAIN_COUNTS)
_SHIPS = frozenset(SHIPS)
_ALL_SHIPS = sorted(SHIPS)


def _one_leader_per_colour(state: State) -> None:
    seen: set = set()
    for column in range(len(state.table.columns)):
        span = kingdom(state.table, column)
        if span in seen:
            continue
        seen.add(span)
        colours = [token.leader for _, token in leaders_in(state.table, span)]
        assert len(colours) == len(set(colours)), f"two leaders of a colour in {span}"
