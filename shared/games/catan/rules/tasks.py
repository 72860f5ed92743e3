"""Pending decisions: what each awaited seat may answer, and how a closed task resolves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import TypeGuard, assert_never

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, Hand, covers, one, total
from shared.games.catan.rules import barbarians, domestic, knights, production, robber
from shared.games.catan.rules.building import road_spots
from shared.games.catan.rules.flow import CatanFold, amount, awaited, clockwise, close, submit
from shared.games.catan.rules.progress import draws, politics
from shared.games.catan.state import Answer, Knight, State, Task

# Beyond this many ways to pick cards, legal lists a canonical subset (decide accepts all).
PICK_CAP = 3000


def picks(hand: Hand, n: int) -> list[Hand]:
    """Every way to choose ``n`` cards from ``hand``, in a fixed order (capped): ascending
    as tuples, so the first kind's count varies slowest."""
    out: list[Hand] = []
    # rest[i]: the cards of the kinds after i, so that every branch taken completes.
    rest = [sum(hand[i + 1 :]) for i in range(len(hand))]
    last = len(hand) - 1

    def walk(i: int, left: int, chosen: tuple[int, ...]) -> None:
        if i == last:  # the last kind takes what is left, which it holds: rest[i - 1] >= left
            out.append((*chosen, left))
            return
        for take in range(max(0, left - rest[i]), min(hand[i], left) + 1):
            if len(out) >= PICK_CAP:
                return
            walk(i + 1, left - take, (*chosen, take))

    if 0 <= n <= sum(hand):
        walk(0, n, ())
    return out


@lru_cache(maxsize=64)  # the bot asks for the count, then for one pick, of the same hand
def _ways(hand: Hand, n: int) -> tuple[tuple[int, ...], ...]:
    """``ways[i][left]``: how many ways there are to take ``left`` cards from the kinds ``i`` on."""
    below = (1,) + (0,) * n
    ways = [below]
    for held in reversed(hand):
        if held:  # row[left] = below[left - held] + ... + below[left], by running sums
            sums = list(accumulate(below, initial=0))
            below = tuple(sums[left + 1] - sums[max(0, left - held)] for left in range(n + 1))
        ways.append(below)
    return tuple(reversed(ways))


def pick_count(hand: Hand, n: int) -> int:
    """``len(picks(hand, n))``, without listing them."""
    return min(PICK_CAP, _ways(hand, n)[0][n]) if 0 <= n <= sum(hand) else 0


def pick_at(hand: Hand, n: int, index: int) -> Hand:
    """``picks(hand, n)[index]``, without listing the ones before it."""
    ways = _ways(hand, n)
    chosen: list[int] = []
    left = n
    for i in range(len(hand)):
        for take in range(min(hand[i], left) + 1):
            here = ways[i + 1][left - take]
            if index < here:
                break
            index -= here
        chosen.append(take)
        left -= take
    return tuple(chosen)


def _pick_source(state: State, task: Task, seat: int) -> Hand:
    return state.players[task.data[0]].hand if task.kind == "master_merchant" else state.players[seat].hand


PICK_TASKS = ("discard", "gift", "master_merchant")


def pick_terms(state: State, seat: int) -> tuple[Hand, int] | None:
    """The hand an awaited seat picks cards from and how many, when the open task asks for a pick."""
    task = state.task
    if task is None or task.kind not in PICK_TASKS or seat not in awaited(task):
        return None
    return _pick_source(state, task, seat), amount(task, seat)


def _choices(state: State, task: Task, seat: int) -> list[int]:
    match task.kind:
        case "trade_confirm":
            return domestic.confirm_choices(state)
        case "aqueduct":  # optional: -1 declines
            return [-1, *production.aqueduct_choices(state)]
        case "pillage":
            return barbarians.pillageable(state, seat)
        case "defender_draw":
            return barbarians.deck_choices(state)
        case "muster":
            return barbarians.muster_choices(state, seat)
        case "retreat":
            return knights.retreat_options(state, seat, task.data)
        case "deserter":
            return [k.spot for k in knights.own(state, seat)]
        case "deserter_strength":
            return politics.deserter_strengths(state, seat, task.data[0])
        case "deserter_place":
            return [-1, *knights.recruit_spots(state, task.owner)]
        case "diplomat":
            return [-1, *(p for p in road_spots(state, seat) if p != task.data[0])]
        case "harbor":
            return [k for k in COMMODITIES if state.players[seat].hand[k]]
    return []


#: What an awaited seat may send while a task is open.
TaskAnswer = (
    cmd.SelectCards | cmd.Choose | cmd.DiscardProgress | cmd.CounterTrade | cmd.TakeCard | cmd.MoveRobber
    | cmd.BuildRoad
)  # fmt: skip


def options(state: State, seat: int) -> Sequence[TaskAnswer]:
    task = state.task
    assert task is not None
    match task.kind:
        case "discard" | "gift" | "master_merchant":
            return [
                cmd.SelectCards(cards=h) for h in picks(_pick_source(state, task, seat), amount(task, seat))
            ]
        case "robber":
            return [cmd.MoveRobber(hex=h, victim=v) for h, v in robber.moves(state, seat)]
        case "free_roads":
            return [cmd.BUILD_ROAD[p] for p in road_spots(state, seat)]
        case "trade":
            return domestic.answer_options(state, seat)
        case "progress_discard":
            return [
                cmd.DiscardProgress(cards=c) for c in draws.discard_options(state, seat, amount(task, seat))
            ]
        case "spy":
            target = state.players[task.data[0]].cards
            takes = [cmd.TakeCard(card=c) for c in sorted(set(target))]
            return [cmd.TakeCard(card=""), *takes] if state.options.spy_take == "optional" else takes
    return [cmd.Choose(choice=c) for c in _choices(state, task, seat)]


def valid(c: cmd.CatanCommand, state: State, seat: int) -> TypeGuard[TaskAnswer]:
    task = state.task
    assert task is not None
    if task.kind in ("discard", "gift", "master_merchant"):
        return (
            isinstance(c, cmd.SelectCards) and len(c.cards) == 8 and min(c.cards) >= 0
            and total(c.cards) == amount(task, seat) and covers(_pick_source(state, task, seat), c.cards)
        )  # fmt: skip
    if task.kind == "trade" and isinstance(c, cmd.CounterTrade):
        return domestic.counter_valid(state, seat, c)
    if task.kind == "robber":  # the listing's (hex, victim) pairs, without building each command
        return isinstance(c, cmd.MoveRobber) and (c.hex, c.victim) in robber.moves(state, seat)
    if task.kind == "progress_discard":
        return isinstance(c, cmd.DiscardProgress) and draws.discard_valid(
            state, seat, c.cards, amount(task, seat)
        )
    return c in options(state, seat)


def handle(f: CatanFold, seat: int, c: TaskAnswer) -> None:
    task = f.state.task
    assert task is not None
    match c:
        # The robber's move and free roads act at once; every other answer waits for the others'.
        case cmd.MoveRobber():
            _robber(f, seat, c)
            return
        case cmd.BuildRoad():
            _free_road(f, seat, c)
            return
        case cmd.SelectCards():
            answer = Answer(seat=seat, cards=c.cards)
        case cmd.Choose():
            answer = Answer(seat=seat, choice=c.choice)
        case cmd.DiscardProgress():
            answer = Answer(seat=seat, names=c.cards)
        case cmd.CounterTrade():
            answer = Answer(seat=seat, choice=2, cards=c.give, counter=c.get)
        case cmd.TakeCard():
            answer = Answer(seat=seat, names=(c.card,) if c.card else ())
        case _:
            assert_never(c)
    if submit(f, answer):
        answers = close(f)
        RESOLVE[task.kind](f, task, answers)


def _robber(f: CatanFold, seat: int, c: cmd.MoveRobber) -> None:
    close(f)
    robber.move(f, seat, c.hex, c.victim)


def _free_road(f: CatanFold, seat: int, c: cmd.BuildRoad) -> None:
    task = f.state.task
    assert task is not None
    f.emit(ev.RoadPlaced(seat=seat, path=c.path))
    left = task.amounts[0] - 1
    close(f)
    if left and road_spots(f.state, seat):
        f.emit(ev.TaskOpened(task=Task(kind="free_roads", seats=(seat,), owner=seat, amounts=(left,))))


#: How a closed task's answers take effect.
Resolve = Callable[[CatanFold, Task, tuple[Answer, ...]], None]


def _pay_all(f: CatanFold, task: Task, answers: tuple[Answer, ...]) -> None:
    for a in answers:
        f.emit(ev.CardsPaid(seat=a.seat, cards=a.cards))


def _give(f: CatanFold, src: int, dst: int, cards: Hand) -> None:
    if any(cards):
        f.emit(
            ev.CardsTaken(src=src, dst=dst, cards=cards),
            ev.CardsTakenShadow(src=src, dst=dst, count=total(cards)),
        )


def _trade(f: CatanFold, task: Task, answers: tuple[Answer, ...]) -> None:
    domestic.answers_closed(f, task.owner, task.data, answers)


def _confirm(f: CatanFold, task: Task, answers: tuple[Answer, ...]) -> None:
    if answers[0].choice >= 0:
        domestic.execute(f, task.owner, task.data, answers[0].choice)


def _each(fn: Callable[[CatanFold, Task, Answer], None]) -> Resolve:
    def run(f: CatanFold, task: Task, answers: tuple[Answer, ...]) -> None:
        # Answers given at once take effect clockwise from the active seat.
        order = clockwise(f.state, f.state.active)
        for a in sorted(answers, key=lambda a: order.index(a.seat)):
            fn(f, task, a)

    return run


RESOLVE: dict[str, Resolve] = {
    "discard": _pay_all,
    "muster": lambda f, t, answers: barbarians.attack(
        f, barbarians.mustered(f.state, tuple((a.seat, a.choice) for a in answers))
    ),
    "trade": _trade,
    "trade_confirm": _confirm,
    "aqueduct": _each(lambda f, t, a: _aqueduct(f, t, a)),
    "pillage": _each(lambda f, t, a: barbarians.pillage(f, a.seat, a.choice)),
    "defender_draw": _each(lambda f, t, a: _defender_draw(f, t, a)),
    "progress_discard": _each(lambda f, t, a: draws.discard(f, a.seat, a.names)),
    "retreat": _each(lambda f, t, a: knights.retreat(f, a.seat, t.data, a.choice)),
    "deserter": _each(lambda f, t, a: politics.desert(f, t.owner, a.choice)),
    "deserter_strength": _each(lambda f, t, a: politics.recruit(f, a.seat, (a.choice, *t.data[1:]))),
    "deserter_place": _each(lambda f, t, a: _deserter_place(f, t, a)),
    "diplomat": _each(lambda f, t, a: _replace_road(f, a)),
    "spy": _each(lambda f, t, a: _spy(f, t, a)),
    "gift": _each(lambda f, t, a: _give(f, a.seat, t.owner, a.cards)),
    "master_merchant": _each(lambda f, t, a: _give(f, t.data[0], a.seat, a.cards)),
    "harbor": _each(lambda f, t, a: _exchange(f, t, a)),
}  # fmt: skip


def _defender_draw(f: CatanFold, task: Task, a: Answer) -> None:
    draws.draw(f, a.seat, a.choice)
    barbarians.defender_draws(f, task.data)  # the tied defenders still to draw


def _aqueduct(f: CatanFold, task: Task, a: Answer) -> None:
    if a.choice >= 0:  # optional: -1 declines
        f.emit(ev.CardsGained(seat=a.seat, cards=one(a.choice)))
    production.aqueducts(f, task.data)  # the eligible seats still to choose


def _exchange(f: CatanFold, task: Task, a: Answer) -> None:
    """Commercial Harbor: a resource face down for a commodity of the opponent's choice."""
    _give(f, task.owner, a.seat, one(task.data[0]))
    _give(f, a.seat, task.owner, one(a.choice))


def _deserter_place(f: CatanFold, task: Task, a: Answer) -> None:
    if a.choice >= 0:
        strength, active, activated = task.data
        k = Knight(
            spot=a.choice, owner=task.owner, strength=strength, active=bool(active), activated_turn=activated
        )
        f.emit(ev.KnightSet(knight=k))


def _replace_road(f: CatanFold, a: Answer) -> None:
    if a.choice >= 0:
        f.emit(ev.RoadPlaced(seat=a.seat, path=a.choice))


def _spy(f: CatanFold, task: Task, a: Answer) -> None:
    if a.names:
        src = task.data[0]
        f.emit(ev.CardStolen(src=src, dst=a.seat, card=a.names[0]), ev.CardStolenShadow(src=src, dst=a.seat))
