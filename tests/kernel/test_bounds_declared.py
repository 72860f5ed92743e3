"""Every value a client can send carries its bounds in its msgspec type.

A client's JSON decodes into game commands, game options, tournament commands,
clock settings and the gateway's request bodies. An ``int`` without bounds
takes a 200-bit number that crashes a later stage (msgpack encodes 64 bits at
most); a ``str`` or collection without a length takes megabytes. The walker
below reads the types msgspec decodes with, so a field added without bounds
fails here rather than in production.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.gateway.body import Move, NewTable
from shared.games import registry
from shared.kernel.clocks import DAY_MS, HOUR_MS, ClockSettings, SpectatorDelay
from shared.tournaments.commands import TournamentCommandUnion

#: Places where an unbounded ``Any`` or ``Raw`` is allowed, each with its reason.
#: A path is ``Struct.field`` followed by ``[]`` for an item and ``{}``/``{:}``
#: for a dict's keys and values.
ALLOWED_UNBOUNDED: dict[str, str] = {
    "Create.game_options{:}": "decoded again by the game's own options type, which is walked here",
    "NewTable.options{:}": "decoded again by the game's own options type, which is walked here",
    "Move.command": "Raw: the validator decodes it with the game's command type, which is walked here",
}

GAME_KEYS = registry.available()


def _client_types() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in GAME_KEYS:
        game = registry.get(key)
        out[f"{key} commands"] = game.command_type
        out[f"{key} options"] = game.options_type
    out["tournament commands"] = TournamentCommandUnion
    out["ClockSettings"] = ClockSettings
    out["SpectatorDelay"] = SpectatorDelay
    return out


CLIENT_TYPES = _client_types()
REQUEST_BODIES: dict[str, Any] = {"NewTable": NewTable, "Move": Move}


# -- the walker ----------------------------------------------------------------


def _has_lower(t: mi.IntType | mi.FloatType) -> bool:
    return t.ge is not None or t.gt is not None


def _has_upper(t: mi.IntType | mi.FloatType) -> bool:
    return t.le is not None or t.lt is not None


def unbounded(t: mi.Type, path: str, seen: set[type]) -> Iterator[str]:
    """Every place under ``t`` that takes a value without bounds, as a message."""
    match t:
        case mi.IntType() | mi.FloatType():
            if not (_has_lower(t) and _has_upper(t)):
                yield f"{path}: {type(t).__name__} needs ge/gt and le/lt"
        case mi.StrType() | mi.BytesType() | mi.ByteArrayType():
            if t.max_length is None:
                yield f"{path}: {type(t).__name__} needs max_length"
        case mi.ListType() | mi.VarTupleType() | mi.SetType() | mi.FrozenSetType():
            if t.max_length is None:
                yield f"{path}: {type(t).__name__} needs max_length"
            yield from unbounded(t.item_type, f"{path}[]", seen)
        case mi.TupleType():
            for item in t.item_types:
                yield from unbounded(item, f"{path}[]", seen)
        case mi.DictType():
            if t.max_length is None:
                yield f"{path}: DictType needs max_length"
            yield from unbounded(t.key_type, f"{path}{{}}", seen)
            yield from unbounded(t.value_type, f"{path}{{:}}", seen)
        case mi.UnionType():
            for member in t.types:
                yield from unbounded(member, path, seen)
        case mi.StructType():
            if t.cls in seen:
                return
            seen.add(t.cls)
            for f in t.fields:
                yield from unbounded(f.type, f"{t.cls.__name__}.{f.name}", seen)
        case mi.AnyType() | mi.RawType():
            if path not in ALLOWED_UNBOUNDED:
                yield f"{path}: {type(t).__name__} is not allow-listed"
        case mi.BoolType() | mi.NoneType() | mi.LiteralType() | mi.EnumType():
            pass
        case mi.Metadata():  # a description or title around the type that holds the bounds
            yield from unbounded(t.type, path, seen)
        case _:
            yield f"{path}: {type(t).__name__} is not understood by this walker"


def problems_of(tp: Any) -> list[str]:
    return sorted(set(unbounded(mi.type_info(tp), "", set())))


@pytest.mark.parametrize("name", sorted(CLIENT_TYPES))
def test_client_types_declare_bounds(name: str) -> None:
    assert problems_of(CLIENT_TYPES[name]) == []


@pytest.mark.parametrize("name", sorted(REQUEST_BODIES))
def test_request_bodies_declare_bounds(name: str) -> None:
    # services/gateway/body.py is bounded by its owner; this fails until it is.
    assert problems_of(REQUEST_BODIES[name]) == []


def test_walker_finds_unbounded_fields() -> None:
    class Loose(msgspec.Struct):
        n: int
        s: str
        xs: tuple[int, ...]
        d: dict[str, float]
        a: Any

    assert problems_of(Loose) == [
        "Loose.a: AnyType is not allow-listed",
        "Loose.d: DictType needs max_length",
        "Loose.d{:}: FloatType needs ge/gt and le/lt",
        "Loose.d{}: StrType needs max_length",
        "Loose.n: IntType needs ge/gt and le/lt",
        "Loose.s: StrType needs max_length",
        "Loose.xs: VarTupleType needs max_length",
        "Loose.xs[]: IntType needs ge/gt and le/lt",
    ]


# -- one past each bound of representative fields -----------------------------


def _decoder(key: str) -> Callable[[bytes], Any]:
    return msgspec.json.Decoder(registry.get(key).command_type).decode


def _options(key: str) -> Callable[[bytes], Any]:
    return lambda raw: registry.get(key).options(json.loads(raw))


_clock = msgspec.json.Decoder(ClockSettings).decode
_delay = msgspec.json.Decoder(SpectatorDelay).decode
_tournament = msgspec.json.Decoder(TournamentCommandUnion).decode
_PLACING = {"seat": 0, "player_id": "p", "place": 1, "score": 0}

#: (decode, payload with ``{}`` where the value goes, last value in, first value out)
EDGES: list[tuple[str, Callable[[bytes], Any], dict[str, Any], str, Any, Any]] = [
    ("tigris square high", _decoder("tigris"), {"type": "tigris.place_catastrophe"}, "square", 175, 176),
    ("tigris square low", _decoder("tigris"), {"type": "tigris.place_catastrophe"}, "square", 0, -1),
    ("tigris swap", _decoder("tigris"), {"type": "tigris.swap_tiles"}, "red", 6, 7),
    ("tigris-cards column", _decoder("tigris-cards"), {"type": "tigris-cards.take_treasure"}, "column", 7, 8),
    ("tigris-cards gap", _decoder("tigris-cards"), {"type": "tigris-cards.play_connector", "colour": "red"},
     "gap", 6, 7),
    ("catan path", _decoder("catan"), {"type": "catan.build_road"}, "path", 71, 72),
    ("catan spot", _decoder("catan"), {"type": "catan.build_settlement"}, "spot", 53, 54),
    ("catan hex", _decoder("catan"), {"type": "catan.move_robber"}, "hex", 18, 19),
    ("catan victim", _decoder("catan"), {"type": "catan.move_robber", "hex": 0}, "victim", -1, -2),
    ("catan hand count", _decoder("catan"), {"type": "catan.select_cards"}, "cards", [19] * 8, [20] * 8),
    ("catan hand length", _decoder("catan"), {"type": "catan.select_cards"}, "cards", [0] * 8, [0] * 9),
    ("catan choice", _decoder("catan"), {"type": "catan.choose"}, "choice", 71, 72),
    ("conan units", _decoder("conan"), {"type": "conan.move_army", "frm": "a", "to": "b"},
     "units", 1000, 1001),
    ("conan card name", _decoder("conan"), {"type": "conan.play_event"}, "card", "x" * 64, "x" * 65),
    ("conan ids", _decoder("conan"), {"type": "conan.raise_troops"}, "provinces", ["a"] * 64, ["a"] * 65),
    ("highcard card high", _decoder("highcard"), {"type": "highcard.play"}, "card", 1000, 1001),
    ("highcard card low", _decoder("highcard"), {"type": "highcard.play"}, "card", 1, 0),
    ("catan option", _options("catan"), {}, "points_to_win", 1000, 1001),
    ("tigris-cards first seat", _options("tigris-cards"), {}, "first_seat", 7, 8),
    ("conan option", _options("conan"), {}, "max_dice", 0, -1),
    ("clock initial high", _clock, {}, "initial_ms", 7 * DAY_MS, 7 * DAY_MS + 1),
    ("clock initial low", _clock, {}, "initial_ms", 0, -1),
    ("clock increment", _clock, {}, "increment_ms", HOUR_MS, HOUR_MS + 1),
    ("clock per move", _clock, {}, "per_move_ms", DAY_MS, DAY_MS + 1),
    ("delay moves high", _delay, {}, "moves", 10_000, 10_001),
    ("delay moves low", _delay, {}, "moves", 0, -1),
    ("delay seconds high", _delay, {}, "seconds", 86_400.0, 86_400.001),
    ("delay seconds low", _delay, {}, "seconds", 0.0, -0.001),
    ("tournament rounds", _tournament, {"type": "tournament.create", "tournament_id": "t", "game": "g"},
     "rounds", 1000, 1001),
    ("tournament at_ms", _tournament, {"type": "tournament.start"}, "at_ms", 0, -1),
    ("tournament placings", _tournament, {"type": "tournament.record_result", "game_id": "g"},
     "placings", [_PLACING] * 8, [_PLACING] * 9),
]  # fmt: skip


@pytest.mark.parametrize(("decode", "payload", "field", "inside", "outside"), [e[1:] for e in EDGES],
                         ids=[e[0] for e in EDGES])  # fmt: skip
def test_one_past_each_bound_is_refused(
    decode: Callable[[bytes], Any], payload: dict[str, Any], field: str, inside: Any, outside: Any
) -> None:
    decode(json.dumps({**payload, field: inside}).encode())
    with pytest.raises(msgspec.ValidationError):
        decode(json.dumps({**payload, field: outside}).encode())


# -- huge integers anywhere ----------------------------------------------------

Path = tuple[str | int, ...]


def example(t: mi.Type) -> Any:
    """A JSON value that decodes as ``t``, with every optional field and one item per collection."""
    match t:
        case mi.IntType():
            return t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else 0)
        case mi.FloatType():
            return t.ge if t.ge is not None else 0.0
        case mi.StrType():
            return "x" * (t.min_length or 1)
        case mi.BoolType():
            return False
        case mi.NoneType():
            return None
        case mi.LiteralType():
            return t.values[0]
        case mi.EnumType():
            return next(iter(t.cls)).value
        case mi.ListType() | mi.VarTupleType() | mi.SetType() | mi.FrozenSetType():
            return [example(t.item_type)] if t.max_length != 0 else []
        case mi.TupleType():
            return [example(item) for item in t.item_types]
        case mi.DictType() | mi.AnyType() | mi.RawType():
            return {}
        case mi.UnionType():
            return example(next(m for m in t.types if not isinstance(m, mi.NoneType)))
        case mi.StructType():
            out = {t.tag_field: t.tag} if t.tag_field is not None else {}
            return out | {f.encode_name: example(f.type) for f in t.fields}
    raise AssertionError(f"no example for {t}")


def int_slots(t: mi.Type, path: Path = ()) -> Iterator[tuple[Path, mi.IntType]]:
    """Where an integer sits in :func:`example`'s value, and its type."""
    match t:
        case mi.IntType():
            yield path, t
        case mi.ListType() | mi.VarTupleType() | mi.SetType() | mi.FrozenSetType():
            if t.max_length != 0:
                yield from int_slots(t.item_type, (*path, 0))
        case mi.TupleType():
            for i, item in enumerate(t.item_types):
                yield from int_slots(item, (*path, i))
        case mi.UnionType():
            yield from int_slots(next(m for m in t.types if not isinstance(m, mi.NoneType)), path)
        case mi.StructType():
            for f in t.fields:
                yield from int_slots(f.type, (*path, f.encode_name))


def _set(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        assert isinstance(head, int)
        return [_set(v, rest, new) if i == head else v for i, v in enumerate(value)]
    assert isinstance(head, str)
    return {**value, head: _set(value[head], rest, new)}


def _get(value: Any, path: Path) -> Any:
    for step in path:
        value = msgspec.structs.asdict(value)[step] if isinstance(step, str) else tuple(value)[step]
    return value


def _members(tp: Any) -> list[mi.StructType]:
    info = mi.type_info(tp)
    members = info.types if isinstance(info, mi.UnionType) else (info,)
    return [m for m in members if isinstance(m, mi.StructType)]


def _cases() -> list[tuple[str, Callable[[bytes], Any], mi.StructType, Path, mi.IntType]]:
    decoders: list[tuple[str, Any, Callable[[bytes], Any]]] = []
    for key in GAME_KEYS:
        game = registry.get(key)
        decoders.append((key, game.command_type, msgspec.json.Decoder(game.command_type).decode))
        decoders.append((f"{key} options", game.options_type, _options(key)))
    decoders += [
        ("tournament", TournamentCommandUnion, _tournament),
        ("clock", ClockSettings, _clock),
        ("delay", SpectatorDelay, _delay),
    ]
    return [
        (f"{name}:{member.cls.__name__}:{'.'.join(map(str, path))}", decode, member, path, slot)
        for name, tp, decode in decoders
        for member in _members(tp)
        for path, slot in int_slots(member)
    ]


INT_CASES = _cases()


def _inside(t: mi.IntType, n: int) -> bool:
    return (
        (t.ge is None or n >= t.ge)
        and (t.gt is None or n > t.gt)
        and (t.le is None or n <= t.le)
        and (t.lt is None or n < t.lt)
    )


def test_every_command_type_has_integer_cases() -> None:
    named = {case[0].split(":")[0] for case in INT_CASES}
    assert set(GAME_KEYS) <= named


@pytest.mark.parametrize(("decode", "member", "path", "slot"), [c[1:] for c in INT_CASES],
                         ids=[c[0] for c in INT_CASES])  # fmt: skip
@settings(max_examples=25, deadline=None)
@given(n=st.integers(-(2**200), 2**200) | st.integers(-(2**70), 2**70) | st.integers(-2000, 2000))
def test_huge_integers_decode_within_bounds_or_are_refused(
    decode: Callable[[bytes], Any], member: mi.StructType, path: Path, slot: mi.IntType, n: int
) -> None:
    raw = json.dumps(_set(example(member), path, n)).encode()
    try:
        decoded = decode(raw)
    except msgspec.ValidationError:
        assert not _inside(slot, n)
        return
    assert _inside(slot, n) and _get(decoded, path) == n
