"""Credentials that end: every open channel a credential opened ends with it, on
every gateway.

**What ends.** A player key ends when it is rotated (``POST
/v1/players/{id}/key``); nothing else ends a credential today. A seat token
lives as long as its table (no route revokes one, and a finished table keeps
its tokens: they still read the final view); a player's seat tokens at
account tables (tournaments, arenas, casual tables) are kept server-side and
never handed to the key's holder, who reaches them only through the key, so
they need not end with it; no player account is ever removed. The registry
takes any credential's hash all the same, so an ending added later is one
call to :func:`ended`.

**What it ends.** The channels a credential opened and holds open:

* a play connection (:mod:`services.gateway.play_socket`) authenticated by a
  player key, or by a seat token: a last ``{"type": "error"}`` with code
  ``credential_revoked`` and the close 4401;
* a bot stream (:mod:`services.gateway.bots`): ``event: end``.

**How every gateway hears it.** Whoever ends a credential publishes a notice
naming its hash (``credential:<hash> 0``, :func:`ended`) on the change
channel, which every gateway already hears on its one listener connection
(:class:`services.gateway.context.Changes`). Riding with the projector's
table notices on that connection, it is heard before any table change
published after it, so no view of a move made after the rotation's answer is
pushed on the old key's connection. Each gateway's :class:`Credentials`
holds its open channels by credential and ends those of the hash at once.

**Notices that are lost.** Pub/sub keeps nothing for a listener that is down.
When the listener (re)subscribes, and every ``credential_check_s`` seconds,
the registry checks every player key it holds against the store (one pipeline
for all of them: each key is its player's current one) and ends the channels
of those that are not. A play connection opened with a player key also
checks the key before each command it submits (one read, coalesced with the
other requests' commands), so a move never slips in between a rotation and
the notice reaching this gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

import structlog
from starlette.types import ASGIApp, Receive, Scope, Send

from shared.infra.coalesce import Coalescer
from shared.players.keys import credential_notice, player_doc
from shared.players.store import publish_notices

log = structlog.get_logger()
#: Player keys checked per pipeline by the periodic check.
_CHECK_CHUNK = 512


class Channel(Protocol):
    def end(self) -> None:
        """End at once (a last message, a close): called from the notice listener, so never blocks."""


class Listens(Protocol):
    def listen(self, listener: Any) -> None: ...


async def ended(redis: Any, hashes: Sequence[str]) -> None:
    """Tell every gateway that these credentials ended: their open channels end.
    Published after the store says so, so that a channel opened meanwhile is refused
    by the store and one opened before hears this."""
    if hashes:
        await publish_notices(redis, [credential_notice(h) for h in hashes])


class Credentials:
    """One gateway's open channels, by the credential that opened them."""

    def __init__(self, batch: Coalescer, changes: Listens, check_s: float) -> None:
        self.batch = batch
        self.check_s = check_s
        #: By notice id (what an ending's notice names): the channels open with it.
        self._open: dict[str, set[Channel]] = {}
        #: Player keys held (by hash): the player each must still be the current key of.
        self._keys: dict[str, str] = {}
        self._check_now = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        changes.listen(self._heard)

    def hold(self, hashed: str, channel: Channel) -> None:
        """``channel`` is open with the credential of this hash. Hold it before the store
        says the credential is good: an ending after that read is then heard."""
        self._open.setdefault(credential_notice(hashed), set()).add(channel)

    def player_key(self, hashed: str, player_id: str) -> None:
        """The held credential ``hashed`` is ``player_id``'s key: checked against the store."""
        if credential_notice(hashed) in self._open:
            self._keys[hashed] = player_id

    def release(self, hashed: str, channel: Channel) -> None:
        notice = credential_notice(hashed)
        channels = self._open.get(notice)
        if channels is None:
            return
        channels.discard(channel)
        if not channels:
            del self._open[notice]
            self._keys.pop(hashed, None)

    @contextlib.contextmanager
    def holding(self, hashed: str, channel: Channel, player_id: str | None = None) -> Iterator[None]:
        self.hold(hashed, channel)
        if player_id is not None:
            self.player_key(hashed, player_id)
        try:
            yield
        finally:
            self.release(hashed, channel)

    def end(self, hashed: str) -> None:
        """The credential ended: every channel open with it on this gateway ends now."""
        self._end(credential_notice(hashed), hashed)

    def _end(self, notice: str, hashed: str) -> None:
        channels = self._open.pop(notice, set())
        self._keys.pop(hashed, None)
        for channel in channels:
            try:
                channel.end()
            except Exception:  # one channel's bug must not keep the others open
                log.exception("credential_channel_end_failed")
        if channels:
            log.info("credential_ended", channels=len(channels))

    def _heard(self, ids: list[str] | None) -> None:
        """A change notice; ``None``: notices may have been missed, so check the store."""
        if ids is None:
            self._check_now.set()
            return
        if not self._open:
            return
        for notice in ids:
            if notice in self._open:
                self._end(notice, notice.split(":", 1)[1])

    async def current(self, hashed: str, player_id: str) -> bool:
        """Whether ``hashed`` is still ``player_id``'s key (one read, coalesced with the
        other requests'); if not, its channels end here and now."""
        raw = await self.batch.run(lambda pipe: pipe.hget(player_doc(player_id), "key_hash"))
        if raw is not None and raw.decode() == hashed:
            return True
        self.end(hashed)
        return False

    async def check(self) -> None:
        """Every held player key against the store; the channels of those that ended end."""
        held = list(self._keys.items())
        for start in range(0, len(held), _CHECK_CHUNK):
            chunk = held[start : start + _CHECK_CHUNK]
            found = await self._current_keys(player_id for _, player_id in chunk)
            for (hashed, _), current in zip(chunk, found, strict=True):
                if current is None or current.decode() != hashed:
                    self.end(hashed)

    async def _current_keys(self, player_ids: Iterable[str]) -> list[bytes | None]:
        async with self.batch.redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hget(player_doc(player_id), "key_hash")
            found: list[bytes | None] = await pipe.execute()
        return found

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.check_s):
                    await self._check_now.wait()
            self._check_now.clear()
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store is unreachable: the next round tries again
                log.warning("credential_check_failed", error=repr(exc))


class HeldResponse:
    """An ASGI response (a long-lived one) that holds its credential while it is served."""

    def __init__(
        self, response: ASGIApp, credentials: Credentials, hashed: str, channel: Channel, player_id: str
    ) -> None:
        self.response = response
        self.credentials = credentials
        self.hashed = hashed
        self.channel = channel
        self.player_id = player_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with self.credentials.holding(self.hashed, self.channel, self.player_id):
            await self.response(scope, receive, send)
