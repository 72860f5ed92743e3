"""Rate limits: a token bucket per key, so one flooding client is throttled
while every other keeps its full rate.

Five budgets, each a :class:`RateLimiter` (or two):

* commands, per seat token;
* reads (views, feeds, logs, tournament pages), per seat token when the
  request carries a valid one, else per client address, so a bot reading its
  own seat's view never shares a budget with the spectators behind its address;
* table openings, per client address;
* every other write (joins, leaves, registrations, key rotations, organiser
  commands, answers to invitations, seats handed to bots), per caller (a
  player, an organiser token, a seat token) and, apart and larger, per client
  address, so one key cannot flood from many addresses nor one address with
  many keys, while the players behind one address keep their own budgets;
* invalid tokens, per client address: each refused token costs one unit,
  and an address with none left is refused before any token is looked up,
  so guessing tokens is slow and costs the store nothing.

A refusal says when to come back (``Retry-After``).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from services.gateway.errors import ApiError
from shared.infra.settings import Settings


class RateLimiter:
    def __init__(self, per_second: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = per_second
        self.burst = float(burst)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        return self.take(key, now) == 0.0

    def take(self, key: str, now: float | None = None) -> float:
        """Spend one unit: 0.0 if allowed, else the seconds until one is available."""
        # _level and _store written out: every request spends one to three units.
        now = time.monotonic() if now is None else now
        buckets = self._buckets
        stored = buckets.get(key)
        level = self.burst if stored is None else min(self.burst, stored[0] + (now - stored[1]) * self.rate)
        allowed = level >= 1.0
        buckets[key] = (level - 1.0 if allowed else level, now)
        if stored is None:
            if len(buckets) > self.max_keys:
                buckets.popitem(last=False)
        else:
            buckets.move_to_end(key)
        return 0.0 if allowed else (1.0 - level) / self.rate

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` has a unit, without spending one."""
        now = time.monotonic() if now is None else now
        level = self._level(key, now)
        return 0.0 if level >= 1.0 else (1.0 - level) / self.rate

    def _level(self, key: str, now: float) -> float:
        level, last = self._buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - last) * self.rate)

    def _store(self, key: str, level: float, now: float) -> None:
        self._buckets[key] = (level, now)
        self._buckets.move_to_end(key)
        if len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)


def throttled(what: str, wait_s: float) -> ApiError:
    retry = max(1, math.ceil(wait_s))
    return ApiError(
        "rate_limited",
        f"Too many {what}; retry in {retry} s.",
        headers={"Retry-After": str(retry)},
        retry_after_s=retry,
    )


@dataclass
class Limits:
    commands: RateLimiter
    reads: RateLimiter
    opens: RateLimiter
    bad_tokens: RateLimiter
    writes: RateLimiter
    address_writes: RateLimiter

    @classmethod
    def from_settings(cls, s: Settings) -> Limits:
        return cls(
            commands=RateLimiter(s.rate_per_s, s.rate_burst),
            reads=RateLimiter(s.read_rate_per_s, s.read_burst),
            opens=RateLimiter(s.open_rate_per_s, s.open_burst),
            bad_tokens=RateLimiter(s.bad_token_rate_per_s, s.bad_token_burst),
            writes=RateLimiter(s.write_rate_per_s, s.write_burst),
            address_writes=RateLimiter(s.address_write_rate_per_s, s.address_write_burst),
        )

    def command(self, token_hash: str) -> None:
        if wait := self.commands.take(token_hash):
            raise throttled("commands from this token", wait)

    def read(self, key: str) -> None:
        if wait := self.reads.take(key):
            raise throttled("reads", wait)

    def open(self, address: str) -> None:
        if wait := self.opens.take(address):
            raise throttled("tables opened from this address", wait)

    def write(self, address: str, caller: str) -> None:
        """One write by ``caller`` from ``address``: the address's budget first, so a
        refused address spends nothing of its callers'."""
        if wait := self.address_writes.take(address):
            raise throttled("writes from this address", wait)
        if wait := self.writes.take(caller):
            raise throttled("writes from this key", wait)

    def check_tokens(self, address: str) -> None:
        """Refuse an address that has spent its budget of invalid tokens."""
        if wait := self.bad_tokens.wait(address):
            raise throttled("invalid tokens from this address", wait)

    def bad_token(self, address: str) -> None:
        self.bad_tokens.take(address)
