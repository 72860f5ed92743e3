"""The platform's deciders: each domain's decider folds as its own fold does, and
decides through its rules; a ladder's decides nothing for a table it has rated."""

from __future__ import annotations

from typing import Any

import pytest

from shared.arenas import rules as arenas
from shared.arenas.commands import Create as CreateArena
from shared.arenas.commands import Join
from shared.casual import rules as casual
from shared.casual.commands import CasualSeat, Invite
from shared.kernel.decider import Decider, fold
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.ladders.events import Rated, RatedPlacing
from shared.ladders.ladder import LadderState, decider
from shared.players.commands import Register
from shared.players.decide import DECIDER as PLAYER
from shared.players.decide import fold as fold_player
from shared.tournaments.commands import Create as CreateTournament
from shared.tournaments.commands import Register as Enter
from shared.tournaments.decide import DECIDER as TOURNAMENT
from shared.tournaments.decide import Seeded
from shared.tournaments.evolve import fold as fold_tournament


def _run(rules: Decider[Any, Any, Any], commands: list[Any]) -> tuple[Any, list[Any]]:
    state, log = rules.initial, []
    for command in commands:
        events = list(rules.decide(state, command))
        log += events
        state = fold(rules, events, state)
    return state, log


def test_a_player_account() -> None:
    state, log = _run(PLAYER, [Register(player_id="pa", name="Ann", key_hash="h" * 64)])
    assert state == fold_player(log) and state.name == "Ann"


def test_an_arena() -> None:
    create = CreateArena(
        arena_id="a", game="highcard", game_options={}, seats=2, starts_at_ms=0, ends_at_ms=10**9
    )
    state, log = _run(arenas.DECIDER, [create, Join(player_id="p", at_ms=1)])
    assert state == arenas.fold(log) and state.waiting == ("p",)


def test_a_casual_invitation() -> None:
    seats = (CasualSeat(player_id="host"), CasualSeat(player_id="guest"))
    invite = Invite(invitation_id="i", host="host", game="highcard", game_options={}, seats=seats)
    state, log = _run(casual.DECIDER, [invite])
    assert state == casual.fold(log) and state.host == "host"


def test_a_tournament_draws_from_the_rng_it_is_handed() -> None:
    create = CreateTournament(tournament_id="t", game="highcard", seats_per_table=2, rounds=1)
    seeded = [Seeded(c, Rng(bytes(32), v)) for v, c in enumerate([create, Enter(player_id="p", name="P")])]
    state, log = _run(TOURNAMENT, seeded)
    assert state == fold_tournament(log) and [p.player_id for p in state.players] == ["p"]
    with pytest.raises(RuleViolation):
        TOURNAMENT.decide(state, seeded[0])


def test_a_ladder_rates_a_table_once() -> None:
    ladder = decider("highcard")
    rated = Rated(
        table_id="t1",
        source="casual",
        placings=(RatedPlacing(player_id="a", place=1), RatedPlacing(player_id="b", place=2)),
    )
    assert ladder.initial == LadderState(game="highcard")
    state, log = _run(ladder, [rated, rated])
    assert log == [rated] and state.tables == ("t1",) and state.game == "highcard"
    # A stream's first event folds from nothing to the game's ladder too.
    assert ladder.evolve(None, rated) == state
