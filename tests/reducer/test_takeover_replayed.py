"""A timeout takeover plays at the level chosen for its table, through the running
services (issue 25): nobody moves at a clocked table of the card game, the
reducer's clock watch has every move played by the takeover bot, and the
finished table's audit log re-decides to the same events at the level its
clock recorded, and to other events at the other level."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest

from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.table import TableOpened
from shared.readmodels.audit import AuditLog, verify_log
from tests.support.checks import check_finished_table
from tests.support.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


def _at_level(log: AuditLog, level: str) -> AuditLog:
    """The same log, its table's clock naming another takeover level."""
    first = log.events[0]
    opened = msgspec.msgpack.decode(first.payload, type=TableOpened)
    assert opened.clock is not None
    clock = msgspec.structs.replace(opened.clock, takeover=level)
    payload = msgspec.msgpack.encode(msgspec.structs.replace(opened, clock=clock))
    return AuditLog(
        events=[msgspec.structs.replace(first, payload=payload), *log.events[1:]], commands=log.commands
    )


async def test_nobody_moves_and_the_chosen_level_plays_every_move(stack: Stack) -> None:
    # easy, not the setting's default: the table's own choice is what is played.
    level, other = "easy", "medium"
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        clock = {"per_move_ms": 100, "takeover": level}
        r = await api.post("/v1/tables", json={"game": "tigris-cards", "seats": 2, "clock": clock})
        assert r.status_code == 201, r.text
        table_id = r.json()["table_id"]

        async def over() -> dict[str, Any] | None:
            doc = (await api.get(f"/v1/tables/{table_id}/view")).json()
            return doc if doc.get("over") else None

        assert await eventually(over, 180, every_s=0.2) is not None, "the takeovers did not finish the game"
        await check_finished_table(api, redis, table_id, stack.partitions)  # re-decided: fair
        log = msgspec.json.decode((await api.get(f"/v1/tables/{table_id}/audit")).content, type=AuditLog)
        _, same = verify_log(_at_level(log, level))
        _, changed = verify_log(_at_level(log, other))
    await redis.aclose()
    assert same.fair, same.problems
    assert not changed.fair, f"the {other} bot would have made every move the {level} bot made"
