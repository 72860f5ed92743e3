"""Hidden information: secret hands, deck orders and pending answers never reach other audiences."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.catan import CATAN, CATAN_CK
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, RESOURCES, deck_cards
from shared.games.catan.state import Answer
from shared.games.catan.views import view, visibility
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.visibility import Public, Seats, ServerOnly, redact
from tests.games import contract_checks as cc
from tests.games.catan.helpers import cards, fresh, gain, given, hold, when


def _spread(total: int, kinds: tuple[int, ...], rng: Rng) -> dict[int, int]:
    out = dict.fromkeys(kinds, 0)
    for _ in range(total):
        out[rng.choice(kinds)] += 1
    return out


def perturb_hand(state, owner, rng):
    """Same resource and commodity counts, other cards; other progress cards of the same number."""
    p = state.players[owner]
    res = _spread(sum(p.hand[k] for k in RESOURCES), RESOURCES, rng)
    com = _spread(sum(p.hand[k] for k in COMMODITIES), COMMODITIES, rng)
    hand = tuple({**res, **com}[k] for k in range(8))
    pool = deck_cards(rng.below(3)) if state.options.ck else ("knight", "monopoly", "victory_point")
    progress = tuple(sorted(rng.choice(pool) for _ in p.cards)) if state.options.ck else p.cards
    answers = tuple(
        replace(a, cards=tuple(reversed(a.cards)), choice=a.choice + 1) if a.seat == owner else a
        for a in (state.task.answers if state.task else ())
    )
    task = replace(state.task, answers=answers) if state.task else None
    players = list(state.players)
    players[owner] = replace(p, hand=hand, cards=progress)
    return replace(state, players=tuple(players), task=task)


def perturb_decks(state, owner, rng):
    decks = tuple(tuple(rng.shuffled(d)) for d in state.decks)
    return replace(state, decks=decks, dev_deck=tuple(rng.shuffled(state.dev_deck)))


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_other_seats_and_spectators_see_nothing_of_a_hand_or_a_deck(game):
    p = play(game, 4, bytes(range(32)), max_steps=900)
    state = None
    for i, event in enumerate(p.events):
        state = game.evolve(state, event)
        # A Spy or Master Merchant legitimately shows its target's hand to the card's player.
        peeking = state.task is not None and state.task.kind in ("spy", "master_merchant")
        if i % 97 == 0 and state.phase != "setup" and not peeking:
            for owner in range(4):
                cc.check_non_interference(game, state, perturb_hand, owner, 4, trials=2)
            cc.check_non_interference(game, state, perturb_decks, None, 4, trials=2)


def test_spectators_see_that_an_answer_is_awaited_never_its_content():
    state = given(fresh(ck=False), gain(0, brick=2), gain(1, ore=1), gain(2, ore=1))
    state, _ = when(state, 0, cmd.OfferTrade(give=cards(brick=2), get=cards(ore=1)))
    state, _ = when(state, 1, cmd.Choose(choice=1))
    spectator = view(state, None).pending
    assert spectator.awaiting == (2, 3) and spectator.mine is None
    assert view(state, 1).pending.mine == Answer(seat=1, choice=1)


def test_secret_events_have_private_audiences_and_public_shadows():
    assert visibility(ev.CardDrawn(seat=2, deck=0, card="spy")) == Seats(seats=frozenset({2}))
    assert isinstance(visibility(ev.CardDrawnShadow(seat=2, deck=0)), Public)
    assert visibility(ev.CardsTaken(src=1, dst=3, cards=cards(ore=1))) == Seats(seats=frozenset({1, 3}))
    assert isinstance(visibility(ev.DecksShuffled(dev=(), progress=())), ServerOnly)
    assert visibility(ev.Answered(answer=Answer(seat=1))) == Seats(seats=frozenset({1}))


def test_face_down_answers_stay_secret_when_the_task_closes():
    state = given(fresh(), gain(0, brick=1), gain(1, cloth=1))
    state, _ = when(hold(state, 0, "commercial_harbor"), 0, cmd.PlayProgress(card="commercial_harbor"))
    state, _ = when(state, 0, cmd.HarborExchange(seat=1, kind=0))
    assert view(state, None).pending.data == () and view(state, 2).pending.data == ()
    state, events = when(state, 1, cmd.Choose(choice=6))
    closed = [e for e in events if isinstance(e, ev.TaskClosed)]
    assert closed[0].answers == ()


def test_the_face_down_harbor_resource_reaches_the_two_seats_only():
    state = given(fresh(), gain(0, brick=1, ore=1), gain(1, cloth=1))
    state, _ = when(hold(state, 0, "commercial_harbor"), 0, cmd.PlayProgress(card="commercial_harbor"))
    state, events = when(state, 0, cmd.HarborExchange(seat=1, kind=4))
    assert state.task.data == (4,) and view(state, 1).pending.data == (4,)
    for audience in (None, 2, 3):
        feed = redact(events, visibility, audience)
        assert [e.task.data for e in feed if isinstance(e, ev.TaskOpened)] == [()]
        assert not any(isinstance(e, ev.HarborOffered) for e in feed)
    assert ev.HarborOffered(owner=0, seat=1, kind=4) in redact(events, visibility, 1)


def test_spy_sees_the_targets_cards_through_its_own_view_only():
    state = hold(hold(fresh(), 0, "spy"), 1, "crane")
    state, _ = when(state, 0, cmd.PlayProgress(card="spy", a=1))
    assert view(state, 0).pending.peek_cards == ("crane",)
    assert view(state, 2).pending.peek_cards is None and view(state, None).pending.peek_cards is None


def _sample(kind):
    """An instance of an event type with placeholder values, built from its field types."""
    import msgspec

    from shared.games.catan.options import Options
    from shared.games.catan.state import Effects, Knight, Task

    placeholders = {int: 0, str: "", bool: False}
    records = {
        Options: Options(), Knight: Knight(spot=0, owner=0, strength=1), Effects: Effects(),
        Task: Task(kind="discard", seats=(0,)), Answer: Answer(seat=0),
    }  # fmt: skip
    values = {}
    for f in msgspec.structs.fields(kind):
        if f.default is not msgspec.NODEFAULT:
            continue
        t = f.type
        values[f.name] = records.get(t, placeholders.get(t, ()))
    return kind(**values)


def test_every_event_type_has_an_audience():
    import typing

    from shared.games.catan.events import CatanEvent

    for kind in typing.get_args(CatanEvent):
        assert isinstance(visibility(_sample(kind)), Public | Seats | ServerOnly), kind
