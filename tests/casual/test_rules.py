"""Casual invitations: nobody sits at a table they did not accept; a decline cancels it."""

from __future__ import annotations

import pytest

from shared.casual import codes
from shared.casual.commands import Accept, CasualCommandUnion, CasualSeat, Decline, Invite, MarkOpened
from shared.casual.rules import MAX_PENDING, Invitation, Pending, decide, evolve, fold
from shared.infra.settings import Settings
from shared.kernel.rejection import RuleViolation

SEATS = (CasualSeat(player_id="host"), CasualSeat(player_id="guest"), CasualSeat(bot="random"))


def run(state: Invitation | None, command: CasualCommandUnion) -> Invitation:
    for event in decide(state, command):
        state = evolve(state, event)
    assert state is not None
    return state


def invitation(**extra: object) -> Invitation:
    fields: dict[str, object] = {"invitation_id": "c1", "host": "host", "game": "highcard", "seats": SEATS}
    return run(None, Invite(**{**fields, **extra}))  # type: ignore[arg-type]


def test_the_table_is_ready_only_once_every_invited_player_accepted() -> None:
    inv = invitation(rated=True)
    assert inv.status == "pending" and inv.accepted == ("host",)
    with pytest.raises(RuleViolation) as early:
        decide(inv, MarkOpened(table_id="c1"))
    assert early.value.code == codes.NOT_READY
    inv = run(inv, Accept(player_id="guest"))
    assert inv.status == "ready"
    assert decide(inv, Accept(player_id="guest")) == []  # a repeat changes nothing
    inv = run(inv, MarkOpened(table_id="c1"))
    assert inv.status == "open" and inv.table_id == "c1"
    assert decide(inv, MarkOpened(table_id="c1")) == []


def test_a_host_alone_with_bots_is_ready_at_once() -> None:
    inv = invitation(seats=(CasualSeat(player_id="host"), CasualSeat(bot="random")))
    assert inv.status == "ready"


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"seats": (CasualSeat(player_id="guest"), CasualSeat(bot="random"))}, codes.INVALID),
        ({"seats": (CasualSeat(player_id="host"), CasualSeat(player_id="host"))}, codes.INVALID),
        ({"seats": (CasualSeat(player_id="host"), CasualSeat(player_id="x", bot="random"))}, codes.INVALID),
        ({"seats": (CasualSeat(player_id="host"), CasualSeat(bot="random")), "rated": True}, codes.INVALID),
        ({"seats": (CasualSeat(player_id="host"),)}, codes.INVALID),
    ],
)
def test_bad_invitations_are_refused(extra: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        invitation(**extra)
    assert refused.value.code == code


def test_a_decline_cancels_and_strangers_cannot_answer() -> None:
    inv = invitation()
    with pytest.raises(RuleViolation) as stranger:
        decide(inv, Accept(player_id="stranger"))
    assert stranger.value.code == codes.NOT_INVITED
    inv = run(inv, Decline(player_id="guest"))
    assert inv.status == "cancelled"
    for late in (Accept(player_id="guest"), Decline(player_id="host")):
        with pytest.raises(RuleViolation) as refused:
            decide(inv, late)
        assert refused.value.code == codes.CANCELLED
    events = decide(None, Invite(invitation_id="c2", host="host", game="g", seats=SEATS))
    assert fold(events) is not None


def test_pending_invitations_are_bounded_for_the_host_and_for_each_invitee() -> None:
    fields = {"invitation_id": "c2", "host": "host", "game": "highcard", "seats": SEATS}
    full = Pending(hosting=2, invited={"guest": 0}, limit=2)
    with pytest.raises(RuleViolation) as host:
        decide(None, Invite(**fields), full)  # type: ignore[arg-type]
    assert (host.value.code, host.value.details) == (
        codes.TOO_MANY_PENDING,
        {"player_id": "host", "limit": 2},
    )
    busy = Pending(hosting=1, invited={"guest": 2}, limit=2)
    with pytest.raises(RuleViolation) as guest:
        decide(None, Invite(**fields), busy)  # type: ignore[arg-type]
    assert guest.value.details == {"player_id": "guest", "limit": 2}
    # Below the bound on both sides it is an invitation like any other; the host's own
    # invitations as a guest do not count against it as host.
    fine = Pending(hosting=1, invited={"guest": 1, "host": 5}, limit=2)
    assert [type(e).__name__ for e in decide(None, Invite(**fields), fine)] == ["Invited", "Accepted"]  # type: ignore[arg-type]
    # Answers are never refused for what waits elsewhere.
    inv = invitation()
    assert decide(inv, Accept(player_id="guest"), full)
    assert Pending().limit == MAX_PENDING == Settings().max_pending_invitations
