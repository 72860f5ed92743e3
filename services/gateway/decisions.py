"""A request's decision on one of the small aggregates (player accounts, arenas,
casual invitations), and what the requests that create something share.

Deciding goes through :meth:`Aggregate.execute` (read, fold, decide, append with
the expected version, then the caller's projection of its read models); here
the rules' refusals become the API's errors with their stable codes, and a
stream that kept moving becomes ``busy``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import msgspec
from starlette.requests import Request

from services.gateway.body import read_json
from services.gateway.context import Gateway, client_address
from services.gateway.errors import ApiError
from services.gateway.writes import remember
from shared.eventstore.aggregates import Aggregate, Busy, Decided
from shared.eventstore.keys import GameKeys
from shared.infra.wallclock import now_ms
from shared.kernel.rejection import RuleViolation

S = TypeVar("S")
E = TypeVar("E")
B = TypeVar("B")
T = TypeVar("T", bound=msgspec.Struct)


async def decided(
    gw: Gateway,
    aggregate: Aggregate[S, E],
    keys: GameKeys,
    decide: Callable[[S | None], Sequence[E]],
    command_id: str,
    busy: str,
    project: Callable[[Decided[S, E]], Awaitable[None]] | None = None,
) -> tuple[int, S, bool]:
    """Decide and append: (version, state, duplicate). ``busy`` names what kept changing;
    ``project`` writes the read models, by the host, after every answer (a repeat too)."""

    def rules(state: S | None) -> list[E]:
        try:
            return list(decide(state))
        except RuleViolation as exc:
            raise ApiError.refused(exc) from exc

    try:
        done = await aggregate.execute(gw.store, keys, rules, command_id, now_ms(), project=project)
    except Busy as exc:
        raise ApiError("busy", busy) from exc
    assert done.state is not None
    return done.version, done.state, done.duplicate


@dataclass(frozen=True)
class Creation(Generic[B]):
    """A request that creates something: counted against its address's openings, its body read."""

    gw: Gateway
    address: str
    body: B

    async def chosen(self, kind: str, key: str | None, fresh: T) -> T:
        """``fresh``; under an idempotency key, what the first request with that key chose."""
        if key is None:
            return fresh
        return await remember(self.gw, kind, self.address, key, fresh)


async def creation(request: Request, schema: type[B]) -> Creation[B]:
    gw: Gateway = request.app.state.gateway
    address = client_address(request)
    gw.limits.open(address)
    return Creation(gw, address, await read_json(request, schema, gw.settings.max_body_bytes))
