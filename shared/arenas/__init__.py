"""Arenas: a continuous, rated format. Pure, event-sourced, like tournaments.

Players join an arena of one game for its time window; whoever is waiting
is seated at a new table as soon as enough are free (first come, first
seated), and back in the queue when their table ends, until they leave or
the window closes. Every table is rated on the game's ladder; the arena
keeps its own leaderboard (:mod:`standings`).

- :func:`rules.decide` ``(state | None, command) -> list[event]``,
  :func:`rules.evolve`, :func:`rules.fold`
- commands :data:`commands.ArenaCommandUnion`, events :data:`events.ArenaEventUnion`
  (tags ``arena.<snake_name>``), rejection codes in :mod:`codes`.
"""
