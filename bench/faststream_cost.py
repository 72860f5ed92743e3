"""What FastStream would cost the hot path: client CPU per message, on a real Valkey.

``python -m bench.faststream_cost [--messages N] [--batch B] [--repeats R]``

The same commands (``CommandMsg`` JSON, as the gateway sends them) sit in four
partition streams, consumed from the start by one consumer group:

- ``reader``: our ``StreamReader``, one XREADGROUP over the four streams, the
  handler decoding each batch into typed structs with msgspec and
  acknowledging it in one pipeline (what the validator does, minus its checks);
- ``faststream``: four FastStream batch subscribers (one per stream, the same
  batch size), ``apply_types=False``: the handler gets the bodies as FastStream
  decodes them by default (untyped dicts), FastStream acknowledges;
- ``faststream+msgspec``: the same with the control plane's decoder, each
  body straight into ``CommandMsg`` with msgspec (FastStream's default JSON
  decoding cannot produce the struct's raw JSON field);
- ``faststream+msgspec+types``: and ``apply_types`` with fast-depends' msgspec
  serializer, the handler typed ``list[CommandMsg]``: the control plane's
  configuration.

The client's CPU (this process's, not Valkey's) is counted from the start of
consumption until the last message is handled, so the figures hold however
busy the machine is otherwise; wall time is printed for reference only. The
difference between the last two modes, divided by the batches, is what
``apply_types`` adds per batch. FastStream's per-message log lines are off in
every mode (their cost is not FastStream's delivery).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
from fast_depends.msgspec import MsgSpecSerializer
from faststream.message import StreamMessage
from faststream.redis import RedisBroker, StreamSub
from faststream.redis.message import bDATA_KEY
from faststream.redis.parser import BinaryMessageFormatV1

from shared.eventstore.keys import command_stream
from shared.infra.redis_client import connect
from shared.infra.valkey_server import ValkeyServer, free_port
from shared.messaging.messages import CommandMsg, MoveMsg, decode_batch, decode_command, encode
from shared.messaging.streams import Batch, StreamReader

PARTITIONS = 4
GROUP = "bench"
MODES = ("reader", "faststream", "faststream+msgspec", "faststream+msgspec+types")


def command(i: int) -> bytes:
    return encode(
        MoveMsg(
            game_id=f"{i % 512:020x}",
            partition=i % PARTITIONS,
            command_id=f"{i:016x}:{i}",
            correlation_id=f"c{i}",
            reply_to="gw-1",
            request_id=f"r{i}",
            received_ns=time.time_ns(),
            token_hash="ab" * 32,
            command=msgspec.Raw(b'{"type":"highcard.play","card":"7h"}'),
            expected_version=i % 40,
        )
    )


async def fill(redis: Any, messages: int, faststream: bool) -> None:
    """``messages`` commands over the four streams, in the format the consumer reads."""
    await redis.flushall()
    async with redis.pipeline(transaction=False) as pipe:
        for i in range(messages):
            body = command(i)
            if faststream:
                fields = {
                    bDATA_KEY: await BinaryMessageFormatV1.encode(
                        message=body, reply_to=None, headers={}, correlation_id=str(i)
                    )
                }
            else:
                fields = {b"m": body}
            pipe.xadd(command_stream(i % PARTITIONS), fields)
        await pipe.execute()
    for p in range(PARTITIONS):
        await redis.xgroup_create(command_stream(p), GROUP, id="0")


async def consume_with_reader(redis: Any, messages: int, batch: int) -> tuple[float, float, int]:
    streams = tuple(command_stream(p) for p in range(PARTITIONS))
    reader = StreamReader(redis, GROUP, "bench-1", streams, batch=batch, block_ms=100)
    done = asyncio.Event()
    seen = [0, 0]

    class Handler:
        async def handle(self, b: Batch) -> None:
            msgs = decode_batch(b.bodies())
            async with redis.pipeline(transaction=False) as pipe:
                b.ack(pipe, GROUP)
                await pipe.execute()
            seen[0] += len(msgs)
            seen[1] += 1
            if seen[0] >= messages:
                done.set()

    cpu, wall = time.process_time(), time.perf_counter()
    task = asyncio.create_task(reader.run(Handler(), done))
    await done.wait()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await task
    return cpu, wall, seen[1]


async def typed_bodies(message: StreamMessage[Any]) -> list[CommandMsg]:
    """The control plane's decoder: each entry's body straight into the struct with msgspec."""
    return [decode_command(BinaryMessageFormatV1.parse(f[bDATA_KEY])[0]) for f in message.raw_message["data"]]


async def consume_with_faststream(url: str, messages: int, batch: int, mode: str) -> tuple[float, float, int]:
    options: dict[str, Any] = {"logger": None}
    if mode.endswith("+types"):
        options["serializer"] = MsgSpecSerializer(use_fastdepends_errors=False)
    else:
        options["apply_types"] = False
    broker = RedisBroker(url, **options)
    done = asyncio.Event()
    seen = [0, 0]

    async def handler(msgs: list[CommandMsg]) -> None:
        seen[0] += len(msgs)
        seen[1] += 1
        if seen[0] >= messages:
            done.set()

    decoder = typed_bodies if "msgspec" in mode else None
    for p in range(PARTITIONS):
        sub = StreamSub(
            command_stream(p),
            group=GROUP,
            consumer="bench-1",
            batch=True,
            max_records=batch,
            polling_interval=100,
        )
        broker.subscriber(stream=sub, decoder=decoder)(handler)
    cpu, wall = time.process_time(), time.perf_counter()
    await broker.start()
    await done.wait()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await broker.stop()
    return cpu, wall, seen[1]


async def run(messages: int, batch: int, repeats: int) -> dict[str, tuple[float, float, int]]:
    with tempfile.TemporaryDirectory() as tmp:
        server = ValkeyServer(Path(tmp), port=free_port()).start()
        redis = connect(server.url)
        results: dict[str, list[tuple[float, float, int]]] = {mode: [] for mode in MODES}
        try:
            for _ in range(repeats):
                await fill(redis, messages, faststream=False)
                results["reader"].append(await consume_with_reader(redis, messages, batch))
                for mode in MODES[1:]:
                    await fill(redis, messages, faststream=True)
                    results[mode].append(await consume_with_faststream(server.url, messages, batch, mode))
        finally:
            await redis.aclose()
            server.stop()
    # The median run by CPU: the figure least disturbed by the rest of the machine.
    return {mode: sorted(runs)[len(runs) // 2] for mode, runs in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=40_000)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    results = asyncio.run(run(args.messages, args.batch, args.repeats))
    reader_us = results["reader"][0] / args.messages * 1e6
    print(
        f"{args.messages} CommandMsg over {PARTITIONS} partition streams, batches of up to {args.batch}, "
        f"median of {args.repeats} runs by client CPU\n"
    )
    print(f"{'mode':<26}{'CPU us/msg':>12}{'x reader':>10}{'batches':>9}{'wall s':>9}")
    for mode, (cpu, wall, batches) in results.items():
        per = cpu / args.messages * 1e6
        print(f"{mode:<26}{per:>12.1f}{per / reader_us:>10.2f}{batches:>9}{wall:>9.2f}")
    raw_cpu, _, raw_batches = results["faststream+msgspec"]
    typed_cpu, _, typed_batches = results["faststream+msgspec+types"]
    extra_ms = (typed_cpu / typed_batches - raw_cpu / raw_batches) * 1e3
    print(
        f"\napply_types (msgspec serializer, list[CommandMsg]) adds {extra_ms:.3f} ms of CPU per batch "
        f"({extra_ms * 1e3 / (args.messages / typed_batches):.1f} us per message at this batch size)"
    )


if __name__ == "__main__":
    main()
