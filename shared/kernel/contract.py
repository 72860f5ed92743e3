"""The game-module contract: what every game provides, used identically by the
validator, the reducer, the projector, the bots and the tests.

A game is a value of :class:`GameModule`: a bundle of pure functions over
frozen msgspec structs. The services never import a game directly; they look
it up in :mod:`shared.games.registry` by key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from shared.kernel.legal_groups import LegalGroup, one_each
from shared.kernel.messages import Record
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience, Visibility

S = TypeVar("S")  # the full, server-side state
C = TypeVar("C")  # the command union
E = TypeVar("E")  # the event union
O = TypeVar("O", bound=msgspec.Struct)  # the options struct


class Standing(Record, frozen=True):
    """One seat's final placing. Equal ``place`` means a shared place."""

    seat: int
    place: int
    score: int
    #: The values compared after ``score``, in order (the game documents them).
    tiebreak: tuple[int, ...] = ()


class Result(Record, frozen=True):
    standings: tuple[Standing, ...]
    #: Why the game ended, in the game's own words (``"treasures"``, ``"bag_empty"``).
    reason: str


#: A bot chooses a command for ``seat``. It receives the full state but must only
#: use what that seat may see; bots are tested for that like views are.
Bot = Callable[[Any, int, Rng], Any]


def no_ids(*_: Any) -> frozenset[str]:
    """For games whose hidden items are interchangeable (tiles or cards counted
    by colour or kind): there is no item id that could leak."""
    return frozenset()


@dataclass(frozen=True, slots=True)
class Secrets(Generic[S, E]):
    """What a game keeps hidden, stated by the game itself so that one generic
    test (``tests/games/secrecy``) can vary it and check that nothing leaks."""

    #: ``conceal(state, owner, rng)``: another state that differs from ``state``
    #: only in facts that ``owner`` keeps hidden from every other audience right
    #: now (its hand, its sealed choices), or, for ``owner = None``, in facts no
    #: seat may see (deck and bag orders). Public facts (hand sizes, deck sizes)
    #: stay as they are, and the result is a state the game can play on from.
    conceal: Callable[[S, Audience, Rng], S]
    #: ``reveals(event, audience)``: whether ``event`` shows ``audience`` a fact
    #: that was hidden from it until then (a draw, a steal, a card played from
    #: a secret hand, sealed bids turned over, the final scores). Only such an
    #: event may differ between two states that ``conceal`` made: an audience
    #: gets the same events from both until one does.
    reveals: Callable[[E, Audience], bool]
    #: ``hidden_ids(state, audience)``: the ids of uniquely identified items
    #: (a numbered card, a token) whose identity ``audience`` may not know in
    #: ``state``.
    hidden_ids: Callable[[S, Audience], frozenset[str]] = no_ids
    #: ``named_ids(event)``: the item ids ``event`` carries, in the same id space.
    #: No event delivered to an audience may name an id hidden from it.
    named_ids: Callable[[E], frozenset[str]] = no_ids
    #: ``sample_hidden(state, seat, rng)``: a determinisation for a search bot
    #: (:mod:`shared.kernel.search`): a state the game can play on whose facts
    #: hidden from ``seat`` are drawn at random among those consistent with
    #: what it may see, so that ``view`` and ``legal`` of ``seat`` are unchanged.
    #: It reads only what ``seat`` may see: ``conceal`` of any other owner
    #: leaves its answer, for the same ``rng``, byte-identical. ``None``: the
    #: game has no search bot.
    sample_hidden: Callable[[S, int, Rng], S] | None = None


@dataclass(frozen=True, slots=True)
class Asset:
    """A public file a game serves beside its views, the same for every table
    that uses it (a content pack's map): a client fetches it once instead of
    finding it in every view, which names it by ``digest``."""

    media_type: str
    body: bytes
    #: A hash of exactly ``body``: asked for with it, the answer never changes
    #: (a client caches it for good); a changed body gets another one.
    digest: str


def pack_board(pack: str) -> str:
    """The asset name of a content pack's map: the gateway serves it at
    ``GET /v1/games/{key}/packs/{pack}/board``."""
    return f"packs/{pack}/board"


@dataclass(frozen=True, slots=True)
class Assets:
    """The files a game serves, by name (:func:`pack_board`), so the gateway
    serves any game's without naming one."""

    #: ``find(name)``: the asset by that name, or ``None`` if the game has none.
    #: Called on every request for it: answer from memory (the game's own files
    #: are read once, when the registry imports it).
    find: Callable[[str], Asset | None]
    #: The structs the JSON assets encode, so the API document describes them.
    types: tuple[type[msgspec.Struct], ...] = ()


@dataclass(frozen=True, slots=True)
class GameModule(Generic[S, C, E, O]):
    key: str
    title: str
    min_seats: int
    max_seats: int
    #: The named options (every [D]/[Q] point of the digest) with their defaults.
    options_type: type[O]
    #: Tagged unions: the types handed to msgspec decoders.
    command_type: Any
    event_type: Any
    #: ``create(options, seats, rng)``: the opening events (setup, shuffles, deals).
    create: Callable[[O, int, Rng], list[E]]
    #: ``evolve(state, event)``: fold one event. ``state`` is ``None`` only for
    #: the first event. Applies recorded facts; never draws, never re-checks rules.
    evolve: Callable[[S | None, E], S]
    #: ``decide(state, seat, command, rng)``: the events a command causes, or
    #: raise :class:`shared.kernel.rejection.RuleViolation`. Never mutates ``state``.
    decide: Callable[[S, int, C, Rng], list[E]]
    #: The number of seats at the table.
    seat_count: Callable[[S], int]
    #: The seats awaited now (several at once for simultaneous decisions).
    actors: Callable[[S], frozenset[int]]
    #: Every command ``seat`` may legally issue now; ``decide`` accepts exactly these.
    legal: Callable[[S, int], list[C]]
    #: What one seat (an ``int``) or a spectator (``None``) may see. Canonical:
    #: equal information gives byte-identical encodings.
    view: Callable[[S, Audience], msgspec.Struct]
    #: Every event's audience, an exhaustive match with no default arm.
    visibility: Callable[[E], Visibility]
    #: The final ranking once the game is over, else ``None``.
    result: Callable[[S], Result | None]
    #: What the game keeps hidden and how it may be varied; required, so that
    #: every registered game is held to the same secrecy test.
    secrets: Secrets[S, E]
    #: ``legal_groups(state, seat)``: ``legal`` in the compact form view documents
    #: carry (:mod:`shared.kernel.legal_groups`), built from the game's own
    #: structures where that pays (Tigris's square masks); ``None``: each command
    #: its own group. Read it through :meth:`compact_legal`.
    legal_groups: Callable[[S, int], list[LegalGroup]] | None = None
    #: The state struct, for decoding snapshots; ``None`` disables snapshots.
    state_type: Any = None
    #: Named bots, at least ``"random"``; the levels (:mod:`shared.kernel.levels`)
    #: ``"easy"``, ``"medium"`` and ``"hard"`` for every hosted game.
    bots: Mapping[str, Bot] = field(default_factory=dict)
    #: The default options of this registration (``catan`` and ``catan-ck``
    #: share code and differ here).
    default_options: Mapping[str, Any] = field(default_factory=dict)
    #: Files the game serves beside its views; ``None``: it serves none.
    assets: Assets | None = None

    def options(self, overrides: Mapping[str, Any] | None = None) -> O:
        """Validate ``overrides`` over this registration's defaults."""
        merged = {**self.default_options, **(overrides or {})}
        return msgspec.convert(merged, self.options_type)

    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        for event in events:
            state = self.evolve(state, event)
        if state is None:
            raise ValueError("cannot fold an empty event list without a state")
        return state

    def compact_legal(self, state: S, seat: int) -> list[LegalGroup]:
        """``legal(state, seat)`` as groups; expanded, exactly that list in order."""
        if self.legal_groups is None:
            return one_each(self.legal(state, seat))
        return self.legal_groups(state, seat)

    def is_over(self, state: S) -> bool:
        return self.result(state) is not None
