"""Checks every game module must pass, written once and called by each game's tests.

Each check takes the registered :class:`GameModule` and drives it the way the
platform does (through :func:`shared.kernel.playout.play`), so a game that
passes here behaves under the services too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from shared.kernel.contract import GameModule
from shared.kernel.legal_groups import expand
from shared.kernel.playout import Playout, play
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.kernel.visibility import Public, Seats, ServerOnly
from tests.games.secrecy.harness import World, check_views

Game = GameModule[Any, Any, Any, Any]
_enc = msgspec.msgpack.Encoder()
_json = msgspec.json.Encoder().encode


def seeds(n: int, salt: int = 0) -> list[bytes]:
    """Deterministic seeds, so a failing playout is reproducible from its index."""
    return [(i + salt * 1_000_003).to_bytes(8, "big") * 4 for i in range(n)]


def encoded(obj: Any) -> bytes:
    return _enc.encode(obj)


def check_playouts(
    game: Game,
    seats: int,
    games: int,
    invariant: Callable[[Any, Any], None] | None = None,
    options: dict[str, Any] | None = None,
    max_steps: int = 20_000,
) -> list[Playout]:
    """Random self-play games that must all end by the rules, with ``invariant``
    checked after every event, and replay determinism for each."""
    outcomes = []
    for seed in seeds(games, salt=seats):
        p = play(game, seats, seed, options=options, after_event=invariant, max_steps=max_steps)
        assert game.is_over(p.state), f"{game.key}: game did not end in {max_steps} commands"
        assert game.fold(p.events) == p.state, "replay of the log differs from the live state"
        outcomes.append(p)
    return outcomes


def check_codec_round_trip(game: Game, playouts: Iterable[Playout]) -> None:
    """Every event and command that occurred survives JSON and MessagePack."""
    ev_json = msgspec.json.Decoder(game.event_type)
    ev_pack = msgspec.msgpack.Decoder(game.event_type)
    cmd_json = msgspec.json.Decoder(game.command_type)
    for p in playouts:
        for event in p.events:
            assert ev_json.decode(msgspec.json.encode(event)) == event
            assert ev_pack.decode(encoded(event)) == event
        for step in p.steps:
            assert cmd_json.decode(msgspec.json.encode(step.command)) == step.command


def check_decide_is_pure_and_legal_matches(
    game: Game, playouts: Iterable[Playout], samples: int = 40
) -> None:
    """Along real games: ``decide`` never mutates its input, every legal command
    is accepted, and commands that are not legal are rejected; at every state,
    the compact legal list of view documents stands for exactly ``legal``."""
    for p in playouts:
        state = None
        for event in p.opening:
            state = game.evolve(state, event)
        stride = max(1, len(p.steps) // samples)
        for i, step in enumerate(p.steps):
            check_compact_legal(game, state)
            if i % stride == 0:
                _check_state(game, state, step.version)
            for event in step.events:
                state = game.evolve(state, event)


def check_compact_legal(game: Game, state: Any) -> None:
    """Each seat's ``compact_legal``, read from JSON as clients read it and
    expanded, is exactly its ``legal`` list, byte for byte once encoded: the
    same commands in the same order (bots draw an index into the flat list,
    pages list the moves in the game's order) with their fields in the same
    order (pages compare commands by their JSON). A seat not awaited gets none."""
    for seat in range(game.seat_count(state)):
        groups = game.compact_legal(state, seat)
        expanded = _json(expand(msgspec.json.decode(_json(groups))))
        assert expanded == _json(game.legal(state, seat)), f"seat {seat}: the groups expand to another list"
        if seat not in game.actors(state):
            assert groups == [], f"seat {seat} is not awaited but has legal groups"


def _check_state(game: Game, state: Any, version: int) -> None:
    before = encoded(state)
    seats = game.seat_count(state)
    candidates: list[Any] = []
    for seat in range(seats):
        legal = game.legal(state, seat)
        if seat not in game.actors(state):
            assert legal == [], f"seat {seat} is not awaited but has legal commands"
        for command in legal:
            try:
                game.decide(state, seat, command, Rng(b"\x01" * 32, version))
            except RuleViolation as exc:
                raise AssertionError(f"legal command {command!r} rejected: {exc}") from exc
            assert encoded(state) == before, "decide mutated its input state"
        candidates.extend(legal)
    # Commands legal for one seat, or at another moment, offered to every seat.
    for seat in range(seats):
        legal_here = {encoded(c) for c in game.legal(state, seat)}
        for command in candidates:
            if encoded(command) in legal_here:
                continue
            try:
                game.decide(state, seat, command, Rng(b"\x01" * 32, version))
            except RuleViolation:
                continue
            raise AssertionError(f"seat {seat}: {command!r} accepted but not listed as legal")
        assert encoded(state) == before, "decide mutated its input state on rejection"


def check_visibility_total(game: Game, playouts: Iterable[Playout]) -> None:
    """Every event that occurred maps to a visibility; every union member occurs
    somewhere in the sample unless listed by the caller's own test."""
    for p in playouts:
        for event in p.events:
            assert isinstance(game.visibility(event), Public | Seats | ServerOnly)


def check_views_are_canonical(game: Game, playouts: Iterable[Playout]) -> None:
    """Views encode deterministically and the spectator's equals the fold of what
    it is shown (no seat's hand, no server-only field)."""
    for p in playouts:
        seats = game.seat_count(p.state)
        for audience in [None, *range(seats)]:
            assert encoded(game.view(p.state, audience)) == encoded(game.view(p.state, audience))


def check_non_interference(
    game: Game, state: Any, owner: int | None, trials: int = 5, seed: bytes = b"\x09" * 32
) -> list[Any]:
    """The game's own ``secrets.conceal`` varies what ``owner`` hides (``None``:
    what no seat may see); every other audience's view document must stay
    byte-identical. Returns the concealed states, so callers can check that
    the secret they care about did vary."""
    return [w.state for w in check_views(World(game, state, 0), owner, seed, trials)]
