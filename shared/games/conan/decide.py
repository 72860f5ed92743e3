"""decide: check a command against ``legal``, dispatch on (phase, command),
then run the automatic steps until someone must decide again."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from shared.games.conan import commands as c
from shared.games.conan.events import AnyEvent
from shared.games.conan.legal import actors, legal
from shared.games.conan.rejections import explain
from shared.games.conan.rules import (
    adventure,
    agechange,
    bidding,
    garrison,
    intrigue,
    military,
    outcomes,
    turn,
)
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.board import Tx, pack_of
from shared.games.conan.rules.cards import play_table_card, refresh_table_card
from shared.games.conan.state import (
    AdventureEnd,
    AfterContest,
    AgeChange,
    Bidding,
    ConanCourt,
    Contest,
    Coronation,
    Court,
    GameOver,
    Garrison,
    Intrigue,
    Military,
    Retreat,
    State,
    TokenChoice,
    Turn,
)
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, require
from shared.kernel.rng import Rng

_enc = msgspec.msgpack.Encoder()


def decide(state: State, seat: int, command: c.AnyCommand, rng: Rng) -> list[AnyEvent]:
    require(not isinstance(state.phase, GameOver), GAME_OVER, "The game is over.")
    require(seat in actors(state), NOT_YOUR_TURN, "Nobody is waiting for you to act now.", seat=seat)
    options = legal(state, seat)
    wanted = _enc.encode(command)
    if not any(_enc.encode(x) == wanted for x in options):
        raise explain(state, seat, command, options)
    tx = Tx(state, rng)
    _dispatch(tx, seat, command)
    settle(tx)
    return tx.events


def _dispatch(tx: Tx, seat: int, cmd: c.AnyCommand) -> None:
    phase = tx.state.phase
    match phase, cmd:
        case Bidding(), c.PlaceBid():
            bidding.place_bid(tx, phase, seat, cmd.token, cmd.card)
        case Bidding(), c.SwapBidCard():
            bidding.swap_card(tx, phase, seat, cmd.card)
        case TokenChoice(), c.ChooseToken():
            adventure.choose_token(tx, seat, cmd.keep)
        case Coronation(), c.Crown():
            adventure.crown(tx, seat, cmd.category)
        case Turn(), c.MoveConan():
            adventure.move_conan(tx, seat, cmd.to)
        case Turn(), c.PlayTableCard():
            play_table_card(tx, seat, pack_of(tx.state).kingdom_cards[cmd.card])
        case Turn(), c.RefreshTableCard():
            refresh_table_card(tx, seat, pack_of(tx.state).kingdom_cards[cmd.card])
        case Turn(), c.TakeDie():
            turn.take_die(tx, phase, cmd.action)
        case Military(), _:
            _military(tx, phase, cmd)
        case Intrigue(), _:
            _intrigue(tx, phase, cmd)
        case ConanCourt(), c.ConanAct():
            turn.conan_act(tx, seat, cmd.to, cmd.raider)
        case Court(), c.CourtDraw():
            turn.court_draw(tx, seat, cmd.option)
        case Court(), c.PlayEvent():
            turn.play_event(tx, seat, cmd.card)
        case Contest(), _:
            _contest(tx, phase, seat, cmd)
        case AfterContest(), _:
            _after(tx, phase, cmd)
        case Retreat(), c.Withdraw():
            outcomes.retreat(tx, phase, cmd.to)
        case Retreat(), c.Proceed():
            tx.emit(_pop())
        case AgeChange() | Garrison(), _:
            _age_change(tx, phase, seat, cmd)


def _military(tx: Tx, phase: Military, cmd: c.AnyCommand) -> None:
    match cmd:
        case c.RaiseTroops():
            military.raise_troops(tx, phase.seat, cmd.provinces)
        case c.MoveArmy():
            military.move_army(tx, phase, cmd.frm, cmd.to, cmd.units)
        case c.Attack():
            military.attack(tx, phase, cmd.province, cmd.defender)
        case c.Withdraw(frm=str(frm)):
            military.withdraw_army(tx, phase, frm, cmd.to)
        case c.EndAction():
            tx.emit(_pop())


def _intrigue(tx: Tx, phase: Intrigue, cmd: c.AnyCommand) -> None:
    match cmd:
        case c.MoveEmissary():
            intrigue.move_emissary(tx, phase, cmd.frm, cmd.to)
        case c.StartIntrigue():
            intrigue.start_intrigue(tx, phase, cmd.province)
        case c.CollectGold():
            intrigue.collect_gold(tx, phase, cmd.province)
        case c.BuildEmissary():
            intrigue.build_emissary(tx, phase, cmd.province)
        case c.EndAction():
            tx.emit(_pop())


def _contest(tx: Tx, phase: Contest, seat: int, cmd: c.AnyCommand) -> None:
    match cmd:
        case c.CommitCard():
            ct.commit(tx, phase, seat, cmd.cards)
        case c.UseCard():
            ct.use_card(tx, phase, seat, pack_of(tx.state).kingdom_cards[cmd.card])
        case c.Sorcery():
            ct.sorcery(tx, phase, seat)
        case c.Proceed():
            ct.proceed(tx, phase)


def _after(tx: Tx, phase: AfterContest, cmd: c.AnyCommand) -> None:
    match cmd:
        case c.ForcedMarch():
            outcomes.forced_march(tx, phase, cmd.defender)
        case c.UseCard():
            outcomes.use_after_card(tx, phase, pack_of(tx.state).kingdom_cards[cmd.card])
        case c.Withdraw():
            outcomes.withdraw_after(tx, phase, cmd.to)
        case c.Proceed():
            tx.emit(_pop())


def _age_change(tx: Tx, phase: AgeChange | Garrison, seat: int, cmd: c.AnyCommand) -> None:
    match phase, cmd:
        case Garrison(), c.PlaceGarrison():
            garrison.place(tx, phase, cmd.province, cmd.city)
        case Garrison(), c.EndAction():
            garrison.finish(tx)
        case AgeChange(), c.ResolveRaids():
            agechange.resolve_raids(tx, phase, seat, cmd.sacrifice_in)
        case AgeChange(), c.Buy():
            agechange.buy(tx, seat, cmd.item, cmd.province)
        case AgeChange(), c.EndAction():
            agechange.end_purchases(tx, phase)
        case AgeChange(), c.ChooseCategory():
            agechange.choose_category(tx, phase, seat, cmd.category)


def _pop():
    from shared.games.conan.events import PhasePopped

    return PhasePopped()


def settle(tx: Tx) -> None:
    """Run automatic steps until a seat must decide (or the game is over)."""
    for _ in range(10_000):
        if not _auto_step(tx):
            return
    raise AssertionError("automatic steps did not settle")


def _auto_step(tx: Tx) -> bool:
    from shared.games.conan.events import PhasePopped, PhaseReplaced

    state = tx.state
    phase = state.phase
    match phase:
        case Bidding(step="resolve"):
            bidding.resolve(tx, phase)
        case AdventureEnd():
            adventure.adventure_end(tx, phase)
        case Turn(step="conan") if phase.seat != state.conan_player or not state.options.conan_move_first:
            tx.emit(PhaseReplaced(phase=replace(phase, step="cards")))
        case Turn(step="die"):
            turn.end_turn(tx, phase)
        case Turn() | Court() if state.seats[phase.seat].dead:
            # Killed by Conan mid-turn: the rest of that turn is lost.
            replacement = replace(phase, step="die") if isinstance(phase, Turn) else None
            tx.emit(PhaseReplaced(phase=replacement) if replacement else PhasePopped())
        case Garrison() if not garrison.options(state, phase):
            garrison.finish(tx)
        case Military(fought=True) | Intrigue(fought=True):
            tx.emit(PhasePopped())
        case Contest(step="resolve"):
            outcomes.resolve(tx, phase)
        case AgeChange() if not agechange.needs_input(state, phase):
            if phase.step == 5:
                return False
            agechange.auto(tx, phase)
        case _:
            return False
    return True
