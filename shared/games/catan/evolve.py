"""Fold one event into the state: applies recorded facts, never decides."""

from __future__ import annotations

from typing import TypeVar, assert_never

from msgspec.structs import replace

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.cards import Hand, add, stock, sub, track_of
from shared.games.catan.state import Knight, Player, State

T = TypeVar("T")


def _set(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _with_player(state: State, seat: int, **changes: object) -> State:
    return replace(state, players=_set(state.players, seat, replace(state.players[seat], **changes)))


def _hand_change(state: State, seat: int, delta: Hand, sign: int) -> State:
    p = state.players[seat]
    hand = add(p.hand, delta) if sign > 0 else sub(p.hand, delta)
    bank = sub(state.bank, delta) if sign > 0 else add(state.bank, delta)
    return replace(state, players=_set(state.players, seat, replace(p, hand=hand)), bank=bank)


def _move_cards(state: State, src: int, dst: int, cards: Hand) -> State:
    players = list(state.players)
    players[src] = replace(players[src], hand=sub(players[src].hand, cards))
    players[dst] = replace(players[dst], hand=add(players[dst].hand, cards))
    return replace(state, players=tuple(players))


def _remove_card(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _put_knight(state: State, knight: Knight) -> State:
    rest = tuple(k for k in state.knights if k.spot != knight.spot)
    return replace(state, knights=tuple(sorted((*rest, knight), key=lambda k: k.spot)))


def _started(e: ev.Started) -> State:
    o = e.options
    bank = stock(o.ck)
    return State(
        options=o,
        seats=e.seats,
        active=e.first,
        owner=(-1,) * board.N_SPOTS,
        level=(0,) * board.N_SPOTS,
        roads=(-1,) * board.N_PATHS,
        players=(Player(),) * e.seats,
        road_lengths=(0,) * e.seats,
        bank=bank,
    )


def _draw(state: State, e: ev.CardDrawn) -> State:
    p = state.players[e.seat]
    cards = tuple(sorted((*p.cards, e.card)))
    if e.deck < 0:
        state = replace(state, dev_deck=state.dev_deck[1:])
        return _with_player(state, e.seat, cards=cards, fresh=(*p.fresh, e.card))
    state = replace(state, decks=_set(state.decks, e.deck, state.decks[e.deck][1:]))
    return _with_player(state, e.seat, cards=cards)


def _to_deck_bottom(state: State, card: str) -> State:
    if not state.options.ck:
        return state
    t = track_of(card)
    return replace(state, decks=_set(state.decks, t, (*state.decks[t], card)))


def _played(state: State, e: ev.CardPlayed) -> State:
    p = state.players[e.seat]
    state = _with_player(
        state,
        e.seat,
        cards=_remove_card(p.cards, e.card),
        knights_played=p.knights_played + (e.card == "knight" and not state.options.ck),
    )
    return _to_deck_bottom(state, e.card)


def _pillaged(state: State, e: ev.CityPillaged) -> State:
    state = replace(
        state, level=_set(state.level, e.spot, 1), walls=tuple(w for w in state.walls if w != e.spot)
    )
    if e.tipped:
        state = replace(state, tipped=tuple(sorted((*state.tipped, e.spot))))
    return state


def _attacked(state: State, fighters: tuple[int, ...] | None) -> State:
    knights = tuple(
        replace(k, active=False) if fighters is None or k.spot in fighters else k for k in state.knights
    )
    return replace(state, knights=knights, barbarian=0, attacks=state.attacks + 1)


def _building(state: State, e: ev.BuildingPlaced) -> State:
    state = replace(state, owner=_set(state.owner, e.spot, e.seat), level=_set(state.level, e.spot, e.level))
    if e.spot in state.tipped:
        state = replace(state, tipped=tuple(s for s in state.tipped if s != e.spot))
    return state


def _task_answered(state: State, e: ev.Answered) -> State:
    assert state.task is not None
    return replace(state, task=replace(state.task, answers=(*state.task.answers, e.answer)))


# The steps of the last ``decide``, by the event's id: (state before, event, state after). ``decide``
# folds every event it emits (``decide.Fold``), and its caller (self-play, the search bots, the
# reducer's in-process path) folds the same event objects into the same state object again; that
# second fold is then a dictionary lookup. The entry holds the state and the event themselves, so
# their ids stay theirs while it exists, and a hit needs both to be the very objects folded, whose
# result is fixed: they are frozen. Anything else (decoded events, another state) is folded anew.
Folded = dict[int, tuple[State, ev.CatanEvent, State]]
_folded: Folded = {}


def remember(steps: Folded) -> None:
    """Keep one decision's steps for :func:`evolve` (replacing the previous decision's, in one
    assignment: a concurrent reader sees one decision's steps or the other's)."""
    global _folded
    _folded = steps


def evolve(state: State | None, event: ev.CatanEvent) -> State:
    step = _folded.get(id(event))
    if step is not None and step[1] is event and step[0] is state:
        return step[2]
    return apply(state, event)


def apply(state: State | None, event: ev.CatanEvent) -> State:
    """``evolve`` itself, without looking at the last decision's steps."""
    if isinstance(event, ev.Started):
        return _started(event)
    assert state is not None
    # The most frequent events of both editions first (counted in self-play): a match tries its cases
    # in order.
    match event:
        case ev.PhaseSet():
            # A new turn: last turn's purchases become playable.
            if event.phase == "roll" and any(p.fresh for p in state.players):
                state = replace(state, players=tuple(replace(p, fresh=()) for p in state.players))
            return replace(
                state, phase=event.phase, active=event.active, turn=event.turn,
                setup_queue=event.setup_queue, setup_spot=event.setup_spot,
            )  # fmt: skip
        case ev.CardsGained():
            return _hand_change(state, event.seat, event.cards, +1)
        case ev.DiceRolled():
            return replace(state, dice=(event.yellow, event.red, event.event))
        case ev.Answered():
            return _task_answered(state, event)
        case ev.TaskOpened():
            return replace(state, task=event.task)
        case ev.TaskClosed():
            return replace(state, task=None)
        case ev.CardsPaid():
            return _hand_change(state, event.seat, event.cards, -1)
        case ev.TodoSet():
            return replace(state, todo=event.todo)
        # Shadows, and facts that change no state: what a seat was shown, the roll for the first seat.
        case (
            ev.AnsweredShadow() | ev.CardsTakenShadow() | ev.HandShown() | ev.ProgressShown()
            | ev.CardDrawnShadow() | ev.CardDiscardedShadow() | ev.CardStolenShadow() | ev.StartRolled()
        ):  # fmt: skip
            return state
        case ev.BarbarianMoved():
            return replace(state, barbarian=event.position)
        case ev.CardDrawn():
            return _draw(state, event)
        case ev.RobberMoved():
            return replace(state, robber=event.hex)
        case ev.CardsPassed() | ev.CardsTaken():
            return _move_cards(state, event.src, event.dst, event.cards)
        case ev.CardPlayed():
            return _played(state, event)
        case ev.RoadPlaced():
            return replace(state, roads=_set(state.roads, event.path, event.seat))
        case ev.EffectsSet():
            return replace(state, effects=event.effects)
        case ev.KnightSet():
            return _put_knight(state, event.knight)
        case ev.CardDiscarded():
            state = _with_player(
                state, event.seat, cards=_remove_card(state.players[event.seat].cards, event.card)
            )
            return _to_deck_bottom(state, event.card)
        case ev.BoardLaid():
            robber = event.terrain.index(board.DESERT)
            return replace(
                state, terrain=event.terrain, numbers=event.numbers, harbors=event.harbors, robber=robber
            )
        case ev.DecksShuffled():
            return replace(state, dev_deck=event.dev, decks=event.progress)
        case ev.HarborOffered():
            assert state.task is not None
            return replace(state, task=replace(state.task, data=(event.kind,)))
        case ev.GameWon():
            return replace(state, phase="over", winner=event.seat, task=None)
        case ev.BuildingPlaced():
            return _building(state, event)
        case ev.CityPillaged():
            return _pillaged(state, event)
        case ev.RoadRemoved():
            return replace(state, roads=_set(state.roads, event.path, -1))
        case ev.WallPlaced():
            return replace(state, walls=tuple(sorted((*state.walls, event.spot))))
        case ev.KnightRemoved():
            return replace(state, knights=tuple(k for k in state.knights if k.spot != event.spot))
        case ev.MerchantMoved():
            return replace(state, merchant=event.hex, merchant_owner=event.seat)
        case ev.NumbersSwapped():
            n = state.numbers
            return replace(state, numbers=_set(_set(n, event.a, n[event.b]), event.b, n[event.a]))
        case ev.BarbariansAttacked():
            return _attacked(state, event.fighters)
        case ev.MetropolisPlaced():
            return replace(state, metropolis=_set(state.metropolis, event.track, event.spot))
        case ev.LongestRoadSet():
            return replace(state, longest=event.holder, road_lengths=event.lengths)
        case ev.LargestArmySet():
            return replace(state, largest_army=event.holder)
        case ev.DefenderAwarded():
            state = replace(state, defenders_left=max(0, state.defenders_left - 1))
            return _with_player(state, event.seat, defender=state.players[event.seat].defender + 1)
        case ev.ImprovementBought():
            return _with_player(
                state, event.seat, levels=_set(state.players[event.seat].levels, event.track, event.level)
            )
        case ev.CardRevealed():
            p = state.players[event.seat]
            return _with_player(
                state, event.seat, cards=_remove_card(p.cards, event.card), vp_cards=p.vp_cards + 1
            )
        case ev.CardStolen():
            state = _with_player(
                state, event.src, cards=_remove_card(state.players[event.src].cards, event.card)
            )
            return _with_player(
                state, event.dst, cards=tuple(sorted((*state.players[event.dst].cards, event.card)))
            )
        case _:
            assert_never(event)
