"""Request ids (``Replies.expect``): unique within a process, and never one an
earlier or another process on the same node could have used, so a late reply
reaches no request it does not answer."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.infra.redis_client import Subscriber
from shared.messaging.messages import AcceptedOutcome
from shared.messaging.replies import Replies

pytestmark = pytest.mark.integration


def reply(request_id: str) -> bytes:
    return msgspec.json.encode([AcceptedOutcome(command_id="c", request_id=request_id, first=1, last=1)])


async def test_request_ids_are_unique_and_never_another_processs(redis: Any) -> None:
    earlier, now = Replies(Subscriber(redis), "node"), Replies(Subscriber(redis), "node")
    mine = [now.expect() for _ in range(1000)]
    theirs = [earlier.expect() for _ in range(1000)]
    assert len({request_id for request_id, _ in mine} | {request_id for request_id, _ in theirs}) == 2000
    assert all(len(request_id) <= 32 for request_id, _ in mine)
    # The other process's replies, every one of them, complete nothing here.
    for request_id, _ in theirs:
        now._deliver(reply(request_id))
    assert not any(future.done() for _, future in mine)
    request_id, future = mine[7]
    now._deliver(reply(request_id))
    assert future.result().request_id == request_id
    assert not any(f.done() for _, f in mine[:7] + mine[8:])
