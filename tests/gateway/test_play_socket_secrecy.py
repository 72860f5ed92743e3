"""The play connection as a channel of secrets: every view a seat's socket is
sent is that seat's own view document, byte for byte what
:func:`shared.readmodels.build.view_doc` makes of the table at that version
for that seat, so the harness's checks of the documents (``check_game``:
nothing another audience hides reaches it) hold for what the socket carries.
A whole game of three seats is played over their sockets against the running
system, every frame of every socket kept; a reply's events are exactly the
seat's own feed entries of those versions (the events it may see).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.eventstore.tables import fold_all
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.readmodels.build import audience_name, view_doc
from tests.gateway.play_sockets import first_legal, open_table, sit
from tests.support.stacks import running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]
_json = msgspec.json.Encoder().encode


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "secrecy-stack")


async def test_a_seats_socket_carries_its_own_view_and_nothing_hidden_from_it(stack: Stack) -> None:
    seats_n = 3
    table_id, tokens = await open_table(stack.api, seats_n, {"hand_size": 4, "deck_size": 30})
    seats = [await sit(stack.api, table_id, t) for t in tokens]
    docs = [ready["view"] for _, ready in seats]
    frames: list[list[dict[str, Any]]] = [[ready] for _, ready in seats]
    while not docs[0]["over"]:
        actor = docs[0]["actors"][0]
        while docs[actor]["version"] < docs[0]["version"]:
            frame = await seats[actor][0].next()
            frames[actor].append(frame)
            docs[actor] = frame["view"]
        reply = await seats[actor][0].reply({"command": first_legal(docs[actor]), "view": True})
        frames[actor].append(reply)
        assert reply["http_status"] == 200, reply
        version = reply["answer"]["version"]
        docs[actor] = reply["answer"]["view"]
        for other in range(seats_n):
            while other != actor and docs[other]["version"] < version:
                frame = await seats[other][0].next()
                frames[other].append(frame)
                docs[other] = frame["view"]
    redis = connect(stack.redis_url or "", False)
    try:
        keys = GameKeys(table_id, partition_of(table_id, stack.partitions))
        envelopes = await EventStore(redis).read(keys)
        feeds = [
            [
                msgspec.json.decode(f[b"e"])
                for _, f in await redis.xrange(keys.audience_feed(audience_name(s)))
            ]
            for s in range(seats_n)
        ]
    finally:
        await redis.aclose()
    for seat, (socket, _) in enumerate(seats):
        assert socket.views, "the socket carried no view"
        for raw in socket.views:
            version = msgspec.json.decode(raw)["version"]
            table = fold_all([e for e in envelopes if e.version <= version])
            assert table is not None
            assert raw == _json(view_doc(table_id, table, seat)), f"seat {seat}, version {version}"
        # A reply's events are the seat's own feed entries of those versions, nothing more.
        for frame in frames[seat]:
            answer = frame.get("answer", {})
            if frame["type"] == "reply" and answer.get("status") == "accepted":
                first, last = answer["first_version"], answer["version"]
                mine = [f["event"] for f in feeds[seat] if first <= f["version"] <= last]
                assert answer["events"] == mine, f"seat {seat}, versions {first}-{last}"
            else:
                assert frame["type"] in {"ready", "view"}, frame
        await socket.close()
