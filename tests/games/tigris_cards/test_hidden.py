"""Hidden information: hands, the draw order, VP piles below their top card
and the face-down connector never reach an audience that may not see them."""

from __future__ import annotations

import msgspec
import pytest

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.cards import Card
from shared.games.tigris_cards.commands import PlayConnector
from shared.games.tigris_cards.events import CardsDrawn, ConnectorChosen, DeckShuffled
from shared.games.tigris_cards.state import Over, State
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.search import by_iterations
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, redact, seat_only
from tests.games import contract_checks as cc
from tests.games.secrecy import harness
from tests.games.tigris_cards.invariants import check
from tests.games.tigris_cards.tables import BOW, BULL, LION, VASE, Run, make_state, spot

replace = msgspec.structs.replace


def _midgame_states() -> list[State]:
    states = []
    for seed in cc.seeds(6, salt=11):
        p = play(GAME, 4, seed, max_steps=60 + seed[-1] * 7)
        if not GAME.is_over(p.state):
            states.append(p.state)
    return states


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_hand_is_seen_by_its_owner_only(seat: int) -> None:
    for state in _midgame_states():
        varied = cc.check_non_interference(GAME, state, seat)
        assert any(s.players[seat].hand != state.players[seat].hand for s in varied)
        for s in varied:
            check(s)  # every card still accounted for
            assert sum(s.players[seat].hand) == sum(state.players[seat].hand)


def test_the_draw_order_is_seen_by_nobody() -> None:
    for state in _midgame_states():
        varied = cc.check_non_interference(GAME, state, None)
        assert any(s.deck != state.deck for s in varied)
        for s in varied:
            check(s)
            assert len(s.deck) == len(state.deck)


def test_vp_piles_show_their_top_card_only_even_to_the_owner() -> None:
    state = make_state(vp={LION: "RRGT", BULL: "K"})
    assert GAME.view(state, LION).players[LION].vp_top is Card.TREASURE
    assert GAME.view(state, None).players[BULL].vp_top is Card.BLACK
    assert GAME.view(state, LION).players[LION].vp_open is None
    varied = cc.check_non_interference(GAME, state, None, trials=8)
    assert any(s.players[LION].vp != state.players[LION].vp for s in varied)
    assert all(s.players[LION].vp[-1] == state.players[LION].vp[-1] for s in varied)
    for state in _midgame_states():
        cc.check_non_interference(GAME, state, None)


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

    varied = cc.check_non_interference(GAME, state, VASE, trials=8)
    assert any(s.union.colour is not Colour.BLUE for s in varied)  # type: ignore[union-attr]


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


def test_feeds_do_not_depend_on_another_seats_hand_or_the_draw_order() -> None:
    checked = 0
    seed = cc.seeds(1, salt=12)[0]
    for world in harness.states(GAME, 4, seed, count=8):
        for owner in (1, None):
            other = GAME.secrets.conceal(world.state, owner, Rng(b"\x0b" * 32, checked))
            checked += harness.check_feeds(world, harness.World(GAME, other, world.version), owner, seed, 10)
    assert checked > 80


def test_bots_do_not_peek_at_hidden_cards() -> None:
    for state in _midgame_states():
        (seat,) = GAME.actors(state)
        for name, level in GAME.bots.items():
            bot = by_iterations(level, 48)
            chosen = cc.encoded(bot(state, seat, Rng(b"\x0c" * 32, 0)))
            for other in range(4):
                if other == seat:
                    continue
                varied = GAME.secrets.conceal(state, other, Rng(b"\x0d" * 32, other))
                varied = GAME.secrets.conceal(varied, None, Rng(b"\x0e" * 32, other))
                assert cc.encoded(bot(varied, seat, Rng(b"\x0c" * 32, 0))) == chosen, name
