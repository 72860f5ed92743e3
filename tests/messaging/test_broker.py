"""The control plane's FastStream wiring on the in-memory broker: typed publisher to
typed batch subscriber, undecodable and failing messages parked, the rest handled."""

from __future__ import annotations

from typing import Any

import msgspec
from faststream.redis import TestRedisBroker

from shared.infra.settings import Settings
from shared.messaging.broker import command_publisher, make_broker, subscribe_commands
from shared.messaging.control import COMMANDS, TournamentMsg
from tests.support.messages import tournament_start


class Recorder:
    def __init__(self, failing: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.failing = failing
        self.batches: list[list[TournamentMsg]] = []
        self.parked: list[tuple[bytes, str]] = []

    async def handle(self, msgs: list[TournamentMsg]) -> None:
        if any(m.command_id in self.failing for m in msgs):
            raise ValueError("this command breaks the handler")
        self.batches.append(msgs)

    async def park(self, entry_id: bytes, fields: dict[bytes, bytes], body: bytes, error: str) -> None:
        self.parked.append((body, error))


def wired(recorder: Recorder, **settings: Any) -> tuple[Any, Any]:
    broker = make_broker(Settings())
    subscribe_commands(broker, "tournaments", Settings(node="n", **settings), recorder.handle, recorder.park)
    return broker, command_publisher(broker)


async def test_the_subscriber_receives_the_typed_messages_the_publisher_sent() -> None:
    recorder = Recorder()
    broker, publisher = wired(recorder)
    async with TestRedisBroker(broker):
        await publisher.publish(tournament_start("one"))
    assert recorder.batches == [[tournament_start("one")]]
    assert not recorder.parked


async def test_a_body_that_is_not_a_tournament_msg_is_parked_at_once() -> None:
    recorder = Recorder()
    broker, _ = wired(recorder)
    async with TestRedisBroker(broker) as test_broker:
        await test_broker.publish(b'{"a":1}', stream=COMMANDS)
    assert recorder.batches == []
    assert [body for body, _ in recorder.parked] == [b'{"a":1}']
    assert "Not a TournamentMsg" in recorder.parked[0][1]


async def test_a_message_that_keeps_failing_is_parked_after_its_deliveries() -> None:
    recorder = Recorder(failing={"bad"})
    broker, publisher = wired(recorder, max_deliveries=2)
    async with TestRedisBroker(broker):
        await publisher.publish(tournament_start("bad"))
    assert recorder.batches == []
    assert [msgspec.json.decode(body, type=TournamentMsg) for body, _ in recorder.parked] == [
        tournament_start("bad")
    ]
    assert "this command breaks the handler" in recorder.parked[0][1]
