"""What the end-to-end tests check about a finished table, straight from the store."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.eventstore.tables import decode_all, fold_all
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.visibility import may_see
from shared.readmodels.audit import AuditLog, verify_log
from shared.readmodels.build import audience_name, build, view_doc

_json = msgspec.json.Encoder().encode


async def check_finished_table(api: httpx.AsyncClient, redis: Any, table_id: str, partitions: int) -> None:
    keys = GameKeys(table_id, partition_of(table_id, partitions))
    store = EventStore(redis)
    envelopes = await store.read(keys)
    _every_event_once(envelopes, await store.commands(keys))
    table = fold_all(envelopes)
    assert table is not None and table.over
    game = registry.get(table.game)
    events = decode_all(table.game, envelopes)
    for audience in [None, *range(table.seats)]:
        name = audience_name(audience)
        # The projector's view equals the view of the state folded from the store.
        assert await redis.get(keys.view(name)) == _json(view_doc(table_id, table, audience))
        # Each feed holds exactly the events this audience may see, nothing else.
        feed = [msgspec.json.decode(f[b"e"]) for _, f in await redis.xrange(keys.audience_feed(name))]
        allowed = [
            (env.version, ev)
            for env, ev in zip(envelopes, events, strict=True)
            if may_see(tables.visibility(game, ev), audience)
        ]
        held, due = [entry["version"] for entry in feed], [v for v, _ in allowed]
        assert held == due, (
            f"{table_id}: the {name} feed lacks versions {sorted(set(due) - set(held))[:20]} "
            f"and holds versions it may not {sorted(set(held) - set(due))[:20]} "
            f"({len(held)} entries, {len(due)} due, the log at {len(envelopes)})"
        )
        codec = codec_for(game)
        for entry, (_, event) in zip(feed, allowed, strict=True):
            assert codec.event_from_json(_json(entry["event"])) == event
    models = build(
        table_id, table, [(e.version, e.server_time, ev) for e, ev in zip(envelopes, events, strict=True)]
    )
    assert models.views == {name: await redis.get(keys.view(name)) for name in models.views}
    audit = await api.get(f"/v1/tables/{table_id}/audit")
    assert audit.status_code == 200
    _, verdict = verify_log(msgspec.json.decode(audit.content, type=AuditLog))
    assert verdict.fair, verdict.problems


def _every_event_once(envelopes: list[Any], commands: list[Any]) -> None:
    versions = [e.version for e in envelopes]
    assert versions == list(range(1, len(versions) + 1)), "versions must be contiguous"
    assert len({e.event_id for e in envelopes}) == len(envelopes)
    command_ids = [c.command_id for c in commands]
    assert len(set(command_ids)) == len(command_ids), "a command was applied twice"
    by_command: dict[str, list[int]] = {}
    for e in envelopes:
        by_command.setdefault(e.command_id, []).append(e.version)
    for c in commands:
        got = by_command[c.command_id]
        assert got == list(range(c.version + 1, c.version + 1 + len(got))), (
            "a command's events are not contiguous"
        )
