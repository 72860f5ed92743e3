"""Creating a tournament: resolve the organiser's request into :class:`Settings`."""

from __future__ import annotations

from shared.kernel.rejection import require
from shared.tournaments import codes
from shared.tournaments.commands import Create
from shared.tournaments.events import Created, TournamentEventUnion
from shared.tournaments.settings import Settings, default_bye_points, default_points, settings_problems


def resolve(cmd: Create) -> Settings:
    """The request with every default filled in (see :mod:`shared.tournaments.settings`)."""
    seats = cmd.seats_per_table
    points = cmd.points if cmd.points is not None else default_points(max(seats, 1))
    bye = cmd.bye_points if cmd.bye_points is not None else default_bye_points(points or (0,))
    return Settings(
        name=cmd.name or cmd.tournament_id,
        game=cmd.game,
        game_options=dict(cmd.game_options),
        format=cmd.format,
        seats_per_table=seats,
        min_table_size=cmd.min_table_size if cmd.min_table_size is not None else seats,
        rounds=0 if cmd.format == "elimination" else cmd.rounds,
        clock=cmd.clock,
        points=points,
        bye_points=bye,
        delay=cmd.delay,
        qualifiers=cmd.qualifiers,
    )


def create(cmd: Create) -> list[TournamentEventUnion]:
    """The opening event of a tournament, or a rejection listing every problem."""
    require(bool(cmd.tournament_id), codes.INVALID_SETTINGS, "A tournament needs an id.")
    settings = resolve(cmd)
    problems = settings_problems(settings)
    require(not problems, codes.INVALID_SETTINGS, "; ".join(problems).capitalize() + ".", problems=problems)
    return [Created(tournament_id=cmd.tournament_id, settings=settings, at_ms=cmd.at_ms)]
