"""Hidden information: hands, the draw order, VP piles below their top card
and the face-down connector never reach an audience that may not see them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.cards import Card
from shared.games.tigris_cards.commands import PlayConnector
from shared.games.tigris_cards.events import CardsDrawn, ConnectorChosen, DeckShuffled
from shared.games.tigris_cards.state import Over, State
from shared.games.tigris_common.colours import COLOURS, Colour, Leader
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, redact, seat_only
from tests.games import contract_checks as cc
from tests.games.tigris_cards.tables import BOW, BULL, LION, VASE, Run, make_state, spot

replace = msgspec.structs.replace


def _midgame_states() -> list[State]:
    states = []
    for seed in cc.seeds(6, salt=11):
        p = play(GAME, 4, seed, max_steps=60 + seed[-1] * 7)
        if not GAME.is_over(p.state):
            states.append(p.state)
    return states


def _new_hand(state: State, owner: int, rng: Rng) -> State:
    size = sum(state.players[owner].hand)
    hand = [0, 0, 0, 0]
    for _ in range(size):
        hand[rng.below(4)] += 1
    players = list(state.players)
    players[owner] = replace(players[owner], hand=tuple(hand))
    return replace(state, players=tuple(players))


def _new_deck(state: State, owner: int, rng: Rng) -> State:
    return replace(state, deck=tuple(rng.choice(COLOURS) for _ in state.deck))


def _new_pile_bottoms(state: State, owner: int, rng: Rng) -> State:
    players = []
    for p in state.players:
        below = tuple(rng.choice((Card.RED, Card.BLUE, Card.TREASURE)) for _ in p.vp[:-1])
        players.append(replace(p, vp=below + p.vp[-1:]))
    return replace(state, players=tuple(players))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_hand_is_seen_by_its_owner_only(seat: int) -> None:
    for state in _midgame_states():
        cc.check_non_interference(GAME, state, _new_hand, hidden_from=seat, seats=4)


def test_the_draw_order_is_seen_by_nobody() -> None:
    for state in _midgame_states():
        cc.check_non_interference(GAME, state, _new_deck, hidden_from=None, seats=4)


def test_vp_piles_show_their_top_card_only_even_to_the_owner() -> None:
    state = make_state(vp={LION: "RRGT", BULL: "K"})
    assert GAME.view(state, LION).players[LION].vp_top is Card.TREASURE
    assert GAME.view(state, None).players[BULL].vp_top is Card.BLACK
    assert GAME.view(state, LION).players[LION].vp_open is None
    cc.check_non_interference(GAME, state, _new_pile_bottoms, hidden_from=None, seats=4)
    for state in _midgame_states():
        cc.check_non_interference(GAME, state, _new_pile_bottoms, hidden_from=None, seats=4)


def test_open_piles_variant_and_final_totals_show_the_counts() -> None:
    state = make_state(vp={LION: "RRGT"}, open_piles=True)
    tally = GAME.view(state, BULL).players[LION].vp_open
    assert tally is not None and tally.points == (2, 0, 1, 0) and tally.treasures == 1
    over = replace(make_state(vp={LION: "RRGT"}), phase=Over(reason="cards"))
    assert GAME.view(over, None).players[LION].vp_open.points == (2, 0, 1, 0)  # type: ignore[union-attr]
    assert GAME.view(over, None).result is not None


def _connector_laid() -> Run:
    given = make_state(
        columns={0: "TGGG", 1: "TRRR"},
        leaders={(LION, Leader.TRADER): spot(0, 1), (BULL, Leader.TRADER): spot(1, 1)},
        hands={VASE: "BGG", LION: "G", BULL: "G"},
        active=VASE,
    )
    return Run(given).do(VASE, PlayConnector(colour=Colour.BLUE, gap=0))


def test_the_connector_colour_is_secret_until_its_conflicts_are_settled() -> None:
    run = _connector_laid()
    state = run.state
    assert state.union is not None and state.table.gaps[0] is None
    assert GAME.view(state, VASE).pending.colour is Colour.BLUE  # type: ignore[union-attr]
    for audience in (None, LION, BULL, BOW):
        assert GAME.view(state, audience).pending.colour is None  # type: ignore[union-attr]
        feed = redact(run.events, GAME.visibility, audience)
        assert b"blue" not in msgspec.json.encode(feed)

    def other_colour(s: State, owner: int, rng: Rng) -> State:
        return replace(s, union=replace(s.union, colour=rng.choice(COLOURS)))

    cc.check_non_interference(GAME, state, other_colour, hidden_from=VASE, seats=4)


def test_the_connector_is_revealed_to_all_once_settled() -> None:
    run = _connector_laid()
    run.do(LION, *[GAME.legal(run.state, LION)[0]])
    run.do(BULL, *[GAME.legal(run.state, BULL)[0]])
    while run.state.union is not None:
        seat = next(iter(GAME.actors(run.state)))
        run.do(seat, GAME.legal(run.state, seat)[-1])
    assert run.state.table.gaps[0].card is Card.BLUE  # type: ignore[union-attr]
    assert GAME.view(run.state, None).gaps[0].card is Card.BLUE  # type: ignore[union-attr]


def test_private_events_have_a_public_shadow() -> None:
    assert GAME.visibility(DeckShuffled(order=(Colour.RED,))) == SERVER_ONLY
    assert GAME.visibility(CardsDrawn(seat=2, cards=(Colour.RED,))) == seat_only(2)
    assert GAME.visibility(ConnectorChosen(seat=1, gap=0, colour=Colour.RED)) == seat_only(1)
    p = play(GAME, 3, cc.seeds(1, salt=21)[0], max_steps=40)
    kinds = {type(e).__name__ for e in redact(p.events, GAME.visibility, None)}
    assert "CardsDrawnCount" in kinds and "CardsDrawn" not in kinds and "DeckShuffled" not in kinds
    assert all(GAME.visibility(e) == PUBLIC for e in p.events if type(e).__name__ == "ConnectorLaid")


def _feeds_and_views(state: State, steps: int) -> dict[Any, bytes]:
    """Seat 0 acts with a fixed bot while it alone is awaited."""
    events: list[Any] = []
    for version in range(steps):
        if GAME.actors(state) != frozenset({0}):
            break
        command = GAME.bots["random"](state, 0, Rng(b"\x09" * 32, version))
        new = GAME.decide(state, 0, command, Rng(b"\x0a" * 32, version))
        events += new
        state = GAME.fold(new, state)
    out = {}
    for audience in (None, 0, 2, 3):
        feed = redact(events, GAME.visibility, audience)
        out[audience] = cc.encoded(feed) + cc.encoded(GAME.view(state, audience))
    return out


def test_feeds_do_not_depend_on_another_seats_hand() -> None:
    checked = 0
    seed = cc.seeds(1, salt=12)[0]
    for steps in range(20, 400, 13):
        state = play(GAME, 4, seed, max_steps=steps).state
        if GAME.actors(state) != frozenset({0}):
            continue
        checked += 1
        baseline = _feeds_and_views(state, 12)
        for trial in range(3):
            varied = _new_hand(state, 1, Rng(b"\x0b" * 32, trial))
            assert _feeds_and_views(varied, 12) == baseline
            shuffled = _feeds_and_views(_new_deck(state, -1, Rng(b"\x0f" * 32, trial)), 12)
            assert shuffled[None] == baseline[None]  # seats see their own new draws only
    assert checked


def test_bots_do_not_peek_at_hidden_cards() -> None:
    for state in _midgame_states():
        (seat,) = GAME.actors(state)
        for name, bot in GAME.bots.items():
            chosen = cc.encoded(bot(state, seat, Rng(b"\x0c" * 32, 0)))
            for other in range(4):
                if other == seat:
                    continue
                varied = _new_hand(state, other, Rng(b"\x0d" * 32, other))
                varied = _new_deck(varied, other, Rng(b"\x0e" * 32, other))
                assert cc.encoded(bot(varied, seat, Rng(b"\x0c" * 32, 0))) == chosen, name
