"""Dead letters: messages a stage failed on, set aside so they hold up nobody.

A stage that fails on one message keeps handling the rest of its stream; after
``max_deliveries`` failures the message is *parked*: copied, with the error,
to one dead-letter stream and acknowledged where it came from, in one
transaction, so it is never lost and never read again by the stage. An
operator lists, shows, retries (puts it back where it came from) or drops them
with ``ziggurat dead-letters``.

The error text is for operators only: it may name anything the stage held, so
it never goes into a reply to a client (which gets the code ``dead_lettered``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.eventstore.keys import DEAD_LETTERS
from shared.infra import wallclock
from shared.infra.lua import is_cluster
from shared.kernel.messages import Record
from shared.observability import metrics

#: The dead-letter stream keeps at most about this many (an alert fires on the first).
MAXLEN = 100_000
MAX_ERROR = 4_000


class DeadLetter(Record, frozen=True):
    id: str  # the entry id in the dead-letter stream
    service: str
    stream: str
    group: str
    entry_id: str  # the message's id in its own stream ("" for the control plane)
    error: str
    at_ms: int
    fields: dict[bytes, bytes]  # the message as it was


_pack = msgspec.msgpack.Encoder().encode
_unpack = msgspec.msgpack.Decoder(dict[bytes, bytes]).decode


async def park(
    redis: Any,
    service: str,
    stream: str,
    group: str,
    entry_id: bytes | str,
    fields: dict[bytes, bytes],
    error: str,
) -> bool:
    """Add the dead letter and acknowledge the original in one transaction, so
    neither happens without the other. (On a cluster the two keys live in
    different slots, where no transaction spans them: parking first keeps the
    message.)

    Parking happens once per message even when two consumers race on it (one
    reclaims an entry the other is still retrying): the one whose
    acknowledgement finds the entry already gone removes its letter again.
    True if this call parked it."""
    entry = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    async with redis.pipeline(transaction=not is_cluster(redis)) as pipe:
        pipe.xadd(
            DEAD_LETTERS,
            {
                "service": service,
                "stream": stream,
                "group": group,
                "entry": entry,
                "error": error[:MAX_ERROR],
                "at": str(wallclock.now_ms()),
                "fields": _pack(fields),
            },
            maxlen=MAXLEN,
            approximate=True,
        )
        if entry:
            pipe.xack(stream, group, entry)
        replies = await pipe.execute()
    if entry and not replies[1]:
        await redis.xdel(DEAD_LETTERS, replies[0])
        return False
    metrics.DEAD_LETTERS.labels(service).inc()
    return True


def _letter(entry_id: bytes, raw: dict[bytes, bytes]) -> DeadLetter:
    text = {k.decode(): v.decode(errors="replace") for k, v in raw.items() if k != b"fields"}
    return DeadLetter(
        id=entry_id.decode(),
        service=text.get("service", ""),
        stream=text.get("stream", ""),
        group=text.get("group", ""),
        entry_id=text.get("entry", ""),
        error=text.get("error", ""),
        at_ms=int(text.get("at", "0") or 0),
        fields=_unpack(raw[b"fields"]) if b"fields" in raw else {},
    )


async def listing(redis: Any, count: int = 100) -> list[DeadLetter]:
    """The oldest ``count`` dead letters."""
    return [_letter(i, f) for i, f in await redis.xrange(DEAD_LETTERS, count=count)]


async def count(redis: Any) -> int:
    return int(await redis.xlen(DEAD_LETTERS))


async def get(redis: Any, letter_id: str) -> DeadLetter | None:
    rows = await redis.xrange(DEAD_LETTERS, min=letter_id, max=letter_id)
    return _letter(*rows[0]) if rows else None


async def retry(redis: Any, letter_id: str) -> str | None:
    """Put the message back on its stream (as a new entry); the new id, or None."""
    letter = await get(redis, letter_id)
    if letter is None:
        return None
    new_id = await redis.xadd(letter.stream, letter.fields)
    await redis.xdel(DEAD_LETTERS, letter_id)
    return new_id.decode() if isinstance(new_id, bytes) else str(new_id)


async def drop(redis: Any, letter_id: str) -> bool:
    return bool(await redis.xdel(DEAD_LETTERS, letter_id))
