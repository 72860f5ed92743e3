"""What the projector stores for each audience of a game, computed purely.

For the spectator and for each seat: a view document (the game's view, who is
awaited, the seat's legal commands in their compact form, the result once over) and a feed of the
events that audience may see. Both are derived from the full table state and
the events, so :func:`build` is also what ``ziggurat rebuild`` runs.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.contract import GameModule, Result
from shared.kernel.legal_groups import LegalGroup
from shared.kernel.messages import Record
from shared.kernel.table import Table
from shared.kernel.visibility import Audience, ServerOnly, may_see

SPECTATOR = "spectator"
#: The spectator's view after every projected batch: replays and delayed spectators read it.
HISTORY = "history"
_json = msgspec.json.Encoder().encode


class ViewDoc(Record, frozen=True):
    game_id: str
    game: str
    version: int
    seats: int
    seat: int | None
    commitment: str
    actors: tuple[int, ...]
    over: bool
    view: Any
    #: The seat's legal commands, grouped (``shared.kernel.legal_groups`` says how
    #: to expand them); empty unless the seat is awaited.
    legal: tuple[LegalGroup, ...] = ()
    result: Result | None = None
    seed: str = ""  # revealed once the game is over
    #: Seat clocks (ms left per seat, and since when the awaited seats' run).
    clock: ClockSettings | None = None
    remaining: tuple[int, ...] = ()
    clock_since: int = 0
    forfeited: tuple[int, ...] = ()
    moves: int = 0
    spectator_delay: SpectatorDelay | None = None


# -- projections of a view document: the fields a reader needs, decoded without
# the game's view (the gateway reads one on every push, reply and listing line).
# tests/readmodels/test_projections.py holds each to ViewDoc's fields and types.


class ViewVersion(Record, frozen=True):
    """A projection of :class:`ViewDoc`: its version alone (a play connection's pushes)."""

    projection_of: ClassVar[type[Record]] = ViewDoc
    version: int = 0


class ViewStatus(Record, frozen=True):
    """A projection of :class:`ViewDoc`: where the game stands (waits, spectator
    delays, whose turn a bot is told of)."""

    projection_of: ClassVar[type[Record]] = ViewDoc
    over: bool = False
    version: int = 0
    moves: int = 0
    actors: tuple[int, ...] = ()
    spectator_delay: SpectatorDelay | None = None


class ViewHead(Record, frozen=True):
    """A projection of :class:`ViewDoc`: a table's public state as a listing shows it,
    without the game's view or the seat's legal commands."""

    projection_of: ClassVar[type[Record]] = ViewDoc
    game_id: str
    game: str
    version: int
    seats: int
    actors: tuple[int, ...] = ()
    over: bool = False
    moves: int = 0
    result: Result | None = None
    clock: ClockSettings | None = None
    remaining: tuple[int, ...] = ()
    clock_since: int = 0
    forfeited: tuple[int, ...] = ()
    spectator_delay: SpectatorDelay | None = None
    commitment: str = ""
    seed: str = ""


class FeedEntry(Record, frozen=True):
    version: int
    server_time: int
    event: Any


class HistoryEntry(Record, frozen=True):
    """The spectator's view as of ``moves`` commands, made at server time ``at``."""

    moves: int
    at: int
    doc: msgspec.Raw


class ReadModels(msgspec.Struct, kw_only=True):
    version: int
    views: dict[str, bytes]  # audience name -> ViewDoc JSON
    feeds: dict[str, list[tuple[int, bytes]]]  # audience name -> [(version, FeedEntry JSON)]
    #: The game's key and whether it is over: the write keeps the store's live sets.
    game: str = ""
    over: bool = False
    #: The version the feeds continue from: their entries up to it are written
    #: already (0: the models hold the whole log's). The write refuses models
    #: whose stored checkpoint is below it rather than leave a hole in the feeds.
    since: int = 0


def audience_name(audience: Audience) -> str:
    return SPECTATOR if audience is None else f"seat{audience}"


def audiences(table: Table) -> list[Audience]:
    return [None, *range(table.seats)]


def view_doc(game_id: str, table: Table, audience: Audience) -> ViewDoc:
    game = registry.get(table.game)
    return _view_doc(game, game_id, table, audience, _actors(game, table))


def _actors(game: GameModule[Any, Any, Any, Any], table: Table) -> tuple[int, ...]:
    state = table.state
    return () if table.over or state is None else tuple(sorted(game.actors(state)))


def _view_doc(
    game: GameModule[Any, Any, Any, Any],
    game_id: str,
    table: Table,
    audience: Audience,
    actors: tuple[int, ...],
) -> ViewDoc:
    state = table.state
    over = table.over
    # Legal commands only for the awaited seats: the game contract (checked for
    # every game in tests/games/contract_checks.py) lists none for any other.
    legal: tuple[LegalGroup, ...] = ()
    if audience is not None and audience in actors:
        legal = tuple(game.compact_legal(state, audience))
    return ViewDoc(
        game_id=game_id,
        game=table.game,
        version=table.version,
        seats=table.seats,
        seat=audience,
        commitment=table.commitment,
        actors=actors,
        over=over,
        view=game.view(state, audience) if state is not None else None,
        legal=legal,
        result=table.result,
        seed=table.seed if over else "",
        clock=table.clock,
        remaining=table.remaining,
        clock_since=table.since,
        forfeited=table.forfeited,
        moves=table.moves,
        spectator_delay=table.spectator_delay,
    )


def build(game_id: str, table: Table, new_events: list[tuple[int, int, Any]]) -> ReadModels:
    """``new_events``: (version, server_time, event) not yet in the feeds."""
    game = registry.get(table.game)
    actors = _actors(game, table)
    # Each event's visibility and feed entry once: the entry's bytes are the same
    # in every feed that may hold it.
    entries = [
        (seen, version, _json(FeedEntry(version=version, server_time=at, event=event)))
        for version, at, event in new_events
        if not isinstance(seen := tables.visibility(game, event), ServerOnly)
    ]
    views: dict[str, bytes] = {}
    feeds: dict[str, list[tuple[int, bytes]]] = {}
    for audience in audiences(table):
        name = audience_name(audience)
        views[name] = _json(_view_doc(game, game_id, table, audience, actors))
        feeds[name] = [(version, entry) for seen, version, entry in entries if may_see(seen, audience)]
    if new_events:
        newest = max(at for _, at, _ in new_events)
        entry = HistoryEntry(moves=table.moves, at=newest, doc=msgspec.Raw(views[SPECTATOR]))
        feeds[HISTORY] = [(table.version, _json(entry))]
    since = min(v for v, _, _ in new_events) - 1 if new_events else table.version
    return ReadModels(
        version=table.version, views=views, feeds=feeds, game=table.game, over=table.over, since=since
    )
