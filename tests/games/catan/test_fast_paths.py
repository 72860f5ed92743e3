"""The engine's fast paths give exactly what their plain definitions give.

Each shortcut taken for speed (spots looked up from the road network, card
picks counted and ranked instead of listed, Longest Road over the seat's own
road graph, robber moves from the occupied spots, the random bot listing by
kind) is checked here against the straightforward definition it replaced, on
states met in random and greedy self-play of both editions. The random bot
must return the same command *and* leave its generator at the same draw, so
that seeded games stay byte-identical.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from shared.games.catan import CATAN, CATAN_CK, legal
from shared.games.catan import commands as cmd
from shared.games.catan import random_bot as fast_random_bot
from shared.games.catan import uniform_bot as fast_uniform_bot
from shared.games.catan.board import N_PATHS, N_SPOTS, PATH_ENDS, SPOT_PATHS, other_end
from shared.games.catan.rules import actions, robber, tasks, trade
from shared.games.catan.rules.building import (
    ROADS,
    SETTLEMENTS,
    blocked_for,
    can_settle,
    road_spots,
    roads_built,
    settlement_spots,
    settlements_built,
)
from shared.games.catan.rules.flow import awaited
from shared.games.catan.rules.longest_road import road_length
from shared.games.catan.state import State
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from tests.games.contract_checks import seeds

# -- the plain definitions ---------------------------------------------------


def plain_road_spots(state: State, seat: int) -> list[int]:
    def reaches(path: int) -> bool:
        for end in PATH_ENDS[path]:
            if state.owner[end] == seat:
                return True
            if blocked_for(state, seat, end):
                continue
            if any(state.roads[p] == seat for p in SPOT_PATHS[end] if p != path):
                return True
        return False

    def can_road(path: int) -> bool:
        if state.roads[path] != -1 or roads_built(state, seat) >= ROADS:
            return False
        if state.phase == "setup":
            return state.setup_spot in PATH_ENDS[path]
        return reaches(path)

    return [p for p in range(N_PATHS) if can_road(p)]


def plain_settlement_spots(state: State, seat: int) -> list[int]:
    if settlements_built(state, seat) >= SETTLEMENTS:
        return []
    return [s for s in range(N_SPOTS) if can_settle(state, seat, s)]


def plain_road_length(state: State, seat: int) -> int:
    own = [p for p in range(N_PATHS) if state.roads[p] == seat]

    def trail(spot: int, used: frozenset[int]) -> int:
        if used and blocked_for(state, seat, spot):
            return 0
        best = 0
        for p in SPOT_PATHS[spot]:
            if state.roads[p] == seat and p not in used:
                best = max(best, 1 + trail(other_end(p, spot), used | {p}))
        return best

    return max((trail(s, frozenset()) for s in {e for p in own for e in PATH_ENDS[p]}), default=0)


def plain_picks(hand: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def walk(i: int, left: int, chosen: tuple[int, ...]) -> None:
        if len(out) >= tasks.PICK_CAP:
            return
        if i == len(hand):
            if left == 0:
                out.append(chosen)
            return
        rest = sum(hand[i + 1 :])
        for take in range(max(0, left - rest), min(hand[i], left) + 1):
            walk(i + 1, left - take, (*chosen, take))

    walk(0, n, ())
    return out


_CHATTER = (cmd.OfferTrade, cmd.TradeBank, cmd.MoveKnight, cmd.ActivateKnight, cmd.PromoteKnight)


def plain_random_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    """The random bot as it read before its shortcuts: group the full legal list by kind."""
    by_kind: dict[type[cmd.CatanCommand], list[cmd.CatanCommand]] = {}
    for c in legal(state, seat):
        by_kind.setdefault(type(c), []).append(c)
    if cmd.EndTurn in by_kind and rng.below(3) == 0:
        return by_kind[cmd.EndTurn][0]
    kinds = sorted(by_kind, key=lambda k: k.__name__)
    if cmd.EndTurn in by_kind:
        kinds = [k for k in kinds if k not in _CHATTER or rng.below(4) == 0] or [cmd.EndTurn]
    return rng.choice(by_kind[rng.choice(kinds)])


def plain_bank_options(state: State, seat: int) -> list[cmd.TradeBank]:
    hand, ks = state.players[seat].hand, trade.kinds(state)
    return [
        cmd.TradeBank(give=give, get=get)
        for give in ks
        if hand[give] >= trade.rate(state, seat, give)
        for get in ks
        if get != give and state.bank[get] > 0
    ]


def plain_uniform_bot(state: State, seat: int, rng: Rng) -> cmd.CatanCommand:
    """The uniform bot's definition: one of the legal commands, domestic offers aside."""
    return rng.choice([c for c in legal(state, seat) if not isinstance(c, cmd.OfferTrade)])


# -- states met in play ------------------------------------------------------


def _states(game, bot: str, salt: int, games: int = 2, every: int = 3) -> list[State]:
    out: list[State] = []
    for i, seed in enumerate(seeds(games, salt=salt)):
        seats = 3 + i % 2
        p = play(game, seats, seed, bots=dict.fromkeys(range(seats), game.bots[bot]), max_steps=2500)
        state = game.fold(p.opening)
        for k, step in enumerate(p.steps):
            if k % every == 0:
                out.append(state)
            state = game.fold(step.events, state)
    return out


CASES = [(g, bot) for g in (CATAN, CATAN_CK) for bot in ("random", "greedy")] + [(CATAN, "uniform")]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0].key}-{c[1]}")
def states(request):
    game, bot = request.param
    return _states(game, bot, salt=31 + CASES.index(request.param))


def test_road_and_settlement_spots_match_their_definitions(states):
    for state in states:
        for seat in range(state.seats):
            assert road_spots(state, seat) == plain_road_spots(state, seat)
            if state.phase != "setup":
                assert settlement_spots(state, seat) == plain_settlement_spots(state, seat)


def test_bank_trades_match_their_definition(states):
    for state in states:
        for seat in range(state.seats):
            assert trade.bank_options(state, seat) == plain_bank_options(state, seat)


def test_the_roll_is_accepted_exactly_when_listed(states):
    for state in states:
        if state.phase == "roll" and state.task is None:
            assert actions.roll_accepts(cmd.RollDice(), state, state.active)
            assert cmd.RollDice() in actions.roll_options(state, state.active)


def test_road_length_matches_the_plain_search(states):
    for state in states[::4]:
        for seat in range(state.seats):
            assert road_length(state, seat) == plain_road_length(state, seat)


def test_robber_moves_are_each_hex_with_its_adjacent_opponents(states):
    for state in states:
        for seat in range(state.seats):
            expected = []
            for h in robber.target_hexes(state, seat):
                victims = robber.adjacent_opponents(state, seat, h)
                expected += [(h, v) for v in victims] or [(h, -1)]
            assert robber.moves(state, seat) == expected


def test_a_robber_move_is_valid_exactly_when_listed(states):
    for state in states:
        if state.task is None or state.task.kind != "robber":
            continue
        seat = state.task.seats[0]
        listed = tasks.options(state, seat)
        for h in range(19):
            for victim in (-1, *range(state.seats)):
                c = cmd.MoveRobber(hex=h, victim=victim)
                assert tasks.valid(c, state, seat) == (c in listed)


def test_the_action_phase_by_kind_is_the_legal_list_grouped(states):
    for state in states:
        if state.task is None and state.phase == "main":
            grouped: dict[type, list[cmd.CatanCommand]] = {}
            for c in legal(state, state.active):
                grouped.setdefault(type(c), []).append(c)
            assert {k: list(v) for k, v in actions.main_by_kind(state, state.active).items()} == grouped


@pytest.mark.parametrize(
    ("fast_bot", "plain_bot"),
    [(fast_random_bot, plain_random_bot), (fast_uniform_bot, plain_uniform_bot)],
    ids=["random: from the full legal list", "uniform: from the legal list without offers"],
)
def test_a_bot_draws_as_from_its_plain_definition(states, fast_bot, plain_bot):
    for n, state in enumerate(states):
        for seat in (
            sorted(awaited(state.task)) if state.task else [state.active] if state.phase != "over" else []
        ):
            fast, plain = Rng(bytes(32), n), Rng(bytes(32), n)
            assert fast_bot(state, seat, fast) == plain_bot(state, seat, plain)
            assert fast.draws == plain.draws


def test_card_picks_are_counted_and_ranked_as_listed():
    r = random.Random(5)
    for _ in range(400):
        hand = tuple(r.choice((0, 0, 1, 2, 3, 5, 9)) for _ in range(8))
        for n in {0, 1, sum(hand) // 2, sum(hand), sum(hand) + 1, r.randint(0, sum(hand))}:
            listed = plain_picks(hand, n)
            assert tasks.picks(hand, n) == listed
            assert tasks.pick_count(hand, n) == len(listed)
            for i in islice(r.sample(range(len(listed)), len(listed)), 6):
                assert tasks.pick_at(hand, n, i) == listed[i]


def test_card_picks_stop_at_the_cap():
    hand = (9, 9, 9, 9, 9, 0, 0, 0)
    assert tasks.pick_count(hand, 22) == tasks.PICK_CAP == len(tasks.picks(hand, 22))
    assert tasks.pick_at(hand, 22, tasks.PICK_CAP - 1) == plain_picks(hand, 22)[-1]


def test_public_points_count_each_building_by_its_level(states):
    from shared.games.catan.rules.victory import public_points

    for state in states:
        for seat in range(state.seats):
            p = state.players[seat]
            plain = sum(lv for o, lv in zip(state.owner, state.level, strict=True) if o == seat)
            plain += 2 * sum(1 for spot in state.metropolis if spot >= 0 and state.owner[spot] == seat)
            plain += 2 * (state.longest == seat) + 2 * (state.largest_army == seat)
            plain += p.vp_cards + p.defender + (state.merchant_owner == seat)
            assert public_points(state, seat) == plain


def test_the_hexes_of_a_number_are_those_carrying_it(states):
    from shared.games.catan.rules.production import hexes_numbered

    for state in states[::10]:
        for total in range(2, 13):
            plain = tuple(h for h, n in enumerate(state.numbers) if n == total)
            assert hexes_numbered(state.numbers).get(total, ()) == plain
