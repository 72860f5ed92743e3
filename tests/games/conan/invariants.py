"""Invariants checked after every event of every self-play game."""

from __future__ import annotations

from collections import Counter

from shared.games.conan.loader import get_pack
from shared.games.conan.state import State


def check(state: State, event: object) -> None:
    if state is None or not state.seats or not state.phases:
        return
    pack = get_pack(state.options.pack)
    _figures(state, pack)
    _cards(state, pack)
    _tokens(state, pack)
    for s in state.seats:
        assert s.gold >= 0, f"negative gold after {event!r}"
        assert s.sorcery >= 0
    assert sum(s.sorcery for s in state.seats) <= pack.header.supply["sorcery"]
    assert sum(s.crom for s in state.seats) <= pack.header.supply["crom"]
    assert sum(p.raiders for p in state.provinces) <= pack.header.supply["raiders"]
    assert all(p.raiders >= 0 for p in state.provinces)


def _figures(state: State, pack) -> None:
    for seat, s in enumerate(state.seats):
        k = pack.kingdoms[s.kingdom]
        units = [p.units[seat] for p in state.provinces]
        emissaries = [p.emissaries[seat] for p in state.provinces]
        assert min(units) >= 0 and min(emissaries) >= 0
        assert sum(units) <= k.units, "more armies than the kingdom owns"
        assert sum(emissaries) <= k.emissaries, "more emissaries than the kingdom owns"
        for i, p in enumerate(pack.provinces):
            if p.id != k.home:
                assert units[i] <= pack.header.stack_limit, f"{s.kingdom} over the limit in {p.id}"


def _cards(state: State, pack) -> None:
    held = [*state.strategy_deck, *state.strategy_discard]
    for s in state.seats:
        held += s.strategy_hand
    assert Counter(held) == Counter(pack.strategy_deck()), "strategy cards not conserved"
    for s in state.seats:
        mine = [*s.kingdom_deck, *s.kingdom_discard, *s.kingdom_hand, *(t.card for t in s.table)]
        assert Counter(mine) == Counter(pack.kingdom_deck(s.kingdom)), f"{s.kingdom} cards not conserved"


def _tokens(state: State, pack) -> None:
    tokens = [*state.container, *state.track, *state.exchanged, *state.discarded_tokens]
    for s in state.seats:
        tokens += s.tokens
        if s.pending_token >= 0:
            tokens.append(s.pending_token)
    assert sorted(tokens) == list(range(len(pack.tokens))), "adventure tokens not conserved"
