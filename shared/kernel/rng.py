"""Counter-based randomness derived from a game's secret seed.

Every random outcome is ``blake2b(key=seed, data=stream || counter)``: the
same seed, stream and counter give the same number on every machine and every
Python version (``random.shuffle`` promises no such thing). The platform gives
``decide`` a generator whose stream is the game version the command is decided
at, so retrying a command at the same version draws the same outcomes, and a
finished game's revealed seed lets anyone re-derive every shuffle and roll.

Outcomes are always written into events; ``evolve`` never draws.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32
_U64 = 1 << 64


def new_seed() -> bytes:
    """A fresh secret seed (the only place the OS entropy pool is touched)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public hash commitment of a seed, published when a table opens."""
    return hashlib.sha256(b"ziggurat-seed:" + seed).hexdigest()


class Rng:
    """A deterministic stream of random numbers for one (seed, stream) pair."""

    __slots__ = ("_counter", "_seed", "_stream")

    def __init__(self, seed: bytes, stream: int) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"seed must be {SEED_BYTES} bytes")
        self._seed = seed
        self._stream = stream
        self._counter = 0

    @property
    def draws(self) -> int:
        """How many 64-bit words were drawn so far."""
        return self._counter

    def _next_u64(self) -> int:
        data = self._stream.to_bytes(8, "big") + self._counter.to_bytes(8, "big")
        self._counter += 1
        digest = hashlib.blake2b(data, key=self._seed, digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """Uniform in ``range(n)``, unbiased (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _U64 - (_U64 % n)
        while True:
            x = self._next_u64()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """Uniform in ``[low, high]`` inclusive (a die is ``between(1, 6)``)."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list in random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
