"""What Catan keeps hidden, for the generic secrecy test.

Hidden from everyone: the order of the development deck and of the progress
decks. Hidden by a seat from the others: which cards of each kind it holds
(the resource and commodity counts are public), which development or progress
cards (their number, and the deck each came from, are public), and its
answers to a task until the task closes.

The bank is public, so the number of each resource held by all seats together
is public too: one seat's resources cannot change kind alone in a state the
rules could reach. They are varied anyway (only within that seat's hand, so
every count a view shows stays), because which kinds a hand holds is the
secret views must keep. Development and progress cards are exchanged with
their deck, which keeps every total. While a Spy looks at a seat's progress
cards they stay as they are, and its resources and commodities are varied
still; while a Master Merchant looks at resources and commodities, those stay
and the progress cards are varied.

Cards of a kind are interchangeable, so there are no item ids.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, RESOURCES, Hand, covers, one, stock, track_of
from shared.games.catan.decide import decide
from shared.games.catan.legal import legal
from shared.games.catan.rules.domestic import DEAL
from shared.games.catan.rules.victory import points
from shared.games.catan.state import Player, State
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience

#: Tasks during which the task's player looks at part of the target's hand (``data[0]``).
SHOWN = ("spy", "master_merchant")


def conceal(state: State, owner: Audience, rng: Rng) -> State:
    if owner is None:
        return replace(
            state,
            dev_deck=tuple(rng.shuffled(state.dev_deck)),
            decks=tuple(tuple(rng.shuffled(deck)) for deck in state.decks),
        )
    task = state.task
    looked_at = task.kind if task is not None and task.kind in SHOWN and task.data[0] == owner else ""
    # A Spy sees the progress cards only, a Master Merchant the resources and commodities only:
    # the rest of that hand is as secret as ever.
    if looked_at != "master_merchant":
        state = _resources(state, owner, rng)
    if looked_at != "spy":
        state = _progress(state, owner, rng) if state.options.ck else _development(state, owner, rng)
    return _answer(state, owner, rng)


def _with(state: State, seat: int, player: Player) -> State:
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def _resources(state: State, seat: int, rng: Rng) -> State:
    hand = list(state.players[seat].hand)
    kept = _committed(state, seat)
    for group in (RESOURCES, COMMODITIES):
        free = sum(hand[k] - kept[k] for k in group)
        for k in group:
            hand[k] = kept[k]
        for _ in range(free):
            hand[rng.choice(group)] += 1
    new: Hand = tuple(hand)
    return _with(state, seat, replace(state.players[seat], hand=new))


def _committed(state: State, seat: int) -> Hand:
    """The cards the open task shows the seat must hold: what it offered or
    agreed to give, and the resource it hands over face down to a Commercial
    Harbor partner (who knows it). Deals it could pay as the trading seat stay
    payable, since whether it can is its own secret either way."""
    task = state.task
    kept = [0] * len(state.players[seat].hand)
    gives: list[tuple[int, ...]] = []
    if task is not None and task.kind == "trade" and task.owner == seat:
        gives.append(task.data[:8])
    if task is not None and task.kind == "trade_confirm":
        hand = state.players[seat].hand
        for i in range(0, len(task.data), DEAL):
            partner, give, get = task.data[i], task.data[i + 1 : i + 9], task.data[i + 9 : i + 17]
            if partner == seat:
                gives.append(get)
            elif task.owner == seat and covers(hand, give):
                gives.append(give)
    if task is not None and task.kind == "harbor" and task.owner == seat:
        gives.append(one(task.data[0]))
    for cards in gives:
        kept = [max(a, b) for a, b in zip(kept, cards, strict=True)]
    return tuple(kept)


def _progress(state: State, seat: int, rng: Rng) -> State:
    """Cards exchanged with their own track's deck: how many came from each deck is public."""
    decks = [list(d) for d in state.decks]
    cards = list(state.players[seat].cards)
    for i, card in enumerate(cards):
        deck = decks[track_of(card)]
        if deck and rng.below(2):
            j = rng.below(len(deck))
            cards[i], deck[j] = deck[j], card
    player = replace(state.players[seat], cards=tuple(sorted(cards)))
    return replace(_with(state, seat, player), decks=tuple(tuple(d) for d in decks))


def _development(state: State, seat: int, rng: Rng) -> State:
    """Cards exchanged with the deck, those bought this turn kept apart (they may not be played yet)."""
    p = state.players[seat]
    deck = list(state.dev_deck)
    fresh = list(p.fresh)
    old = list(p.cards)
    for card in fresh:
        old.remove(card)
    for held in (old, fresh):
        for i, card in enumerate(held):
            if deck and rng.below(2):
                j = rng.below(len(deck))
                held[i], deck[j] = deck[j], card
    player = replace(p, cards=tuple(sorted(old + fresh)), fresh=tuple(fresh))
    varied = replace(_with(state, seat, player), dev_deck=tuple(deck))
    # Hidden Victory Point cards count at once on the holder's turn: reaching the
    # target by them would have ended the game already.
    return state if points(varied, seat) >= state.options.target else varied


def _answer(state: State, seat: int, rng: Rng) -> State:
    """Another answer the seat could have given to the open task, if it answered already."""
    task = state.task
    mine = [i for i, a in enumerate(task.answers) if a.seat == seat] if task is not None else []
    if task is None or not mine:
        return state
    i = mine[0]
    asked = replace(state, task=replace(task, answers=(*task.answers[:i], *task.answers[i + 1 :])))
    options = legal(asked, seat)
    if not options:
        return state
    events = decide(asked, seat, rng.choice(options), rng)
    answers = [e.answer for e in events if isinstance(e, ev.Answered)]
    if len(answers) != 1 or any(isinstance(e, ev.TaskClosed) for e in events):
        return state
    return replace(state, task=replace(task, answers=(*task.answers[:i], answers[0], *task.answers[i + 1 :])))


def sample_hidden(state: State, seat: int, rng: Rng) -> State:
    """Every card the seat has not seen dealt afresh: the other seats' resources
    and commodities from the pool of what they hold between them (public, as
    the bank is), their development or progress cards together with the decks
    (each progress card back to a seat holding one from its deck), and their
    answers to the open task chosen again. What the open task shows the seat
    stays: the cards a seat must hold for it, and the part of a hand its Spy
    or Master Merchant looks at."""
    task = state.task
    peek = task.kind if task is not None and task.kind in SHOWN and task.owner == seat else ""
    target = task.data[0] if task is not None and peek else -1
    others = [s for s in range(state.seats) if s != seat]
    state = _redeal_hands(state, [s for s in others if not (peek == "master_merchant" and s == target)], rng)
    holders = [s for s in others if not (peek == "spy" and s == target)]
    state = (
        _redeal_progress(state, holders, rng)
        if state.options.ck
        else _redeal_development(state, holders, rng)
    )
    for s in others:
        state = _answer(state, s, rng)
    return state


def _redeal_hands(state: State, seats: list[int], rng: Rng) -> State:
    """The pool is what neither the bank nor a hand the seat sees holds."""
    kept = {s: _committed(state, s) for s in seats}
    seen = [state.bank, *(p.hand for s, p in enumerate(state.players) if s not in seats), *kept.values()]
    left = [n - sum(hand[k] for hand in seen) for k, n in enumerate(stock(state.options.ck))]
    for group in (RESOURCES, COMMODITIES):
        pool = rng.shuffled([k for k in group for _ in range(left[k])])
        for s in seats:
            hand = list(state.players[s].hand)
            free = sum(hand[k] - kept[s][k] for k in group)
            for k in group:
                hand[k] = kept[s][k]
            for k in pool[:free]:
                hand[k] += 1
            pool = pool[free:]
            state = _with(state, s, replace(state.players[s], hand=tuple(hand)))
    return state


def _redeal_progress(state: State, seats: list[int], rng: Rng) -> State:
    decks = list(state.decks)
    for track, deck in enumerate(state.decks):
        held = {s: sum(track_of(c) == track for c in state.players[s].cards) for s in seats}
        pool = rng.shuffled(
            sorted((*deck, *(c for s in seats for c in state.players[s].cards if track_of(c) == track)))
        )
        for s in seats:
            mine = [c for c in state.players[s].cards if track_of(c) != track]
            cards = tuple(sorted((*mine, *pool[: held[s]])))
            state, pool = _with(state, s, replace(state.players[s], cards=cards)), pool[held[s] :]
        decks[track] = tuple(pool)
    return replace(state, decks=tuple(decks))


def _redeal_development(state: State, seats: list[int], rng: Rng) -> State:
    pool = rng.shuffled(sorted((*state.dev_deck, *(c for s in seats for c in state.players[s].cards))))
    for s in seats:
        p = state.players[s]
        old, pool = pool[: len(p.cards) - len(p.fresh)], pool[len(p.cards) - len(p.fresh) :]
        fresh, pool = pool[: len(p.fresh)], pool[len(p.fresh) :]
        player = replace(p, cards=tuple(sorted(old + fresh)), fresh=tuple(sorted(fresh)))
        state = _with(state, s, player)
    return replace(state, dev_deck=tuple(pool))


def reveals(event: ev.CatanEvent, audience: Audience) -> bool:
    match event:
        # Draws, steals and the hands a Spy or Master Merchant looks at: to their parties.
        case ev.CardDrawn() | ev.CardsTaken() | ev.CardStolen() | ev.HandShown() | ev.ProgressShown():
            return True
        # A Monopoly takes every card of a kind in the open; a closed task shows
        # its answers; a drawn Victory Point card is shown; the winner shows all points.
        case ev.CardsPassed() | ev.TaskClosed() | ev.CardRevealed() | ev.GameWon():
            return True
        # Everything else tells no audience a hidden fact: the open board and turn,
        # shadows (counts only), what a seat itself sent (its answer, its discard,
        # the card it plays, the resource it offers a Commercial Harbor partner),
        # and the deck order, which no seat sees.
        case (
            ev.Started() | ev.StartRolled() | ev.BoardLaid() | ev.DecksShuffled() | ev.PhaseSet()
            | ev.EffectsSet() | ev.TodoSet() | ev.TaskOpened() | ev.HarborOffered() | ev.Answered()
            | ev.AnsweredShadow() | ev.BuildingPlaced() | ev.CityPillaged() | ev.RoadPlaced()
            | ev.RoadRemoved() | ev.WallPlaced() | ev.KnightSet() | ev.KnightRemoved() | ev.CardsPaid()
            | ev.CardsGained() | ev.CardsTakenShadow() | ev.DiceRolled() | ev.RobberMoved()
            | ev.MerchantMoved() | ev.NumbersSwapped() | ev.BarbarianMoved() | ev.BarbariansAttacked()
            | ev.DefenderAwarded() | ev.ImprovementBought() | ev.MetropolisPlaced() | ev.LongestRoadSet()
            | ev.LargestArmySet() | ev.CardDrawnShadow() | ev.CardPlayed() | ev.CardDiscarded()
            | ev.CardDiscardedShadow() | ev.CardStolenShadow()
        ):  # fmt: skip
            return False
        case _:
            assert_never(event)
