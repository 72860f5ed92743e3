"""Issue 13's checks on the card game, each written from the seeds' own words.

The seeds are shared/seeds/000_744fd85f180f59cf.txt (Finnish) and
shared/seeds/002_7fa0e4249b807421.txt (Hungarian); quotations are given in
English. The rules pinned here are docs/rules/tigris-cards.md §14.2 (a table
that spends no card) and §9.2, §12.1 (offers that come back, and why that is
not the board game's declined-monument fault).
"""

from __future__ import annotations

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.cards import Card
from shared.games.tigris_cards.commands import (
    BuildShip,
    Decline,
    Pass,
    PlaceLeader,
    PlayCard,
    PlayConnector,
    TakeTreasure,
)
from shared.games.tigris_cards.events import TurnStarted
from shared.games.tigris_cards.state import Act, Over, ShipOffer, TreasureOffer
from shared.games.tigris_common.colours import Colour, Leader
from tests.games.tigris_cards.tables import BULL, LION, Run, make_state, spot

# -- a table that spends no card (§14.2) ---------------------------------------


def _shuffle_kings(run: Run, turns: int) -> Run:
    """Each seat moves its king between two heads of its own: no card leaves a hand."""
    for _ in range(turns):
        seat = run.state.active
        home = 0 if seat == LION else 4
        run.do(
            seat,
            PlaceLeader(leader=Leader.KING, spot=spot(home + 1, 0)),
            PlaceLeader(leader=Leader.KING, spot=spot(home, 0)),
        )
    return run


def test_a_table_where_nobody_spends_a_card_ends_after_three_rounds_and_is_scored() -> None:
    """Finnish seed, "Pelin loppuminen": "The game ends when, at the end of a player's
    turn, not every player can refill his hand to eight cards. The game also ends if,
    at the end of a player's turn, only one treasure card is left in play."

    A table where nobody spends a card reaches neither: the pile never shrinks and no
    treasure is exchanged (that costs a red card). With the default options a seat may
    not pass while it can act, so such a table moves leaders about; after
    ``stalemate_rounds`` (3) full rounds of it the engine ends the game and scores it
    as the rules score an ended game, weakest colour first.
    """
    state = make_state(hands={LION: "RRRRBBBB", BULL: "GGGGKKKK"}, seats=2, vp={LION: "RBGK", BULL: "RRR"})
    run = _shuffle_kings(Run(state), 5)
    assert run.state.phase == Act(seat=BULL) and run.state.quiet_turns == 5
    run = _shuffle_kings(run, 1)
    assert run.state.phase == Over(reason="stalemate")
    result = GAME.result(run.state)
    assert result is not None and result.reason == "stalemate"
    assert [(s.seat, s.place, s.score) for s in result.standings] == [(LION, 1, 1), (BULL, 2, 0)]


def test_a_table_that_only_passes_ends_the_same_way() -> None:
    """Passing (an option; a last resort otherwise) spends no card either."""
    run = Run(make_state(hands={LION: "R" * 8, BULL: "B" * 8}, seats=2, allow_pass=True))
    for _ in range(6):
        run.do(run.state.active, Pass(), Pass())
    assert run.state.phase == Over(reason="stalemate")


def test_a_card_spent_starts_the_count_again() -> None:
    state = make_state(hands={LION: "RRRRBBBB", BULL: "GGGGKKKK"}, seats=2)
    run = _shuffle_kings(Run(state), 4)
    run.do(LION, PlayCard(colour=Colour.RED, column=7), PlaceLeader(leader=Leader.KING, spot=spot(1, 0)))
    assert run.of_type(TurnStarted)[-1] == TurnStarted(seat=BULL, actions=2, quiet=0)


# -- offers that come back (§9.2, §12.1) ----------------------------------------


def test_a_declined_ship_is_offered_again_when_the_next_card_lengthens_the_run() -> None:
    """Hungarian seed, "A színek képességei": "If someone, during his action, lays a
    civilisation card so that at least 4 cards of the same colour lie directly one
    under another in a column, the player who laid the card may buy a ship."

    Every card laid that leaves at least four is a trigger of its own, and no seed
    says a ship once declined is gone (as the board game's seed says of a declined
    monument), so the fifth card offers the ship again.
    """
    run = Run(make_state(columns={6: "TBGGG"}, hands={LION: "GG"}))
    run.do(LION, PlayCard(colour=Colour.GREEN, column=6))
    assert isinstance(run.state.phase, ShipOffer)
    run.do(LION, Decline(), PlayCard(colour=Colour.GREEN, column=6))
    assert run.state.phase == ShipOffer(seat=LION, column=6, colour=Colour.GREEN, ships=(Card.SHIP_GREEN,))
    run.do(LION, BuildShip(ship=Card.SHIP_GREEN))
    strict = Run(make_state(columns={6: "TBGGG"}, hands={LION: "GG"}, ship_on_longer_run=False))
    strict.do(LION, PlayCard(colour=Colour.GREEN, column=6), Decline())
    strict.do(LION, PlayCard(colour=Colour.GREEN, column=6))
    assert not isinstance(strict.state.phase, ShipOffer)


def test_a_declined_treasure_exchange_returns_only_with_a_new_union() -> None:
    """Finnish seed, "b) Kortti pelataan aarrekorttien väliin": "If the new, larger
    kingdom has a green leader (trader) and at least two treasure cards, the player
    with the green leader in the kingdom may take one of the kingdom's treasure cards
    ... This happens after the conflicts the union may have caused are settled."

    The chance belongs to a union: declined, it does not return with the next card,
    but a later union makes a new, larger kingdom and a new chance.
    """
    state = make_state(
        columns={1: "TRRB", 2: "TKKG", 3: "TRRR"},
        leaders={(BULL, Leader.TRADER): spot(2, 0)},
        hands={LION: "KK", BULL: "RR"},
    )
    run = Run(state).do(LION, PlayConnector(colour=Colour.BLACK, gap=1))
    assert run.state.phase == TreasureOffer(seat=BULL, columns=(1, 2))
    run.do(BULL, Decline())
    assert run.state.phase == Act(seat=LION)
    run.do(LION, PlayConnector(colour=Colour.BLACK, gap=2))
    assert run.state.phase == TreasureOffer(seat=BULL, columns=(1, 2, 3))
    run.do(BULL, TakeTreasure(column=3))
    assert run.state.players[BULL].vp == (Card.TREASURE,)
