"""The pipeline's messages are tagged unions (commands by ``kind``, outcomes by
``status``), and messages written before they were split (one struct carrying
every kind's fields, ``null`` or empty where unused) still decode: they may sit
in the streams, or be on their way to a gateway, across a deploy."""

from __future__ import annotations

import msgspec
import pytest

from shared.messaging.messages import (
    AcceptedOutcome,
    MoveMsg,
    OpenMsg,
    OpenTable,
    RejectedOutcome,
    TimeoutMsg,
    decode_command,
    decode_outcomes,
    encode,
)

#: As the single ``CommandMsg`` struct encoded them: every field, whatever the kind.
_OLD_MOVE = (
    b'{"kind":"move","game_id":"g","partition":3,"command_id":"abcd:k","correlation_id":"c",'
    b'"reply_to":"gw-1","request_id":"r","received_ns":7,"token_hash":"ab","command":'
    b'{"type":"highcard.play","card":4},"open":null,"expected_version":2,"seat":1,'
    b'"validated_ns":9,"decided":null}'
)
_OLD_OPEN = (
    b'{"kind":"open","game_id":"g","partition":3,"command_id":"open-g","correlation_id":"c",'
    b'"reply_to":"gw-1","request_id":"","received_ns":7,"token_hash":"","command":null,'
    b'"open":{"game":"highcard","seats":2,"options":{},"token_hashes":["a","b"],"clock":null,'
    b'"spectator_delay":null},"expected_version":null,"seat":null,"validated_ns":0,"decided":null}'
)


def test_a_move_written_before_the_split_decodes_as_a_move() -> None:
    msg = decode_command(_OLD_MOVE)
    assert isinstance(msg, MoveMsg) and msg.kind == "move"
    assert (msg.token_hash, msg.expected_version, msg.seat, msg.validated_ns) == ("ab", 2, 1, 9)
    assert msgspec.json.decode(bytes(msg.command)) == {"type": "highcard.play", "card": 4}


def test_an_opening_written_before_the_split_decodes_as_an_opening() -> None:
    msg = decode_command(_OLD_OPEN)
    assert isinstance(msg, OpenMsg) and msg.kind == "open"
    assert msg.open == OpenTable(game="highcard", seats=2, token_hashes=("a", "b"))


def test_each_kind_round_trips_and_carries_only_its_own_fields() -> None:
    base = {"game_id": "g", "partition": 0, "command_id": "x", "correlation_id": "c", "reply_to": ""}
    move = MoveMsg(**base, received_ns=1, token_hash="h", command=msgspec.Raw(b'{"type":"t"}'))
    opening = OpenMsg(**base, received_ns=1, open=OpenTable(game="highcard", seats=2))
    timeout = TimeoutMsg(**base, received_ns=1, seat=1)
    for msg in (move, opening, timeout):
        body = msgspec.json.decode(encode(msg))
        assert body["kind"] == msg.kind
        assert decode_command(encode(msg)) == msg
    assert "open" not in msgspec.json.decode(encode(move))
    assert "command" not in msgspec.json.decode(encode(opening))


@pytest.mark.parametrize(
    "body",
    [
        b'{"kind":"move","game_id":"g","partition":0,"command_id":"x","correlation_id":"c",'
        b'"reply_to":"","received_ns":1,"command":{"type":"t"}}',  # a move without its token
        b'{"kind":"open","game_id":"g","partition":0,"command_id":"x","correlation_id":"c",'
        b'"reply_to":"","received_ns":1,"open":null}',  # an opening of nothing
        b'{"kind":"resign","game_id":"g","partition":0,"command_id":"x","correlation_id":"c",'
        b'"reply_to":"","received_ns":1}',
    ],
)
def test_a_kind_missing_what_it_needs_does_not_decode(body: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        decode_command(body)


#: As the single ``Outcome`` struct encoded them: every field, whatever the status.
_OLD_OUTCOMES = (
    b'[{"command_id":"a","request_id":"r1","game":"highcard","status":"accepted","code":"",'
    b'"message":"","details":{},"first":3,"last":4,"seat":1,"events":[{"type":"t"}],'
    b'"received_ns":1,"validated_ns":2,"decided_ns":3,"duplicate":true},'
    b'{"command_id":"b","request_id":"r2","game":"","status":"rejected","code":"bad_token",'
    b'"message":"Not a seat token of this table.","details":{"table":"g"},"first":0,"last":0,'
    b'"seat":null,"events":[],"received_ns":1,"validated_ns":0,"decided_ns":0,"duplicate":false}]'
)


def test_outcomes_written_before_the_split_decode_as_their_status() -> None:
    accepted, refused = decode_outcomes(_OLD_OUTCOMES)
    assert isinstance(accepted, AcceptedOutcome) and accepted.status == "accepted"
    assert (accepted.first, accepted.last, accepted.seat, accepted.duplicate) == (3, 4, 1, True)
    assert isinstance(refused, RejectedOutcome) and refused.status == "rejected"
    assert (refused.code, refused.details) == ("bad_token", {"table": "g"})
    assert "code" not in msgspec.json.decode(encode(accepted))
    assert "first" not in msgspec.json.decode(encode(refused))
    assert decode_outcomes(encode([accepted, refused])) == [accepted, refused]


def test_a_rejection_without_its_code_does_not_decode() -> None:
    with pytest.raises(msgspec.ValidationError):
        decode_outcomes(b'[{"command_id":"b","status":"rejected","message":"no code"}]')
