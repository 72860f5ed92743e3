"""Store read models with the checkpoint, atomically, for many games per round trip."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.resources import files
from typing import Any

from shared.eventstore.keys import GameKeys, live_tables
from shared.infra.lua import Call, LuaScript
from shared.readmodels.build import ReadModels

_PROJECT = LuaScript(files("shared.readmodels").joinpath("project.lua").read_text())

#: One game's write: its keys, its read models, and the partition-feed entry
#: ids to acknowledge in the same atomic step (empty outside the projector).
Write = tuple[GameKeys, ReadModels, Sequence[bytes]]


def project_call(keys: GameKeys, models: ReadModels, acks: Sequence[bytes] = (), group: str = "") -> Call:
    names = sorted(models.views)
    key_list = [keys.checkpoint, keys.feed, live_tables(keys.partition, models.game)]
    key_list += [keys.view(n) for n in names]
    live = ("0" if models.over else "1") if models.game else ""
    args: list[Any] = [models.version, len(names), group, len(acks), keys.game_id, live, *acks]
    args += [models.views[n] for n in names]
    for name in sorted(models.feeds):
        entries = models.feeds[name]
        if not entries:
            continue
        key_list.append(keys.audience_feed(name))
        index = len(key_list)
        for version, entry in entries:
            args += [index, version, entry]
    return key_list, args


class ReadModelWriter:
    def __init__(self, redis: Any, group: str = "") -> None:
        self.redis = redis
        self.group = group

    async def load(self) -> None:
        """Make sure the server knows the script, for callers that queue it in a
        transaction (where a NOSCRIPT would fail one call after the others ran)."""
        await self.redis.script_load(_PROJECT.source)

    def add(self, pipe: Any, keys: GameKeys, models: ReadModels) -> None:
        """Queue one game's write in a pipeline the caller executes."""
        _PROJECT.queue(pipe, *project_call(keys, models))

    async def write(self, writes: Sequence[Write], then: Callable[[Any], None] | None = None) -> list[Any]:
        """Every game's write in one round trip (reloading the script if the server lost it)."""
        calls = [project_call(k, m, acks, self.group) for k, m, acks in writes]
        return await _PROJECT.run(self.redis, calls, then)
