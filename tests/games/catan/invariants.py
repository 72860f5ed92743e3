"""Invariants checked after every event of a self-play game."""

from __future__ import annotations

from typing import Any

from shared.games.catan import board
from shared.games.catan.rules.building import (
    CITIES,
    ROADS,
    SETTLEMENTS,
    WALLS,
    cities_built,
    roads_built,
    settlements_built,
)
from shared.games.catan.rules.longest_road import lengths, unsettled
from shared.games.catan.rules.victory import points, public_points
from shared.games.catan.state import State

# Events never emitted between a board change and the end of its command (a set-up road is
# followed by the next seat's PhaseSet before Longest Road is settled, so PhaseSet is not one).
QUIET = {"TaskOpened", "DiceRolled", "LongestRoadSet", "GameWon"}


def check(state: State, event: Any = None) -> None:
    if state.phase == "setup" and not state.setup_queue:  # still opening
        return
    ck = state.options.ck
    for k in range(8):
        held = sum(p.hand[k] for p in state.players) + state.bank[k]
        assert held == (19 if k < 5 else (12 if ck else 0)), f"card kind {k} not conserved after {event!r}"
        assert state.bank[k] >= 0 and all(p.hand[k] >= 0 for p in state.players)
    if ck:
        cards = sum(len(d) for d in state.decks) + sum(len(p.cards) + p.vp_cards for p in state.players)
        assert cards == 54, f"progress cards not conserved after {event!r}"
        assert 0 <= state.barbarian <= state.options.barbarian_track  # == only until the attack event
    else:
        held = sum(len(p.cards) for p in state.players) + len(state.dev_deck)
        assert held <= 25
    for seat in range(state.seats):
        assert settlements_built(state, seat) <= SETTLEMENTS
        assert cities_built(state, seat) <= CITIES
        assert roads_built(state, seat) <= ROADS
        assert sum(1 for w in state.walls if state.owner[w] == seat) <= WALLS
        for strength in (1, 2, 3):
            assert sum(1 for k in state.knights if k.owner == seat and k.strength == strength) <= 2
        assert 0 <= public_points(state, seat) <= points(state, seat)
    for w in state.walls:
        assert state.level[w] == 2
    for spot in state.metropolis:
        assert spot < 0 or state.level[spot] == 2
    for k in state.knights:
        assert state.owner[k.spot] == -1, "a knight shares a spot with a building"
    assert len({k.spot for k in state.knights}) == len(state.knights)
    # Lengths are settled once a command and the card it belongs to have resolved, so compare at
    # quiet events only, and not while a card that changed the board awaits its last decision.
    if state.road_lengths and type(event).__name__ in QUIET and not unsettled(state):
        assert state.road_lengths == lengths(state), "incremental road lengths differ from a recount"
    assert 0 <= state.robber < 19
    if type(event).__name__ == "GameWon":  # only the active seat wins, and only at the target
        assert event.seat == state.active and event.points[event.seat] >= state.options.target
        assert event.points == tuple(points(state, s) for s in range(state.seats))
    _ = board
