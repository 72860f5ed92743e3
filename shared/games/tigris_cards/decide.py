"""The rules' front door: check who may act, then dispatch on (phase, command)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.tigris_cards.commands import (
    BuildShip,
    ChooseConflictColour,
    CommitSupport,
    Decline,
    Pass,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    PlayConnector,
    ScoreCard,
    TakeTreasure,
    TigrisCardsCommand,
    WithdrawLeader,
)
from shared.games.tigris_cards.events import ActionTaken, Passed, TigrisCardsEvent
from shared.games.tigris_cards.legal import actions_of, actors
from shared.games.tigris_cards.rules import catastrophes, conflicts, connecting, leaders, offers, playing
from shared.games.tigris_cards.rules.draft import Draft
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import (
    Act,
    ChooseConflict,
    Over,
    ShipOffer,
    State,
    Support,
    TreasureOffer,
    VpOffer,
)
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE, RuleViolation, require
from shared.kernel.rng import Rng


def decide(state: State, seat: int, command: TigrisCardsCommand, rng: Rng) -> list[TigrisCardsEvent]:
    require(not isinstance(state.phase, Over), GAME_OVER, "The game is over.")
    require(seat in actors(state), NOT_YOUR_TURN, "You are not awaited now.", seat=seat)
    handler = _HANDLERS.get((type(state.phase), type(command)))
    if handler is None:
        raise RuleViolation(
            WRONG_PHASE,
            f"{type(command).__name__} is not possible during {type(state.phase).__name__}.",
            phase=type(state.phase).__name__,
        )
    draft = Draft(state, rng)
    handler(draft, seat, command)
    return draft.events


def _pass(d: Draft, seat: int, command: Pass) -> None:
    require(
        d.state.options.allow_pass or not actions_of(d.state, seat),
        "pass_not_allowed",
        "You may only pass when no action is possible.",
    )
    d.emit(ActionTaken(seat=seat, left=d.state.actions_left - 1), Passed(seat=seat))
    end_action(d)


def _choose(d: Draft, seat: int, command: ChooseConflictColour) -> None:
    phase = d.state.phase
    assert isinstance(phase, ChooseConflict)
    require(command.colour in phase.colours, "no_such_conflict", "No conflict of that colour is open.")
    connecting.begin_external(d, command.colour)


_HANDLERS: dict[tuple[type, type], Callable[[Draft, int, Any], None]] = {
    (Act, PlaceLeader): leaders.place_leader,
    (Act, WithdrawLeader): leaders.withdraw_leader,
    (Act, PlayCard): playing.play_card,
    (Act, PlayConnector): connecting.play_connector,
    (Act, PlayCatastrophe): catastrophes.play_catastrophe,
    (Act, Pass): _pass,
    (VpOffer, ScoreCard): lambda d, seat, _: offers.score(d, seat),
    (VpOffer, Decline): lambda d, seat, _: offers.decline(d, seat),
    (ShipOffer, BuildShip): playing.build_ship,
    (ShipOffer, Decline): lambda d, seat, _: offers.decline(d, seat),
    (TreasureOffer, TakeTreasure): connecting.take_treasure,
    (TreasureOffer, Decline): lambda d, seat, _: offers.decline(d, seat),
    (Support, CommitSupport): conflicts.commit,
    (ChooseConflict, ChooseConflictColour): _choose,
}
