"""A whole game's read models from its stored log, in one pass: what
``ziggurat rebuild`` writes.

The result equals :func:`shared.readmodels.build.build` over the table folded
from the whole log with every event, byte for byte, less the history feed (a
rebuild leaves it alone: the log does not record the projector's batches).
``tests/readmodels/test_rebuild_models.py`` holds it to that for every game. It
does the same work with less per event, which is what a rebuild is made of:

* each stored envelope is decoded once, into only the fields used here, and
  each event once (a replay through the table cache decodes it twice), a
  whole log's envelopes in one call and its events in another;
* the game's state is folded with the game's own ``evolve``, and the table
  around it only on the platform's events, with the version and the command
  count kept as plain numbers: :func:`shared.kernel.table.evolve` and
  ``count_move`` copy the table on every event;
* each event's visibility is computed once and its feed entry encoded once,
  then filed, as one shared ``(version, entry)`` pair, as it is read: a
  public one into the spectator's feed, one shown to some seats into each
  of theirs; each seat's feed is then the public entries merged with its
  own (one C-level merge of two sorted runs, where filing each public entry
  into every seat's feed took a Python append per seat);
* the views are built once, from the final table, by ``build`` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

import msgspec

from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for, packed_array
from shared.kernel.table import Table, TableEvent
from shared.kernel.visibility import Public, Seats
from shared.readmodels.build import (
    HISTORY,
    SPECTATOR,
    HistoryEntry,
    ReadModels,
    audience_name,
    build,
    view_doc,
)


class _Stored(msgspec.Struct):
    """The fields of a stored envelope a rebuild reads (the others are skipped)."""

    version: int
    command_id: str
    server_time: int
    payload: bytes


_decode_log = msgspec.msgpack.Decoder(list[_Stored]).decode
_opened = msgspec.msgpack.Decoder(tables.TableOpened).decode
_json = msgspec.json.Encoder().encode
#: The platform's own events: exact types, so one set look-up tells them apart.
_TABLE_EVENTS = frozenset(get_args(TableEvent))


def models_from_log(game_id: str, log: Sequence[bytes], history: bool = False) -> ReadModels | None:
    """The read models of ``game_id`` from its stored envelopes, in order
    (``None`` for an empty log).

    With ``history``, also the history feed, one entry per command (the
    spectator's view once its last event is in), for a read-model server that
    lost it: the projector's own entries follow its batches, which the log
    does not record, so this one is finer, and replays and delayed spectators
    find a view at every command instead of none."""
    if not log:
        return None
    stored = _decode_log(packed_array(log))
    opened = _opened(stored[0].payload)
    game = registry.get(opened.game)
    events = codec_for(game).events(packed_array([env.payload for env in stored]))
    evolve = game.evolve
    table_evolve = tables.evolve
    visibility = game.visibility
    table: Table | None = None
    state: Any = None
    moves = 0
    last_command = ""
    table_events = _TABLE_EVENTS
    # The public entries (the spectator's feed), and each seat's others.
    public: list[tuple[int, bytes]] = []
    hidden: list[list[tuple[int, bytes]]] = [[] for _ in range(opened.seats)]
    past: list[tuple[int, bytes]] = []

    def remember(version: int, at: int) -> None:
        """The spectator's view once the command ending at ``version`` is in."""
        assert table is not None
        then = msgspec.structs.replace(
            table, version=version, state=state, moves=moves, last_command=last_command
        )
        doc = msgspec.Raw(_json(view_doc(game_id, then, None)))
        past.append((version, _json(HistoryEntry(moves=moves, at=at, doc=doc))))

    for expected, (env, event) in enumerate(zip(stored, events, strict=True), start=1):
        if env.version != expected:
            raise ValueError(f"{game_id}: event {env.version} does not follow {expected - 1}")
        if env.command_id != last_command:
            if history and table is not None:
                remember(expected - 1, stored[expected - 2].server_time)
            moves += 1
            last_command = env.command_id
        if type(event) in table_events:
            # The platform's events never read or change the game's state.
            table = table_evolve(game, table, event)
            seen = tables.table_visibility(event)
        else:
            state = evolve(state, event)
            seen = visibility(event)
        # The exact types first: isinstance against a struct class it fails
        # costs about 0.2 µs (a metaclass's check), twice an event.
        kind = type(seen)
        if kind is not Public and kind is not Seats:
            if isinstance(seen, Public):
                kind = Public
            elif isinstance(seen, Seats):
                kind = Seats
            else:
                continue  # the server's alone
        item = (
            expected,
            b'{"version":%d,"server_time":%d,"event":%b}' % (expected, env.server_time, _json(event)),
        )
        if kind is Public:
            public.append(item)
        elif isinstance(seen, Seats):
            for seat in seen.seats:
                if 0 <= seat < len(hidden):
                    hidden[seat].append(item)
    if table is None:
        raise ValueError(f"{game_id}: the log does not open with table.opened")
    table = msgspec.structs.replace(
        table, version=len(stored), state=state, moves=moves, last_command=last_command
    )
    models = build(game_id, table, [])
    # Versions are unique, so the merge never compares two entries' bytes.
    by_seat = [sorted(public + own) if own else public for own in hidden]
    seats = {audience_name(seat): feed for seat, feed in enumerate(by_seat)}
    # Any audience but a seat's sees what the spectator sees: the public entries.
    feeds = {name: seats.get(name, public) for name in models.views}
    assert SPECTATOR in feeds and HISTORY not in feeds
    if history:
        remember(table.version, stored[-1].server_time)
        feeds[HISTORY] = past
    models.feeds = feeds
    models.since = 0  # the feeds hold the whole log
    return models


def models_with_history(game_id: str, log: Sequence[bytes]) -> ReadModels | None:
    """:func:`models_from_log` with the history feed: what a restore writes."""
    return models_from_log(game_id, log, history=True)
