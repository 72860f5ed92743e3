"""Player accounts: the pure rules (register, rotate) and their bounds."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.gateway.players import NewAccount
from shared.kernel.auth import token_hash
from shared.kernel.rejection import RuleViolation
from shared.players import (
    KeyRotated,
    PlayerEventUnion,
    Register,
    Registered,
    RotateKey,
    codes,
    decide,
    evolve,
    fold,
)

_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(PlayerEventUnion).decode


def register(**extra: object) -> Register:
    fields: dict[str, object] = {"player_id": "pl1", "name": "Ada", "key_hash": token_hash("k1"), "at_ms": 5}
    return Register(**{**fields, **extra})  # type: ignore[arg-type]


def test_register_then_rotate_keeps_only_the_current_hash() -> None:
    events = decide(None, register(bot=True, operator="lab"))
    state = fold(events)
    assert state is not None and state.key_hash == token_hash("k1") and state.bot and state.operator == "lab"
    rotated = decide(state, RotateKey(key_hash=token_hash("k2")))
    assert rotated == [KeyRotated(key_hash=token_hash("k2"), at_ms=0)]
    state = evolve(state, rotated[0])
    assert state.key_hash == token_hash("k2") and state.rotations == 1
    assert state.registered_at == 5


@pytest.mark.parametrize(
    ("state_first", "command", "code"),
    [
        (True, register(), codes.ALREADY_REGISTERED),
        (False, RotateKey(key_hash=token_hash("k2")), codes.NO_PLAYER),
        (True, RotateKey(key_hash=token_hash("k1")), codes.SAME_KEY),
        (False, register(name="   "), codes.INVALID_PLAYER),
        (False, register(player_id="-bad"), codes.INVALID_PLAYER),
        (False, register(operator="someone"), codes.INVALID_PLAYER),
    ],
)
def test_refusals_have_stable_codes(state_first: bool, command: object, code: str) -> None:
    state = fold(decide(None, register())) if state_first else None
    with pytest.raises(RuleViolation) as refused:
        decide(state, command)  # type: ignore[arg-type]
    assert refused.value.code == code


@given(st.lists(st.text(alphabet="abcdef0123456789", min_size=1, max_size=8), min_size=1, max_size=10))
def test_events_round_trip_and_the_fold_follows_every_rotation(keys: list[str]) -> None:
    events = list(decide(None, register()))
    state = fold(events)
    for key in keys:
        try:
            new = decide(state, RotateKey(key_hash=token_hash(key)))
        except RuleViolation as exc:
            assert exc.code == codes.SAME_KEY
            continue
        events.extend(new)
        state = fold(new, state)
    stored = [_decode(_encode(e)) for e in events]
    assert stored == events and fold(stored) == state
    assert state is not None and state.rotations == len(events) - 1
    assert isinstance(events[0], Registered)


@pytest.mark.parametrize(
    "body",
    [
        b'{"name": ""}',
        b'{"name": "' + b"x" * 65 + b'"}',
        b'{"name": "a", "operator": "' + b"o" * 65 + b'"}',
        b'{"name": "a", "extra": 1}',
    ],
)
def test_a_registration_out_of_bounds_is_refused_at_decoding(body: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(body, type=NewAccount)


def test_a_key_hash_must_be_a_digest() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "player.rotate_key", "key_hash": "plain-key"}', type=RotateKey)
