"""``decide`` accepts exactly the commands ``legal`` lists, on random commands too."""

from __future__ import annotations

import msgspec

from shared.games.tigris import GAME
from shared.games.tigris import commands as cmd
from shared.games.tigris.board import SQUARES, Monument
from shared.games.tigris_common.colours import COLOURS, LEADERS
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.kernel.visibility import may_see
from tests.games.tigris.positions import playouts, sampled_states


def random_command(rng: Rng) -> cmd.TigrisCommand:
    sq = rng.below(SQUARES + 2) - 1  # off-board squares too
    options: list[cmd.TigrisCommand] = [
        cmd.PositionLeader(leader=rng.choice(LEADERS), square=sq),
        cmd.WithdrawLeader(leader=rng.choice(LEADERS)),
        cmd.PlaceTile(colour=rng.choice(COLOURS), square=sq),
        cmd.PlaceCatastrophe(square=sq),
        cmd.SwapTiles(red=rng.below(3), blue=rng.below(3), green=rng.below(2), black=rng.below(2)),
        cmd.Pass(),
        cmd.CommitSupport(count=rng.below(8) - 1),
        cmd.ChooseWarColour(colour=rng.choice(COLOURS)),
        cmd.BuildMonument(top_left=sq, monument=rng.choice(tuple(Monument))),
        cmd.DeclineMonument(),
        cmd.TakeTreasures(squares=tuple(sorted({rng.below(SQUARES) for _ in range(rng.below(3))}))),
    ]
    return rng.choice(options)


def test_random_commands_are_accepted_exactly_when_legal() -> None:
    rng = Rng(b"\x09" * 32, 0)
    enc = msgspec.msgpack.encode
    for state in sampled_states():
        for seat in range(state.seats):
            listed = {enc(c) for c in GAME.legal(state, seat)}
            for _ in range(25):
                command = random_command(rng)
                try:
                    GAME.decide(state, seat, command, Rng(b"\1" * 32, 0))
                except RuleViolation as exc:
                    assert enc(command) not in listed, f"legal {command} refused: {exc.code}"
                    assert exc.code and exc.message
                else:
                    assert enc(command) in listed, f"{command} accepted but not listed"


def test_feeds_carry_no_other_seats_secrets() -> None:
    for p in playouts(4)[:2]:
        for audience in (None, 0, 1, 2, 3):
            for event in p.events:
                if not may_see(GAME.visibility(event), audience):
                    continue
                seat = getattr(event, "seat", audience)
                hidden = ("tigris.tiles_drawn", "tigris.tiles_discarded", "tigris.bag_filled")
                tag = msgspec.json.decode(msgspec.json.encode(event))["type"]
                assert tag not in hidden or (audience is not None and seat == audience)
