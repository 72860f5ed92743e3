"""Bots: ``random`` (uniform over command kinds, biased to end turns so games
finish), ``uniform`` (uniform over every listed decision, domestic offers
aside: catanatron's ``RandomPlayer``) and ``greedy`` (builds toward victory
points first): the ``easy`` and ``medium`` levels are ``random`` and ``greedy``;
``hard`` searches (:mod:`shared.kernel.search`), scoring unfinished rollouts
by :func:`standing`."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from shared.games.catan import commands as cmd
from shared.games.catan.legal import legal
from shared.games.catan.rules import actions, tasks
from shared.games.catan.rules.victory import points
from shared.games.catan.state import State
from shared.kernel.rng import Rng

# Commands a random bot should not loop on; it ends its turn instead half the time.
_CHATTER = (cmd.OfferTrade, cmd.TradeBank, cmd.MoveKnight, cmd.ActivateKnight, cmd.PromoteKnight)
_PRIORITY = (
    cmd.BuildCity, cmd.BuildSettlement, cmd.BuyImprovement, cmd.PlayProgress, cmd.BuildKnight,
    cmd.BuyDevCard, cmd.BuildWall, cmd.PlayDevCard, cmd.ActivateKnight, cmd.BuildRoad, cmd.ChaseRobber,
)  # fmt: skip


def standing(state: State) -> tuple[float, ...]:
    """Victory points, then (a little) cards in hand: what the next turns build from."""
    return tuple(points(state, s) + 0.01 * sum(p.hand) for s, p in enumerate(state.players))


def random_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    terms = tasks.pick_terms(state, seat)
    if terms is not None and (count := tasks.pick_count(*terms)):
        # Picks are the only answer: the same draws as below (a kind among one, then a pick),
        # without listing up to PICK_CAP hands to choose one.
        rng.below(1)
        return cmd.SelectCards(cards=tasks.pick_at(*terms, rng.below(count)))
    by_kind: dict[type[cmd.CatanCommand], Sequence[cmd.CatanCommand]]
    if state.task is None and state.phase == "main" and seat == state.active:
        # The action phase lists by kind: the turn may end before anything else is listed.
        ends = actions.MAIN[cmd.EndTurn](state, seat)
        if ends and rng.below(3) == 0:
            return ends[0]
        by_kind = actions.main_by_kind(state, seat)
    else:
        by_kind = {}
        for kind, group in groupby(legal(state, seat), type):
            by_kind[kind] = [*by_kind.get(kind, ()), *group]
        if cmd.EndTurn in by_kind and rng.below(3) == 0:
            return by_kind[cmd.EndTurn][0]
    kinds = sorted(by_kind, key=lambda k: k.__name__)
    if cmd.EndTurn in by_kind:
        kinds = [k for k in kinds if k not in _CHATTER or rng.below(4) == 0] or [cmd.EndTurn]
    return rng.choice(by_kind[rng.choice(kinds)])


def uniform_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    """Uniform over the seat's whole decisions, as catanatron's ``RandomPlayer`` picks among
    ``playable_actions``: every road, settlement and bank trade is one choice and ending the turn
    is just another. It never offers a domestic trade (catanatron's random play has none), and a
    discard is one decision: one of the ways to discard, drawn by its rank."""
    terms = tasks.pick_terms(state, seat)
    if terms is not None and (count := tasks.pick_count(*terms)):
        return cmd.SelectCards(cards=tasks.pick_at(*terms, rng.below(count)))
    if state.task is None and state.phase == "main" and seat == state.active:
        return rng.choice(actions.main_listed(state, seat))
    return rng.choice([c for c in legal(state, seat) if not isinstance(c, cmd.OfferTrade)])


def greedy_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    options = legal(state, seat)
    for kind in _PRIORITY:
        picks = [c for c in options if isinstance(c, kind)]
        if picks and (kind is not cmd.BuildRoad or rng.below(2) == 0):
            return rng.choice(picks)
    ends = [c for c in options if isinstance(c, cmd.EndTurn)]
    trades = [c for c in options if isinstance(c, cmd.TradeBank)]
    if trades and rng.below(2) == 0:
        return rng.choice(trades)
    return ends[0] if ends else rng.choice(options)


def rating(state: State, seat: int, commands: list[cmd.CatanCommand]) -> list[int]:
    """The greedy bot's order of preference as a rating (its kinds first to last, then a
    bank trade, then ending the turn): the search's bias."""
    return [_RANK.get(type(c), 0) for c in commands]


_RANK: dict[type, int] = {
    kind: len(_PRIORITY) + 2 - i for i, kind in enumerate((*_PRIORITY, cmd.TradeBank, cmd.EndTurn))
}


def zombie_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    """For a seat whose clock ran out: roll, end the turn, decline, else the first listed answer."""
    options = legal(state, seat)
    for wanted in (cmd.RollDice(), cmd.EndTurn(), cmd.Choose(choice=0), cmd.Choose(choice=-1)):
        if wanted in options:
            return wanted
    return options[0]
