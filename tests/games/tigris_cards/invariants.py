"""Invariants checked after every event of a self-play game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from shared.games.tigris_cards.cards import PLAIN_COUNTS, SHIPS, TREASURES, Card, colour_of, is_ship
from shared.games.tigris_cards.events import Awaiting, GameStarted
from shared.games.tigris_cards.rules.kingdoms import kingdom, leaders_in
from shared.games.tigris_cards.state import State, Support
from shared.games.tigris_common.colours import COLOURS


def plain_cards(state: State) -> Counter:
    """Where every plain card is, counted by colour; treasures apart."""
    counts: Counter = Counter()
    counts.update(state.deck)
    counts.update(state.boxed)
    for player in state.players:
        counts.update({c: n for c, n in zip(COLOURS, player.hand, strict=True)})
        counts.update(colour_of(card) for card in player.vp if card is not Card.TREASURE)
    counts.update({c: n for c, n in zip(COLOURS, state.discard, strict=True)})
    table = [s.card for col in state.table.columns for s in col] + [
        s.card for s in state.table.gaps if s is not None
    ]
    counts.update(colour_of(c) for c in table if c is not Card.TREASURE and not is_ship(c))
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
    assert plain_cards(state) == Counter(PLAIN_COUNTS), "a card was created or lost"
    assert treasure_count(state) == TREASURES
    built = [s.card for col in state.table.columns for s in col if is_ship(s.card)]
    assert sorted(built + list(state.table.ships)) == sorted(SHIPS)
    for col in state.table.columns:
        assert col[0].card in (Card.TREASURE, Card.RED), "the head slot is always filled"
        assert len(col) - 1 <= state.options.column_capacity
        assert all(not s.leader for s in col if is_ship(s.card)), "no leader on a ship"
    tokens = [s.leader for col in state.table.columns for s in col if s.leader]
    tokens += [s.leader for s in state.table.gaps if s is not None and s.leader]
    assert len(tokens) == len(set(tokens)), "a leader stands in two places"
    assert all(0 <= sum(p.hand) <= state.options.hand_size for p in state.players)
    # Settled points only: a leader placed into a rival's kingdom starts the
    # conflict with the next event, and the awaited seat then commits support.
    if isinstance(event, Awaiting) and not isinstance(event.phase, Support):
        _one_leader_per_colour(state)


def _one_leader_per_colour(state: State) -> None:
    seen: set = set()
    for column in range(len(state.table.columns)):
        span = kingdom(state.table, column)
        if span in seen:
            continue
        seen.add(span)
        colours = [token.leader for _, token in leaders_in(state.table, span)]
        assert len(colours) == len(set(colours)), f"two leaders of a colour in {span}"
