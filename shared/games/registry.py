"""Game modules by key.

The built-in games are imported lazily by module path so that a service only
pays for the games it is asked about. Extra modules (a test fixture game, a
third-party game) are named in ``ZIGGURAT_EXTRA_GAMES`` as comma-separated
import paths whose modules expose ``GAMES``: a tuple of :class:`GameModule`.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from shared.kernel.contract import Asset, GameModule

#: key -> the module that defines it (its ``GAMES`` tuple holds the key).
BUILTIN: dict[str, str] = {
    "tigris": "shared.games.tigris",
    "tigris-cards": "shared.games.tigris_cards",
    "catan": "shared.games.catan",
    "catan-ck": "shared.games.catan",
    "conan": "shared.games.conan",
}

_loaded: dict[str, GameModule[Any, Any, Any, Any]] = {}


class UnknownGame(KeyError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def register(module: GameModule[Any, Any, Any, Any]) -> None:
    _loaded[module.key] = module


def _import_games(path: str) -> None:
    for game in importlib.import_module(path).GAMES:
        register(game)


def _load_extras() -> None:
    for path in filter(None, os.environ.get("ZIGGURAT_EXTRA_GAMES", "").split(",")):
        _import_games(path.strip())


def get(key: str) -> GameModule[Any, Any, Any, Any]:
    if key not in _loaded:
        if key in BUILTIN:
            try:
                _import_games(BUILTIN[key])
            except ModuleNotFoundError as exc:
                raise UnknownGame(key) from exc
        else:
            _load_extras()
    if key not in _loaded:
        raise UnknownGame(key)
    return _loaded[key]


def available() -> list[str]:
    """Every key that imports cleanly here, sorted."""
    _load_extras()
    for key in BUILTIN:
        try:
            get(key)
        except UnknownGame:
            continue
    return sorted(_loaded)


def asset(key: str, name: str) -> Asset | None:
    """The file game ``key`` serves by ``name``; ``None`` if there is no such game
    or it serves no such file."""
    try:
        game = get(key)
    except UnknownGame:
        return None
    return None if game.assets is None else game.assets.find(name)
