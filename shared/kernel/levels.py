"""Bot levels: the names a player picks an opponent by, and how a level moves.

Every hosted game names three bots by level (``easy``, ``medium``, ``hard``;
``hard`` is the search of :mod:`shared.kernel.search`). Tables, tournament
entries, casual invitations and the timeout takeover name a level, and only
these; the older names (``random``, ``greedy``) are read as the levels they
were, so entries recorded before the levels still play.

A bot is handed a whole state, so :func:`choose` hands it the seat's view in
the one form the engine plays on: a determinisation (``Secrets.sample_hidden``),
whose facts hidden from the seat are drawn afresh from what the seat sees. The
bot then cannot read what its seat may not see, whatever it does: the caller
may hold the true state (the platform's bot runner folds it from the store),
the bot never does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal, get_args

from shared.kernel.contract import Bot, GameModule
from shared.kernel.rng import Rng
from shared.kernel.search import SearchBot

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)
#: What a bot seat or entry plays at when nobody says.
DEFAULT: Level = "medium"

#: The bot names recorded before levels existed, read as the level they played at.
_OLD_NAMES: dict[str, Level] = {"random": "easy", "greedy": "medium"}

Game = GameModule[Any, Any, Any, Any]
Clock = Callable[[], float]


def level_of(name: str | None) -> Level:
    """The level a recorded bot name plays at (``None`` or an unknown old name: the default)."""
    if name in LEVELS:
        return name  # type: ignore[return-value]  # narrowed by the membership test
    return _OLD_NAMES.get(name or "", DEFAULT)


def bot(game: Game, level: str) -> Bot:
    """The game's bot named ``level`` (a game without it: its random bot)."""
    return game.bots.get(level) or game.bots["random"]


def seat_world(game: Game, state: Any, seat: int, rng: Rng) -> Any:
    """What ``seat`` may see, as a state: its determinisation. A game without a
    sampler has no search bot; its bots are held to the secrecy test as they are."""
    sample = game.secrets.sample_hidden
    return state if sample is None else sample(state, seat, rng)


def choose(game: Game, state: Any, seat: int, level: str, rng: Rng, clock: Clock | None = None) -> Any:
    """``seat``'s move at ``level``, chosen from the seat's view only. ``clock``:
    the CPU clock a search's budget is measured by (default the process's; a
    caller searching in a thread of a busy process passes the thread's own)."""
    chosen = bot(game, level)
    if clock is not None and isinstance(chosen, SearchBot):
        chosen = replace(chosen, clock=clock)
    return chosen(seat_world(game, state, seat, rng), seat, rng)
