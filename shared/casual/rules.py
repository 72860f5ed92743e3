"""The invitation's state, rules and fold."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from msgspec.structs import replace

from shared.casual import codes
from shared.casual.commands import Accept, CasualCommandUnion, CasualSeat, Decline, Invite, MarkOpened
from shared.casual.events import Accepted, CasualEventUnion, Declined, Invited, Opened
from shared.kernel.decider import Rules
from shared.kernel.fold import replay, started
from shared.kernel.messages import Record
from shared.kernel.rejection import RuleViolation, require

Status = Literal["pending", "ready", "open", "cancelled"]

#: Invitations a player may have waiting for answers at once as host, and apart as
#: an invitee: an invitation nobody answers stays pending (the host withdraws it by
#: declining), so without a bound one player could fill another's list forever.
MAX_PENDING = 32


class Pending(Record, frozen=True):
    """What already waits for answers, as the shell counts it before an invitation:
    the host's pending invitations as host, and each invitee's as an invitee."""

    hosting: int = 0
    invited: Mapping[str, int] = {}
    limit: int = MAX_PENDING


class Invitation(Record, frozen=True):
    invitation_id: str
    host: str
    game: str
    game_options: dict[str, Any]
    seats: tuple[CasualSeat, ...]
    rated: bool
    accepted: tuple[str, ...] = ()
    status: Status = "pending"
    table_id: str | None = None


def invited(inv: Invitation) -> tuple[str, ...]:
    return tuple(s.player_id for s in inv.seats if s.player_id is not None)


def _status(inv: Invitation) -> Status:
    return "ready" if set(invited(inv)) <= set(inv.accepted) else "pending"


def decide(
    state: Invitation | None, command: CasualCommandUnion, pending: Pending = Pending()
) -> list[CasualEventUnion]:
    """``pending`` matters only to a new invitation (the shell counts it)."""
    if isinstance(command, Invite):
        require(state is None, codes.ALREADY_CREATED, "This invitation already exists.")
        players = [s.player_id for s in command.seats if s.player_id is not None]
        require(
            all((s.player_id is None) != (s.bot is None) for s in command.seats),
            codes.INVALID,
            "Each seat names a player or a bot, not both.",
        )
        require(command.host in players, codes.INVALID, "The host sits at the table.")
        require(len(players) == len(set(players)), codes.INVALID, "A player takes one seat.")
        require(len(command.seats) >= 2, codes.INVALID, "A table needs at least two seats.")
        require(not command.rated or len(players) >= 2, codes.INVALID, "A rated table needs two players.")
        _check_pending(command.host, players, pending)
        return [
            Invited(
                invitation_id=command.invitation_id,
                host=command.host,
                game=command.game,
                game_options=dict(command.game_options),
                seats=command.seats,
                rated=command.rated,
                at_ms=command.at_ms,
            ),
            Accepted(player_id=command.host, at_ms=command.at_ms),
        ]
    if state is None:
        raise RuleViolation(codes.NO_INVITATION, "There is no such invitation.")
    match command:
        case Accept(player_id=pid) | Decline(player_id=pid):
            require(pid in invited(state), codes.NOT_INVITED, f"Player {pid} is not invited.")
            require(state.status != "cancelled", codes.CANCELLED, "The invitation was declined.")
            if isinstance(command, Accept):
                return [] if pid in state.accepted else [Accepted(player_id=pid, at_ms=command.at_ms)]
            require(state.status in ("pending", "ready"), codes.ALREADY_OPEN, "The table is open already.")
            return [Declined(player_id=pid, at_ms=command.at_ms)]
        case MarkOpened(table_id=tid):
            if state.status == "open":
                return []
            require(state.status == "ready", codes.NOT_READY, "Not every player has accepted.")
            return [Opened(table_id=tid, at_ms=command.at_ms)]
    raise AssertionError(f"unhandled command {command!r}")


def _check_pending(host: str, players: list[str], pending: Pending) -> None:
    require(
        pending.hosting < pending.limit,
        codes.TOO_MANY_PENDING,
        f"You have {pending.hosting} invitations waiting for answers, the most a host may have; "
        "wait for answers, or withdraw one by declining it.",
        player_id=host,
        limit=pending.limit,
    )
    for pid in players:
        waiting = pending.invited.get(pid, 0) if pid != host else 0
        require(
            waiting < pending.limit,
            codes.TOO_MANY_PENDING,
            f"Player {pid} has {waiting} invitations waiting for an answer, the most a player may have; "
            "invite them once they have answered some.",
            player_id=pid,
            limit=pending.limit,
        )


def evolve(state: Invitation | None, event: CasualEventUnion) -> Invitation:
    if isinstance(event, Invited):
        return Invitation(
            invitation_id=event.invitation_id,
            host=event.host,
            game=event.game,
            game_options=event.game_options,
            seats=event.seats,
            rated=event.rated,
        )
    state = started(state, event, "casual.invited")
    match event:
        case Accepted(player_id=pid):
            state = replace(state, accepted=(*state.accepted, pid))
            return replace(state, status=_status(state))
        case Declined():
            return replace(state, status="cancelled")
        case Opened(table_id=tid):
            return replace(state, status="open", table_id=tid)
    raise AssertionError(f"unhandled event {event!r}")


def fold(events: Iterable[CasualEventUnion], state: Invitation | None = None) -> Invitation | None:
    return replay(evolve, events, state)


#: The invitation's decider (the shell binds the count of pending invitations in).
DECIDER: Rules[CasualCommandUnion, Invitation | None, CasualEventUnion] = Rules(None, decide, evolve)
