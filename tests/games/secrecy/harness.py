"""The generic secrecy checks, driven by each game's own :class:`Secrets`.

Two worlds: a reachable state, and ``conceal(state, owner)`` of it, which
differs only in what ``owner`` hides (``None``: what nobody sees). Everything
the projector delivers to any other audience must be byte-identical in both
worlds: the view document (view, awaited seats, the seat's legal commands,
result) and, command after command, the redacted feed with its versions,
until the game says an event reveals something to that audience.

Choices a view is blind to are checked too: two commands of one seat that
leave an audience's view the same must leave its feed the same.

The check on ids runs along a whole game: no event delivered to an audience
names an item whose identity that audience may not know after the event.

Everything goes through :func:`shared.readmodels.build.build`, so what
is compared is exactly what a client would receive. A game module that is not
registered (the deliberately leaky ones of the harness's own tests) must be
put in the registry by the caller.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.contract import GameModule
from shared.kernel.playout import Playout, play
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience
from shared.readmodels.build import audience_name, build

Game = GameModule[Any, Any, Any, Any]
_GAME_ID = "secrecy"
encode = msgspec.json.Encoder().encode


class Leak(AssertionError):
    """An audience could tell two worlds apart that differ only in what it may not see."""


class _Entry(msgspec.Struct):
    version: int
    event: msgspec.Raw


_entry = msgspec.json.Decoder(_Entry)


def audiences(seats: int) -> list[Audience]:
    return [None, *range(seats)]


def _table(game: Game, state: Any, version: int) -> tables.Table:
    return tables.Table(
        game=game.key,
        seats=game.seat_count(state),
        options={},
        commitment="",
        opened_at=0,
        version=version,
        state=state,
        result=game.result(state),
    )


@dataclass
class World:
    """A state as the projector holds it, with the feed of its latest command."""

    game: Game
    state: Any
    version: int
    #: audience -> [(event, the feed entry's bytes)] of the latest command
    feeds: dict[Audience, list[tuple[Any, bytes]]] = field(default_factory=dict)

    def docs(self) -> dict[Audience, bytes]:
        models = build(_GAME_ID, _table(self.game, self.state, self.version), [])
        return {a: models.views[audience_name(a)] for a in audiences(self.game.seat_count(self.state))}

    def after(self, seat: int, command: Any, rng: Rng) -> World:
        events = self.game.decide(self.state, seat, command, rng)
        state = self.game.fold(events, self.state)
        version = self.version + len(events)
        new = [(v, 0, e) for v, e in enumerate(events, start=self.version + 1)]
        models = build(_GAME_ID, _table(self.game, state, version), new)
        by_version = {v: e for v, _, e in new}
        feeds = {
            a: [(by_version[v], raw) for v, raw in models.feeds[audience_name(a)]]
            for a in audiences(self.game.seat_count(state))
        }
        return World(self.game, state, version, feeds)


def states(game: Game, seats: int, seed: bytes, count: int, max_steps: int = 20_000) -> list[World]:
    """``count`` reachable states between commands of one random game, spread over it."""
    p = play(game, seats, seed, max_steps=max_steps)
    rng = Rng(seed, 1)
    last = len(p.steps) - 1 if game.is_over(p.state) else len(p.steps)
    picks = sorted({rng.below(max(1, last)) for _ in range(count)})
    out = []
    state = game.fold(p.opening)
    version = len(p.opening)
    for i, step in enumerate(p.steps):
        if i in picks:
            out.append(World(game, state, version))
        state = game.fold(step.events, state)
        version += len(step.events)
    return out


def check_views(world: World, owner: Audience, seed: bytes, trials: int) -> list[World]:
    """``trials`` concealed worlds, each giving every audience but ``owner`` the
    same view document as ``world``."""
    game = world.game
    baseline = world.docs()
    out = []
    for trial in range(trials):
        other = World(game, game.secrets.conceal(world.state, owner, Rng(seed, trial)), world.version)
        docs = other.docs()
        for audience, doc in baseline.items():
            if (owner is None or audience != owner) and docs[audience] != doc:
                raise Leak(
                    f"{game.key}: {_who(audience)}'s view depends on {_secrets_of(owner)} "
                    f"(at version {world.version})"
                )
        out.append(other)
    return out


def check_game(game: Game, seats: int, seed: bytes, count: int = 4, trials: int = 2, steps: int = 4) -> None:
    """Non-interference on ``count`` states of a random game, for every owner
    (views, then the feeds of the commands that follow) and for the choices of
    the seats awaited; and that ``conceal`` varies something real: for a seat,
    something its own view shows, for ``None``, the state."""
    worlds = states(game, seats, seed, count)
    varied: dict[Audience, int] = dict.fromkeys(audiences(seats), 0)
    for n, world in enumerate(worlds):
        check_choices(world, seed)
        before = world.docs()
        raw = encode(world.state)
        for owner in audiences(seats):
            tag = seed + bytes((n, 0 if owner is None else owner + 1))
            key = hashlib.blake2b(tag, digest_size=32).digest()
            for other in check_views(world, owner, key, trials):
                if encode(other.state) != raw and (owner is None or other.docs()[owner] != before[owner]):
                    varied[owner] += 1
                check_feeds(world, other, owner, key, steps)
    unvaried = [_secrets_of(owner) for owner, n in varied.items() if not n]
    assert not unvaried, f"{game.key}: conceal never varied {unvaried} in {len(worlds)} states"


def check_feeds(a: World, b: World, owner: Audience, seed: bytes, steps: int) -> int:
    """Play the same commands in both worlds. Each other audience must get the
    same feed entries until the first one that differs, and that one must be an
    event the game says reveals something to it; from then on it is a learner
    and no longer compared. Non-learners must keep identical view documents
    until the game is over (the published result reveals every score). Returns
    the number of commands played."""
    game = a.game
    learners: set[Audience] = set() if owner is None else {owner}
    rng = Rng(seed, 7)
    for step in range(steps):
        if game.is_over(a.state) or game.is_over(b.state):
            return step
        # Commands that both worlds accept: a learner's options may differ.
        seat = rng.choice(sorted(game.actors(a.state)))
        in_b = {encode(c) for c in game.legal(b.state, seat)}
        choices = [c for c in game.legal(a.state, seat) if encode(c) in in_b]
        if not choices:
            return step
        command = rng.choice(choices)
        a = a.after(seat, command, Rng(seed, 1000 + step))
        b = b.after(seat, command, Rng(seed, 1000 + step))
        context = f"with {_secrets_of(owner)} varied, after seat {seat} played {command!r},"
        for audience in audiences(game.seat_count(a.state)):
            if audience in learners:
                continue
            if _learns(game, a.feeds[audience], b.feeds[audience], audience, context):
                learners.add(audience)
        if game.is_over(a.state) or game.is_over(b.state):
            return step + 1
        docs_a, docs_b = a.docs(), b.docs()
        for audience, doc in docs_a.items():
            if audience not in learners and docs_b[audience] != doc:
                raise Leak(
                    f"{game.key}: {_who(audience)}'s view depends on {_secrets_of(owner)}, "
                    f"after seat {seat} played {command!r}"
                )
    return steps


def _learns(
    game: Game, fa: list[tuple[Any, bytes]], fb: list[tuple[Any, bytes]], audience: Audience, context: str
) -> bool:
    """Whether the two feeds part at an event that reveals something to
    ``audience``; raises :class:`Leak` if they part anywhere else."""
    for i in range(max(len(fa), len(fb))):
        ea, eb = (fa[i] if i < len(fa) else None), (fb[i] if i < len(fb) else None)
        if ea is not None and eb is not None and ea[1] == eb[1]:
            continue
        if any(e is not None and game.secrets.reveals(e[0], audience) for e in (ea, eb)):
            return True
        entry = (ea or eb)[1]  # type: ignore[index]
        raise Leak(
            f"{game.key}: {context} {_who(audience)}'s feed parts at {entry!r}, "
            "an event that reveals nothing by the game's rules"
        )
    return False


def check_choices(world: World, seed: bytes, per_kind: int = 3) -> int:
    """A seat's choice that an audience's view is blind to (a face-down card, a
    sealed bid) must not reach that audience's feed either: among commands of
    one kind, two that lead to different states which that audience's view
    document cannot tell apart must give it the same feed, up to an event that
    reveals. Returns the number of (pair, audience) comparisons made."""
    game = world.game
    rng = Rng(seed, 11)
    compared = 0
    everyone = audiences(game.seat_count(world.state))
    for seat in sorted(game.actors(world.state)):
        kinds: dict[type, list[Any]] = {}
        for command in game.legal(world.state, seat):
            kinds.setdefault(type(command), []).append(command)
        for kind, commands in kinds.items():
            context = f"between two {kind.__name__} choices of seat {seat} it cannot see apart,"
            worlds = [world.after(seat, c, Rng(seed, 3)) for c in rng.shuffled(commands)[:per_kind]]
            states = [encode(w.state) for w in worlds]
            docs = [w.docs() for w in worlds]
            for audience in everyone:
                if audience == seat:
                    continue
                alike: dict[bytes, int] = {}
                for i, doc in enumerate(docs):
                    j = alike.setdefault(doc[audience], i)
                    # Equal states: the commands differed only in public steps
                    # whose traces are gone (a piece moved on), which feeds may show.
                    if j != i and states[j] != states[i]:
                        compared += 1
                        _learns(game, worlds[j].feeds[audience], worlds[i].feeds[audience], audience, context)
    return compared


def check_ids(game: Game, p: Playout, seed: bytes) -> int:
    """No delivered event names an id hidden from its audience after it. Returns
    how many (event, audience) pairs named any id, so callers can tell that the
    check had something to look at."""
    seats = game.seat_count(p.state)
    events = tables.open_table(game, seats, {}, seed, ("",) * seats, 0)
    assert events[2:] == list(p.opening), "the table opens the way the playout did"
    events += [e for step in p.steps for e in step.events]
    # The game's state after each version, for the ids hidden at that point.
    after: dict[int, Any] = {}
    table = None
    for version, event in enumerate(events, start=1):
        table = tables.evolve(game, table, event)
        after[version] = table.state
    assert table is not None
    models = build(_GAME_ID, table, [(v, 0, e) for v, e in enumerate(events, start=1)])
    codec = codec_for(game)
    named = 0
    for audience in audiences(seats):
        for _, raw in models.feeds[audience_name(audience)]:
            entry = _entry.decode(raw)
            event = codec.event_from_json(entry.event)
            if isinstance(event, tables.TableEvent):
                continue
            ids = game.secrets.named_ids(event)
            named += bool(ids)
            leaked = ids & game.secrets.hidden_ids(after[entry.version], audience)
            if leaked:
                raise Leak(
                    f"{game.key}: {_who(audience)} is sent {sorted(leaked)} at version "
                    f"{entry.version}, hidden from it: {bytes(entry.event)!r}"
                )
    return named


def _who(audience: Audience) -> str:
    return "the spectator" if audience is None else f"seat {audience}"


def _secrets_of(owner: Audience) -> str:
    return "what no seat may see" if owner is None else f"what seat {owner} hides"
