"""The reducer's authoritative planning: versions, envelopes, visibility of replies."""

import msgspec

from services.reducer.plan import Plan, accepted, plan
from shared.kernel import table as tables
from shared.kernel.auth import token_hash
from shared.kernel.clocks import ClockSettings
from shared.kernel.table import TableOpened
from shared.messaging.messages import MoveMsg, OpenMsg, OpenTable, Outcome
from tests.support.highcard import GAME, Dealt
from tests.support.messages import move_msg


def open_msg() -> OpenMsg:
    return OpenMsg(
        game_id="g",
        partition=1,
        command_id="o",
        correlation_id="corr",
        reply_to="gw",
        received_ns=5,
        open=OpenTable(game="highcard", seats=2, token_hashes=(token_hash("a"), token_hash("b"))),
    )


def play_msg(opening: OpenMsg, command_id: str, token: str, card: object) -> MoveMsg:
    """The seat holding ``token`` plays ``card`` at the table ``opening`` opened."""
    routing = ("game_id", "partition", "correlation_id", "reply_to", "received_ns")
    return move_msg(
        token,
        {"type": "highcard.play", "card": card},
        command_id,
        **{name: getattr(opening, name) for name in routing},
    )


def test_opening_plans_contiguous_envelopes_with_a_fresh_seed() -> None:
    p = plan(open_msg(), None, 1000, lambda: b"\x09" * 32)
    assert isinstance(p, Plan)
    envs = p.request.envelopes
    assert [e.version for e in envs] == list(range(1, len(envs) + 1))
    assert {e.command_id for e in envs} == {"o"} and {e.correlation_id for e in envs} == {"corr"}
    assert all(
        e.partition == 1 and e.server_time == 1000 and e.event_id == f"game:g:{e.version}" for e in envs
    )
    assert p.request.expected == 0 and p.after.version == len(envs)
    assert isinstance(p.events[0], TableOpened)


def test_a_move_chains_on_the_planned_table_and_a_bad_one_is_rejected() -> None:
    opened = plan(open_msg(), None, 0, lambda: b"\x09" * 32)
    assert isinstance(opened, Plan)
    table = opened.after
    card = table.state.hands[0][0]
    opening = open_msg()
    msg = play_msg(opening, "m1", "a", card)
    p = plan(msg, table, 0, lambda: b"")
    assert isinstance(p, Plan) and p.request.expected == table.version and p.seat == 0
    again = plan(msg, p.after, 0, lambda: b"")
    assert isinstance(again, Outcome) and again.code == "not_your_turn"
    forged = plan(msgspec.structs.replace(msg, token_hash="x"), table, 0, lambda: b"")
    assert isinstance(forged, Outcome) and forged.code == "bad_token"


def test_a_reply_shows_the_acting_seat_only_what_it_may_see() -> None:
    opened = plan(open_msg(), None, 0, lambda: b"\x09" * 32)
    assert isinstance(opened, Plan)
    for seat in (None, 0, 1):
        outcome = accepted(open_msg(), GAME, seat, 1, opened.events, 0)
        dealt = [msgspec.json.decode(raw) for raw in outcome.events]
        dealt_to = {d["seat"] for d in dealt if d["type"] == "highcard.dealt"}
        assert dealt_to == (set() if seat is None else {seat})
        assert not any(d["type"] == "highcard.deck_shuffled" for d in dealt)
    assert any(isinstance(e, Dealt) for e in opened.events)


def test_a_move_decided_here_leads_to_the_table_its_events_fold_to() -> None:
    """The reducer takes the table its own ``decide`` folded to (a clocked table's moves
    are always decided here): it must be the table folding the planned events makes."""
    clocked = msgspec.structs.replace(
        open_msg(), open=msgspec.structs.replace(open_msg().open, clock=ClockSettings(initial_ms=60_000))
    )
    for opening in (open_msg(), clocked):
        opened = plan(opening, None, 0, lambda: b"\x09" * 32)
        assert isinstance(opened, Plan)
        table = opened.after
        for n in range(6):
            seat = min(GAME.actors(table.state))
            msg = play_msg(opening, f"m{n}", "ab"[seat], table.state.hands[seat][0])
            p = plan(msg, table, 1_000 * (n + 1), lambda: b"")
            assert isinstance(p, Plan) and not p.reused
            assert p.after == tables.count_move(tables.fold(GAME, p.events, table), f"m{n}")
            table = p.after
        assert (table.clock is not None) == (opening is clocked)
