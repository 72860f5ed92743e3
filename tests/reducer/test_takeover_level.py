"""The reducer records the deployment's takeover level in a clocked table it opens
(ZIGGURAT_TAKEOVER_LEVEL), unless the opener named one: the level is then part of
the table's log, so its replays and ``ziggurat verify`` make the same takeovers."""

from __future__ import annotations

from services.reducer.plan import Plan, plan
from shared.kernel.auth import token_hash
from shared.kernel.clocks import ClockSettings, Takeover
from shared.kernel.table import TableOpened
from shared.messaging.messages import OpenMsg, OpenTable


def _opening(clock: ClockSettings | None) -> OpenMsg:
    hashes = (token_hash("a"), token_hash("b"))
    return OpenMsg(
        game_id="g",
        partition=0,
        command_id="o",
        correlation_id="c",
        reply_to="gw",
        received_ns=1,
        open=OpenTable(game="tigris-cards", seats=2, token_hashes=hashes, clock=clock),
    )


def _recorded(clock: ClockSettings | None, takeover: Takeover) -> ClockSettings | None:
    p = plan(_opening(clock), None, 0, lambda: b"\x07" * 32, takeover)
    assert isinstance(p, Plan) and isinstance(p.events[0], TableOpened)
    assert p.after.clock == p.events[0].clock
    return p.events[0].clock


def test_the_deployments_level_is_recorded_unless_the_opener_named_one() -> None:
    clock = ClockSettings(per_move_ms=5_000)
    assert _recorded(clock, "easy") == ClockSettings(per_move_ms=5_000, takeover="easy")
    assert _recorded(clock, "medium") == ClockSettings(per_move_ms=5_000, takeover="medium")
    named = ClockSettings(per_move_ms=5_000, takeover="easy")
    assert _recorded(named, "medium") == named
    assert _recorded(None, "easy") is None
