"""OpenSkill ratings (Plackett-Luce), replayed from the recorded results.

A pure function of the results in the order they were recorded: recomputing
from the log gives the same numbers, bit for bit, because the same float
operations run in the same order. Every player starts from the model's
default (or from ``prior``, e.g. ratings carried over from earlier
tournaments); every table is one match where each player is a team of one,
ranked by place (shared places are ties). Byes are not matches: nobody was
beaten.

The display number is the ordinal ``mu - 3 * sigma``: a rating the player is
very likely above, so newcomers with few games do not top the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

from shared.kernel.messages import Record
from shared.tournaments.commands import Placing
from shared.tournaments.state import TournamentState, results_in_order


class Rating(Record, frozen=True):
    player_id: str
    mu: float
    sigma: float
    ordinal: float
    games: int


def _model() -> PlackettLuce:
    # One fixed configuration: changing it would change every replayed number.
    return PlackettLuce()


def ratings(
    results: Iterable[Sequence[Placing]],
    prior: Mapping[str, tuple[float, float]] | None = None,
    players: Iterable[str] = (),
) -> dict[str, Rating]:
    """Player -> rating after replaying ``results`` (each a table's placings) in
    order; ``players`` who never played are listed with their starting rating."""
    model = _model()
    current = {pid: model.rating() for pid in players}
    current.update({pid: model.rating(mu=mu, sigma=sigma) for pid, (mu, sigma) in (prior or {}).items()})
    games: dict[str, int] = {}
    for placings in results:
        if len(placings) < 2:
            continue
        ids = [p.player_id for p in placings]
        teams = [[current.get(pid) or model.rating()] for pid in ids]
        rated = model.rate(teams, ranks=[float(p.place) for p in placings])
        for pid, (new,) in zip(ids, rated, strict=True):
            current[pid] = new
            games[pid] = games.get(pid, 0) + 1
    return {
        pid: Rating(player_id=pid, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal(), games=games.get(pid, 0))
        for pid, r in sorted(current.items())
    }


def tournament_ratings(
    state: TournamentState, prior: Mapping[str, tuple[float, float]] | None = None
) -> dict[str, Rating]:
    """Ratings of a tournament's players from its results, in recorded order; a
    player account starts from the ladder rating it was registered with."""
    carried = {p.player_id: p.rating for p in state.players if p.rating is not None}
    return ratings(
        results_in_order(state), {**carried, **(prior or {})}, (p.player_id for p in state.players)
    )
