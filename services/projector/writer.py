"""Store read models with the checkpoint, atomically, for many games per round trip."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from services.projector.read_models import ReadModels
from shared.eventstore.keys import GameKeys

_PROJECT_LUA = files("services.projector").joinpath("project.lua").read_text()


class ReadModelWriter:
    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._project = redis.register_script(_PROJECT_LUA)

    def add(self, pipe: Any, keys: GameKeys, models: ReadModels) -> Any:
        names = sorted(models.views)
        key_list = [keys.checkpoint, *(keys.view(n) for n in names)]
        args: list[Any] = [models.version, len(names), *(models.views[n] for n in names)]
        for name in sorted(models.feeds):
            entries = models.feeds[name]
            if not entries:
                continue
            key_list.append(keys.audience_feed(name))
            index = len(key_list)
            for version, entry in entries:
                args += [index, version, entry]
        return self._project(keys=key_list, args=args, client=pipe)
