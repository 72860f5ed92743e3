"""Invariants checked after every event of every self-play game."""

from __future__ import annotations

from collections import Counter

from shared.games.conan.state import State
from tests.games.conan.helpers import PACKS


def check(state: State, event: object) -> None:
    if state is None or not state.seats or not state.phases:
        return
    pack = PACKS[state.options.pack]
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


def check_settled(state: State) -> None:
    """Invariants that hold whenever a command has been fully decided (events
    of one decision may pass through in-between states)."""
    pack = PACKS[state.options.pack]
    homes = {pack.kingdoms[s.kingdom].home: seat for seat, s in enumerate(state.seats)}
    for info, here in zip(pack.provinces, state.provinces, strict=True):
        owner = here.campaign_owner
        if owner != -1:
            # docs/rules/conan.md §7.1: a campaign lives only as long as its army
            assert here.owner == -1, f"a campaign in {info.id}, which holds a marker"
            assert here.units[owner] > 0, f"a campaign in {info.id} without its army"
            assert 0 <= here.campaign_pos < len(info.track)
        for seat, n in enumerate(here.units):
            if n:
                assert info.zone in state.zones, f"an army in out-of-play {info.id}"
                assert homes.get(info.id, seat) == seat, f"an army in another kingdom's home {info.id}"


def check_steps(game, playout) -> None:
    """Fold a playout and check ``check_settled`` after every decided command."""
    state = game.fold(playout.opening)
    check_settled(state)
    for step in playout.steps:
        state = game.fold(step.events, state)
        check_settled(state)
