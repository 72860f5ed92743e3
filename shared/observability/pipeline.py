"""How far behind each stage is, read from the streams themselves.

A stage that has stopped cannot report that it stopped, so its backlog is
measured from outside: for each stream and consumer group, the age of the
oldest entry the group has not finished with, whether it was delivered and
never acknowledged (pending) or not delivered at all (behind the group's last
delivered id). Transport ids are the server's millisecond clock, so an
entry's id is its age. The age keeps rising while a stage is stalled or gone,
which is what the projection-lag gauge and the stall alerts need.

:func:`backlog` is the one place that computes it (the gateway exports it and
answers readiness from it); :func:`stalled` is the pure judgement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.eventstore.keys import command_stream, partition_feed, validated_stream
from shared.kernel.messages import Record
from shared.tournaments.keys import tournament_command_stream


class Backlog(Record, frozen=True):
    stream: str
    group: str
    #: Age (s) of the oldest entry the group has not acknowledged; 0 when none.
    oldest_s: float
    pending: int
    undelivered: int


def watched(partitions: int) -> list[tuple[str, str, str]]:
    """(stage, stream, group) for every stage of the game pipeline."""
    out = []
    for p in range(partitions):
        out.append(("validator", command_stream(p), "validator"))
        out.append(("reducer", validated_stream(p), "reducer"))
        out.append(("projector", partition_feed(p), "projector"))
        out.append(("tournaments", partition_feed(p), "tournaments"))
    out.append(("tournaments", tournament_command_stream(), "tournaments"))
    return out


def _ms(entry_id: Any) -> int:
    raw = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
    return int(raw.split("-", 1)[0])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def backlog(redis: Any, targets: Sequence[tuple[str, str]], now_ms: int) -> list[Backlog]:
    """The backlog of each (stream, group), in two round trips."""
    async with redis.pipeline(transaction=False) as pipe:
        for stream, group in targets:
            pipe.xinfo_groups(stream)
            pipe.xpending(stream, group)
        replies = await pipe.execute(raise_on_error=False)
    groups: list[dict[str, Any] | None] = []
    for i, (_, group) in enumerate(targets):
        infos = replies[2 * i]
        found = None
        if isinstance(infos, list):
            for info in infos:
                if _text(info.get("name", "")) == group:
                    found = info
        groups.append(found)
    async with redis.pipeline(transaction=False) as pipe:
        for (stream, _), info in zip(targets, groups, strict=True):
            last = _text(info.get("last-delivered-id", "0-0")) if info else "0-0"
            pipe.xrange(stream, min=f"({last}", max="+", count=1)
        heads = await pipe.execute(raise_on_error=False)
    out = []
    for i, (stream, group) in enumerate(targets):
        info, pending, head = groups[i], replies[2 * i + 1], heads[i]
        if info is None:  # no such group yet: nothing has been sent its way
            out.append(Backlog(stream=stream, group=group, oldest_s=0.0, pending=0, undelivered=0))
            continue
        oldest: list[int] = []
        pending_n = 0
        if isinstance(pending, dict) and pending.get("pending"):
            pending_n = int(pending["pending"])
            oldest.append(_ms(pending["min"]))
        if isinstance(head, list) and head:
            oldest.append(_ms(head[0][0]))
        lag = info.get("lag")
        undelivered = int(lag) if lag is not None else (1 if head else 0)
        age = max(0.0, (now_ms - min(oldest)) / 1000) if oldest else 0.0
        out.append(
            Backlog(stream=stream, group=group, oldest_s=age, pending=pending_n, undelivered=undelivered)
        )
    return out


def stalled(backlogs: Sequence[Backlog], bound_s: float) -> list[str]:
    """A sentence for every stream a group has left untouched for longer than ``bound_s``."""
    return [
        f"{b.group} has not handled an entry of {b.stream} for {b.oldest_s:.0f} s"
        for b in backlogs
        if b.oldest_s > bound_s
    ]
