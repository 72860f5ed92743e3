"""The rules' front door: check who may act, that the command fits the phase,
then hand it to the rule in ``rules/`` that plays it."""

from __future__ import annotations

from typing import assert_never

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
from shared.games.tigris_cards.evolve import evolve
from shared.games.tigris_cards.legal import actions_of, actors
from shared.games.tigris_cards.rejections import NO_SUCH_CONFLICT, PASS_NOT_ALLOWED
from shared.games.tigris_cards.rules import (
    CardsFold,
    catastrophes,
    conflicts,
    connecting,
    leaders,
    offers,
    playing,
)
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import (
    Act,
    ChooseConflict,
    Over,
    Phase,
    ShipOffer,
    State,
    Support,
    TreasureOffer,
    VpOffer,
)
from shared.kernel.fold import Fold
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE, require
from shared.kernel.rng import Rng

#: The answers to an offer: a declined VP, ship or treasure.
_OFFERS = (VpOffer, ShipOffer, TreasureOffer)


def decide(state: State, seat: int, command: TigrisCardsCommand, rng: Rng) -> list[TigrisCardsEvent]:
    require(not isinstance(state.phase, Over), GAME_OVER, "The game is over.")
    require(seat in actors(state), NOT_YOUR_TURN, "You are not awaited now.", seat=seat)
    f: CardsFold = Fold(state, evolve, rng)
    match command:
        case PlaceLeader():
            _expect(state, command, Act)
            leaders.place_leader(f, seat, command)
        case WithdrawLeader():
            _expect(state, command, Act)
            leaders.withdraw_leader(f, seat, command)
        case PlayCard():
            _expect(state, command, Act)
            playing.play_card(f, seat, command)
        case PlayConnector():
            _expect(state, command, Act)
            connecting.play_connector(f, seat, command)
        case PlayCatastrophe():
            _expect(state, command, Act)
            catastrophes.play_catastrophe(f, seat, command)
        case Pass():
            _expect(state, command, Act)
            _pass(f, seat)
        case ScoreCard():
            _expect(state, command, VpOffer)
            offers.score(f, seat)
        case BuildShip():
            _expect(state, command, ShipOffer)
            playing.build_ship(f, seat, command)
        case TakeTreasure():
            _expect(state, command, TreasureOffer)
            connecting.take_treasure(f, seat, command)
        case Decline():
            _expect(state, command, *_OFFERS)
            offers.decline(f, seat)
        case CommitSupport():
            _expect(state, command, Support)
            conflicts.commit(f, seat, command)
        case ChooseConflictColour():
            _expect(state, command, ChooseConflict)
            _choose(f, command)
        case _:
            assert_never(command)
    return f.events


def _expect(state: State, command: TigrisCardsCommand, *phases: type[Phase]) -> None:
    phase = type(state.phase).__name__
    require(
        isinstance(state.phase, phases),
        WRONG_PHASE,
        f"{type(command).__name__} is not possible during {phase}.",
        phase=phase,
    )


def _pass(f: CardsFold, seat: int) -> None:
    require(
        f.state.options.allow_pass or not actions_of(f.state, seat),
        PASS_NOT_ALLOWED,
        "You may only pass when no action is possible.",
    )
    f.emit(ActionTaken(seat=seat, left=f.state.actions_left - 1), Passed(seat=seat))
    end_action(f)


def _choose(f: CardsFold, command: ChooseConflictColour) -> None:
    phase = f.state.phase
    assert isinstance(phase, ChooseConflict)
    require(command.colour in phase.colours, NO_SUCH_CONFLICT, "No conflict of that colour is open.")
    connecting.begin_external(f, command.colour)
