"""Conan's and Tigris cards' folds look the event's type up in ``STEPS_BY_TYPE``
before their ``match``: each step must leave the state the match leaves, for
every event of recorded games, and every step must be checked so."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args

import msgspec

from shared.eventstore.store import decode_envelope
from shared.games import registry
from shared.games.conan.loader import load_packs
from shared.games.tigris_cards.events import Passed
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from tests.games.golden.record import Golden
from tests.readmodels.test_rebuild_models import _log

# The modules (each package's ``evolve`` is the function).
conan = importlib.import_module("shared.games.conan.evolve")
tigris_cards = importlib.import_module("shared.games.tigris_cards.evolve")
GOLDEN = Path(__file__).parent / "golden"
_TABLE_EVENTS = frozenset(get_args(tables.TableEvent))
#: Random games per game (of either seat count), beside its golden record.
SEEDS = 8


def _games(key: str) -> Iterator[list[Any]]:
    """The game's own events (the fold never sees the platform's) of its golden
    record and of random games."""
    codec = codec_for(registry.get(key))
    golden = msgspec.json.decode((GOLDEN / f"{key}.json").read_bytes(), type=Golden)
    yield [codec.event_from_json(bytes(raw)) for raw in golden.events]
    for seed in range(SEEDS):
        events = [codec.event(decode_envelope(raw).payload) for raw in _log(key, seed, None)]
        yield [event for event in events if type(event) not in _TABLE_EVENTS]


def _check(
    key: str, steps: dict[type, Any], same: Callable[[Any, Any], tuple[Any, Any]], rare: tuple[Any, ...] = ()
) -> None:
    """``same(state, event)``: the state after ``event`` by the table and by the
    match; ``rare``: events random games do not play, tried on every state."""
    checked: set[type] = set()
    for events in _games(key):
        state = None
        for event in events:
            if state is not None:
                for tried in (event, *rare):
                    looked_up, matched = same(state, tried)
                    assert looked_up == matched, tried
                    checked.add(type(tried))
            state = registry.get(key).evolve(state, event)
    assert set(steps) <= checked, f"steps never checked: {set(steps) - checked}"


def test_conans_steps_by_type_leave_the_state_the_match_leaves() -> None:
    packs = load_packs()

    def same(state: Any, event: Any) -> tuple[Any, Any]:
        pack = packs[state.options.pack]
        return conan._fold(pack, state, event), conan.matched_fold(pack, state, event)

    _check("conan", conan.STEPS_BY_TYPE, same)


def test_tigris_cards_steps_by_type_leave_the_state_the_match_leaves() -> None:
    def same(state: Any, event: Any) -> tuple[Any, Any]:
        return tigris_cards.evolve(state, event), tigris_cards.matched_evolve(state, event)

    # The random bot never passes.
    _check("tigris-cards", tigris_cards.STEPS_BY_TYPE, same, rare=(Passed(seat=0),))
