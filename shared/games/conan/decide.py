"""decide: check a command against ``legal``, apply it to the phase on top,
then run the automatic steps until someone must decide again."""

from __future__ import annotations

from typing import TypeVar, assert_never

import msgspec
from msgspec.structs import replace

from shared.games.conan import commands as c
from shared.games.conan.content import Pack
from shared.games.conan.events import AnyEvent, PhasePopped, PhaseReplaced
from shared.games.conan.explain import explain
from shared.games.conan.legal import actors, legal
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
from shared.games.conan.rules.board import ConanFold
from shared.games.conan.rules.cards import play_table_card, refresh_table_card
from shared.games.conan.state import (
    AdventureEnd,
    AfterContest,
    AgeChange,
    AnyPhase,
    Bidding,
    Contest,
    Court,
    GameOver,
    Garrison,
    Intrigue,
    Military,
    Retreat,
    State,
    Turn,
)
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, require
from shared.kernel.rng import Rng

_enc = msgspec.msgpack.Encoder()
P = TypeVar("P")


def decide(pack: Pack, state: State, seat: int, command: c.AnyCommand, rng: Rng) -> list[AnyEvent]:
    require(not isinstance(state.phase, GameOver), GAME_OVER, "The game is over.")
    require(seat in actors(pack, state), NOT_YOUR_TURN, "Nobody is waiting for you to act now.", seat=seat)
    options = legal(pack, state, seat)
    wanted = _enc.encode(command)
    if not any(_enc.encode(x) == wanted for x in options):
        raise explain(pack, state, seat, command, options)
    fold = ConanFold(pack, state, rng)
    _apply(fold, seat, command)
    _settle(fold)
    return fold.events


def _on(phase: AnyPhase, kind: type[P]) -> P:
    """The phase on top, of the one kind that takes the command (``legal`` checked it)."""
    assert isinstance(phase, kind), f"a command of {kind.__name__} reached {type(phase).__name__}"
    return phase


def _apply(fold: ConanFold, seat: int, cmd: c.AnyCommand) -> None:
    phase = fold.state.phase
    cards = fold.pack.kingdom_cards
    match cmd:
        case c.PlaceBid():
            bidding.place_bid(fold, _on(phase, Bidding), seat, cmd.token, cmd.card)
        case c.SwapBidCard():
            bidding.swap_card(fold, _on(phase, Bidding), seat, cmd.card)
        case c.ChooseToken():
            adventure.choose_token(fold, seat, cmd.keep)
        case c.Crown():
            adventure.crown(fold, seat, cmd.category)
        case c.MoveConan():
            adventure.move_conan(fold, seat, cmd.to)
        case c.PlayTableCard():
            play_table_card(fold, seat, cards[cmd.card])
        case c.RefreshTableCard():
            refresh_table_card(fold, seat, cards[cmd.card])
        case c.TakeDie():
            turn.take_die(fold, _on(phase, Turn), cmd.action)
        case c.RaiseTroops():
            military.raise_troops(fold, _on(phase, Military).seat, cmd.provinces)
        case c.MoveArmy():
            military.move_army(fold, _on(phase, Military), cmd.frm, cmd.to, cmd.units)
        case c.Attack():
            military.attack(fold, _on(phase, Military), cmd.province, cmd.defender)
        case c.Withdraw():
            _withdraw(fold, phase, cmd)
        case c.EndAction():
            _end_action(fold, phase)
        case c.MoveEmissary():
            intrigue.move_emissary(fold, _on(phase, Intrigue), cmd.frm, cmd.to)
        case c.StartIntrigue():
            intrigue.start_intrigue(fold, _on(phase, Intrigue), cmd.province)
        case c.CollectGold():
            intrigue.collect_gold(fold, _on(phase, Intrigue), cmd.province)
        case c.BuildEmissary():
            intrigue.build_emissary(fold, _on(phase, Intrigue), cmd.province)
        case c.ConanAct():
            turn.conan_act(fold, seat, cmd.to, cmd.raider)
        case c.CourtDraw():
            turn.court_draw(fold, seat, cmd.option)
        case c.PlayEvent():
            turn.play_event(fold, seat, cmd.card)
        case c.CommitCard():
            ct.commit(fold, _on(phase, Contest), seat, cmd.cards)
        case c.UseCard() if isinstance(phase, AfterContest):
            outcomes.use_after_card(fold, phase, cards[cmd.card])
        case c.UseCard():
            ct.use_card(fold, _on(phase, Contest), seat, cards[cmd.card])
        case c.Sorcery():
            ct.sorcery(fold, _on(phase, Contest), seat)
        case c.Proceed() if isinstance(phase, Contest):
            ct.proceed(fold, phase)
        case c.Proceed():
            fold.emit(PhasePopped())  # after a contest, or a battle's defender stays
        case c.ForcedMarch():
            outcomes.forced_march(fold, _on(phase, AfterContest), cmd.defender)
        case c.ResolveRaids():
            agechange.resolve_raids(fold, _on(phase, AgeChange), seat, cmd.sacrifice_in)
        case c.PlaceGarrison():
            garrison.place(fold, _on(phase, Garrison), cmd.province, cmd.city)
        case c.Buy():
            agechange.buy(fold, seat, cmd.item, cmd.province)
        case c.ChooseCategory():
            agechange.choose_category(fold, _on(phase, AgeChange), seat, cmd.category)
        case _:
            assert_never(cmd)


def _withdraw(fold: ConanFold, phase: AnyPhase, cmd: c.Withdraw) -> None:
    match phase:
        case Military():
            assert cmd.frm is not None, "a withdrawal in a Military action names the province left"
            military.withdraw_army(fold, phase, cmd.frm, cmd.to)
        case AfterContest():
            outcomes.withdraw_after(fold, phase, cmd.to)
        case _:
            outcomes.retreat(fold, _on(phase, Retreat), cmd.to)


def _end_action(fold: ConanFold, phase: AnyPhase) -> None:
    match phase:
        case Garrison():
            garrison.finish(fold)
        case AgeChange():
            agechange.end_purchases(fold, phase)
        case Military() | Intrigue():
            fold.emit(PhasePopped())
        case _:
            raise AssertionError(f"EndAction reached {type(phase).__name__}")


def _settle(fold: ConanFold) -> None:
    """Run automatic steps until a seat must decide (or the game is over)."""
    for _ in range(10_000):
        if not _auto_step(fold):
            return
    raise AssertionError("automatic steps did not settle")


def _auto_step(fold: ConanFold) -> bool:
    pack, state = fold.pack, fold.state
    phase = state.phase
    match phase:
        case Bidding(step="resolve"):
            bidding.resolve(fold, phase)
        case AdventureEnd():
            adventure.adventure_end(fold, phase)
        case Turn(step="conan") if phase.seat != state.conan_player or not state.options.conan_move_first:
            fold.emit(PhaseReplaced(phase=replace(phase, step="cards")))
        case Turn(step="die"):
            turn.end_turn(fold, phase)
        case Turn() if state.seats[phase.seat].dead:
            # Killed by Conan mid-turn: the rest of that turn is lost.
            fold.emit(PhaseReplaced(phase=replace(phase, step="die")))
        case Court() if state.seats[phase.seat].dead:
            fold.emit(PhasePopped())
        case Garrison() if not garrison.options(pack, state, phase):
            garrison.finish(fold)
        case Military(fought=True) | Intrigue(fought=True):
            fold.emit(PhasePopped())
        case Contest(step="resolve"):
            outcomes.resolve(fold, phase)
        case AgeChange() if not agechange.needs_input(pack, state, phase):
            if phase.step == 5:
                return False
            agechange.auto(fold, phase)
        case _:
            return False
    return True
