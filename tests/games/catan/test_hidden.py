"""Hidden information: secret hands, deck orders and pending answers never reach other audiences."""

from __future__ import annotations

import pytest

from shared.games.catan import CATAN, CATAN_CK
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, RESOURCES, track_of
from shared.games.catan.state import Answer
from shared.games.catan.views import view, visibility
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.visibility import Public, Seats, ServerOnly, redact
from tests.games import contract_checks as cc
from tests.games.catan.helpers import cards, fresh, gain, given, hold, town, when


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_other_seats_and_spectators_see_nothing_of_a_hand_or_a_deck(game):
    p = play(game, 4, bytes(range(32)), max_steps=900)
    state = None
    for i, event in enumerate(p.events):
        state = game.evolve(state, event)
        if i % 97 == 0 and state.phase != "setup":
            for owner in (None, 0, 1, 2, 3):
                cc.check_non_interference(game, state, owner, trials=2)


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_conceal_varies_kinds_and_cards_keeping_every_count(game):
    state = play(game, 4, bytes(range(32)), max_steps=400).state
    for trial in range(20):
        varied = game.secrets.conceal(state, 1, Rng(b"\x03" * 32, trial))
        before, after = state.players[1], varied.players[1]
        assert sum(after.hand[k] for k in RESOURCES) == sum(before.hand[k] for k in RESOURCES)
        assert sum(after.hand[k] for k in COMMODITIES) == sum(before.hand[k] for k in COMMODITIES)
        assert len(after.cards) == len(before.cards) and varied.bank == state.bank
        held = sorted((*after.cards, *varied.dev_deck, *(c for d in varied.decks for c in d)))
        assert held == sorted((*before.cards, *state.dev_deck, *(c for d in state.decks for c in d)))
        if game.options().ck:
            assert [len(d) for d in varied.decks] == [len(d) for d in state.decks]
            assert sorted(track_of(c) for c in after.cards) == sorted(track_of(c) for c in before.cards)
        assert varied.players[0] == state.players[0]


def test_while_a_spy_looks_only_the_progress_cards_are_nobodys_secret():
    state = hold(hold(given(fresh(), gain(1, ore=2, wool=2, cloth=1)), 0, "spy"), 1, "crane")
    state, _ = when(state, 0, cmd.PlayProgress(card="spy", a=1))
    hands = set()
    for trial in range(8):
        varied = CATAN_CK.secrets.conceal(state, 1, Rng(b"\x04" * 32, trial)).players[1]
        assert varied.cards == state.players[1].cards
        hands.add(varied.hand)
    assert len(hands) > 1  # the resources the Spy never saw are still varied


def test_the_spy_player_receives_the_targets_progress_cards_and_nothing_of_its_hand():
    """Spy: "Look at another player's progress cards and take one." Its resource and
    commodity cards stay hidden from the Spy player: two worlds that differ only in
    which resources and commodities the target holds (seat 3 holding the others, so
    the public bank is the same) must give the Spy player, and every seat that is
    neither of the two, the same feed and the same view."""
    base = hold(hold(fresh(), 0, "spy"), 1, "crane", "smith")
    a, b = dict(ore=2, cloth=1), dict(brick=1, wool=1, coin=1)
    worlds = [given(base, gain(1, **a), gain(3, **b)), given(base, gain(1, **b), gain(3, **a))]
    feeds, views = [], []
    for state in worlds:
        after, events = when(state, 0, cmd.PlayProgress(card="spy", a=1))
        feeds.append({a: redact(events, visibility, a) for a in (None, 0, 2)})
        views.append({a: view(after, a) for a in (None, 0, 2)})
    assert feeds[0] == feeds[1] and views[0] == views[1]
    shown = [e for e in feeds[0][0] if isinstance(e, ev.ProgressShown)]
    assert shown == [ev.ProgressShown(seat=0, target=1, cards=("crane", "smith"))]
    assert view(after, 0).pending.peek_hand is None


def test_a_master_merchant_sees_resources_and_commodities_never_progress_cards():
    """Master Merchant: "look at their resource and commodity cards and take two" - the
    progress cards are not part of what it looks at."""
    base = given(fresh(), gain(1, ore=2, cloth=1), town(1, 0, 2), town(1, 3, 2))
    base = hold(base, 0, "master_merchant")
    feeds = []
    for extra in (("crane",), ("smith",)):
        state = hold(base, 1, *extra)
        after, events = when(state, 0, cmd.PlayProgress(card="master_merchant", a=1))
        feeds.append(redact(events, visibility, 0))
        assert view(after, 0).pending.peek_cards is None
    assert feeds[0] == feeds[1]
    assert [e.cards for e in feeds[0] if isinstance(e, ev.HandShown)] == [cards(ore=2, cloth=1)]


def test_a_hidden_answer_is_varied_among_the_answers_the_rules_allow():
    state = given(fresh(ck=False), gain(0, ore=1), gain(1, brick=4, ore=4), gain(2, ore=9))
    state, _ = when(state, 0, cmd.OfferTrade(give=cards(ore=1), get=cards(brick=1)))
    state, _ = when(state, 1, cmd.Choose(choice=1))
    answers = set()
    for trial in range(20):
        varied = CATAN.secrets.conceal(state, 1, Rng(b"\x05" * 32, trial))
        (answer,) = varied.task.answers
        assert answer.seat == 1
        answers.add(answer.choice)
        # An acceptance stays payable from the varied hand.
        assert answer.choice != 1 or varied.players[1].hand[0] >= 1
    assert len(answers) > 1


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
