"""From a finished game's :class:`Result` to the tournament's record of it."""

from __future__ import annotations

from collections.abc import Sequence

from shared.kernel.contract import Result
from shared.kernel.rejection import require
from shared.tournaments import codes
from shared.tournaments.commands import Placing, RecordResult
from shared.tournaments.state import TournamentState, find_table


def placings_of(result: Result, players: Sequence[str]) -> tuple[Placing, ...]:
    """Seat ``i`` of the game is ``players[i]`` (the table's seat order)."""
    return tuple(
        Placing(seat=s.seat, player_id=players[s.seat], place=s.place, score=s.score)
        for s in sorted(result.standings, key=lambda s: s.seat)
    )


def record_command(
    state: TournamentState, game_id: str, result: Result, at_ms: int = 0
) -> RecordResult | None:
    """The command the process manager sends when game ``game_id`` is over;
    ``None`` when that game is not a table of this tournament."""
    found = find_table(state, game_id)
    if found is None:
        return None
    placings = placings_of(result, found[1].players)
    return RecordResult(game_id=game_id, placings=placings, reason=result.reason, at_ms=at_ms)


def check_placings(players: Sequence[str], placings: Sequence[Placing]) -> None:
    """Reject a result that does not describe exactly this table (sorted by seat)."""
    require(
        [p.seat for p in placings] == list(range(len(players))),
        codes.INVALID_RESULT,
        f"A result must give every seat 0..{len(players) - 1} exactly once.",
    )
    for p in placings:
        require(
            p.player_id == players[p.seat],
            codes.INVALID_RESULT,
            f"Seat {p.seat} is {players[p.seat]}, not {p.player_id}.",
            seat=p.seat,
        )
    places = sorted(p.place for p in placings)
    # Competition ranking: a place is one more than the number of seats ahead.
    expected = [1 + sum(q < place for q in places) for place in places]
    require(places == expected, codes.INVALID_RESULT, "Places must be 1, 2, ... with shared places skipping.")
