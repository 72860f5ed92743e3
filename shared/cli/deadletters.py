"""``ziggurat dead-letters``: the messages stages set aside, for an operator.

``list`` shows the oldest first (id, when, service, stream, the error's last
line); ``show ID`` the whole error and the message; ``retry ID`` puts the
message back on its stream (after a fix was deployed); ``drop ID`` deletes it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sys

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shared.infra.redis_client import connect
from shared.messaging import deadletters
from shared.messaging.deadletters import DeadLetter


def _when(at_ms: int) -> str:
    return dt.datetime.fromtimestamp(at_ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _summary(letter: DeadLetter) -> str:
    last = letter.error.strip().splitlines()[-1] if letter.error.strip() else "(no error text)"
    return f"{letter.id:<18} {_when(letter.at_ms)}  {letter.service:<11} {letter.stream:<28} {last[:80]}"


def _detail(letter: DeadLetter) -> str:
    fields = "\n".join(
        f"  {k.decode(errors='replace')}: {v.decode(errors='replace')[:2000]}"
        for k, v in letter.fields.items()
    )
    return (
        f"id:       {letter.id}\nwhen:     {_when(letter.at_ms)} UTC\nservice:  {letter.service}\n"
        f"stream:   {letter.stream} (entry {letter.entry_id or '-'}, group {letter.group})\n"
        f"message:\n{fields}\nerror:\n{letter.error}"
    )


async def _run(action: str, letter_id: str | None, redis_url: str, cluster: bool) -> int:
    redis = connect(redis_url, cluster)
    try:
        if action == "list":
            letters = await deadletters.listing(redis)
            if not letters:
                print("No dead letters.")
                return 0
            print(f"{'id':<18} {'when (UTC)':<19}  {'service':<11} {'stream':<28} error")
            for letter in letters:
                print(_summary(letter))
            total = await deadletters.count(redis)
            if total > len(letters):
                print(f"... and {total - len(letters)} more")
            return 0
        if letter_id is None:
            print(f"ziggurat dead-letters {action}: name the dead letter's id (see 'list').", file=sys.stderr)
            return 2
        if action == "show":
            letter = await deadletters.get(redis, letter_id)
            if letter is None:
                print(f"No dead letter {letter_id}.", file=sys.stderr)
                return 1
            print(_detail(letter))
            return 0
        if action == "retry":
            new_id = await deadletters.retry(redis, letter_id)
            if new_id is None:
                print(f"No dead letter {letter_id}.", file=sys.stderr)
                return 1
            print(f"Put {letter_id} back on its stream as {new_id}.")
            return 0
        if action == "drop":
            if not await deadletters.drop(redis, letter_id):
                print(f"No dead letter {letter_id}.", file=sys.stderr)
                return 1
            print(f"Dropped {letter_id}.")
            return 0
        print(f"Unknown action {action!r}: list, show, retry or drop.", file=sys.stderr)
        return 2
    finally:
        await redis.aclose()


def dead_letters_command(action: str, entry_id: str | None, redis_url: str, cluster: bool) -> int:
    try:
        return asyncio.run(_run(action, entry_id, redis_url, cluster))
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        print(f"ziggurat dead-letters: cannot reach Redis at {redis_url} ({exc}).", file=sys.stderr)
        return 1
