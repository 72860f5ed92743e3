"""Which partitions a reducer holds: the pure half of the partition leases.

Each partition has one lease in the store, held by one reducer for a few
seconds at a time and renewed by it; a reducer that stops renewing loses it
and any other may take it. Every reducer also keeps a heartbeat, so each knows
how many are alive and takes at most its fair share, ``ceil(partitions /
live reducers)``: two reducers split the partitions, one alone takes them all,
and adding or removing one needs no configuration (the others give up or take
over partitions on their next look).

This module decides, from one look at the store (who holds each lease, who is
alive) and what this reducer believes it holds, what to renew, take, give up,
and what it has lost. The shell (``services/reducer/ownership.py``) does the
looking and the writing; the store's scripts make each step conditional, so
two reducers deciding at once from the same look cannot both win a lease.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Moves:
    """What one look at the leases asks of a reducer."""

    #: Held, and the store still names us: renew.
    renew: tuple[int, ...]
    #: Free (or named after us by an earlier run of this node): try to take, with a new token.
    acquire: tuple[int, ...]
    #: Held beyond our fair share: stop reading them, then give them up.
    release: tuple[int, ...]
    #: Believed held, but the store names another holder or none: stop at once.
    lost: tuple[int, ...]


def fair_share(partitions: int, live: int) -> int:
    """The most partitions one of ``live`` reducers holds: all of them are covered."""
    return -(-partitions // max(1, live))


def decide(
    me: str,
    partitions: int,
    owners: Mapping[int, str | None],
    live: Collection[str],
    held: Collection[int],
) -> Moves:
    """The moves for reducer ``me``.

    ``owners``: each partition's lease holder as the store showed it (``None``
    or absent: free). ``live``: the reducers whose heartbeat has not expired
    (``me`` counts whether or not it is among them). ``held``: the partitions
    ``me`` holds with a token it knows.

    A lease the store names after ``me`` that ``me`` does not hold was taken
    by an earlier process of the same node (a restart): it is taken again with
    a new token, at once, rather than waited out, and first, since that
    process's unacknowledged commands are there under our name.
    """
    fair = fair_share(partitions, len({*live, me}))
    renewable: list[int] = []
    lost: list[int] = []
    ours_before: list[int] = []
    free: list[int] = []
    for p in range(partitions):
        owner = owners.get(p)
        if p in held:
            (renewable if owner == me else lost).append(p)
            if owner is None:
                free.append(p)
        elif owner == me:
            ours_before.append(p)
        elif owner is None:
            free.append(p)
    keep, release = renewable[:fair], renewable[fair:]
    room = max(0, fair - len(keep))
    candidates = ours_before + sorted(free, key=_spread(me, partitions))
    return Moves(
        renew=tuple(keep), acquire=tuple(candidates[:room]), release=tuple(release), lost=tuple(lost)
    )


def _spread(me: str, partitions: int) -> Callable[[int], int]:
    """An order of the partitions that starts at a place of ``me``'s own, so
    reducers taking free partitions at the same moment mostly try different ones."""
    n = max(1, partitions)
    start = int.from_bytes(hashlib.blake2b(me.encode(), digest_size=8).digest(), "big") % n
    return lambda p: (p - start) % n
