"""Hostile JSON for the hostile-input suite, and the walk over msgspec types
that aims it at every field a client can send.

Bodies are built as Python values and encoded by :func:`encode`, which also
takes :class:`Raw` pieces: JSON text Python cannot produce from a value
(``1e400``, a 5,000-digit number, 30,000 nested brackets, invalid UTF-8 inside
a string, ``NaN``) and :class:`Pairs` (an object whose keys may repeat).

For a msgspec type, :func:`valid` draws a value the type accepts and
:func:`hostile` one it must refuse (out of its bounds, of the wrong type, too
long) or plain junk; :func:`field_paths` lists every field and nested field of
a struct, so a valid-shaped body can be spoiled one field at a time.
"""

from __future__ import annotations

import copy
import itertools
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import msgspec.inspect as mi
from hypothesis import strategies as st

#: Encoded bodies stay below the gateway's 64 KiB limit, except those meant to exceed it.
BODY_LIMIT = 64 * 1024


class Raw:
    """JSON text put into a body verbatim."""

    __slots__ = ("label", "text")

    def __init__(self, text: bytes | str, label: str | None = None) -> None:
        self.text = text.encode() if isinstance(text, str) else text
        self.label = label

    def __repr__(self) -> str:
        # Hypothesis prints failing examples: keep a 30,000-deep nest readable.
        if self.label is not None:
            return f"Raw({self.label})"
        return f"Raw({self.text[:80]!r}{'...' if len(self.text) > 80 else ''})"


class Pairs(tuple):  # type: ignore[type-arg]
    """A JSON object spelled as (key, value) pairs: keys may repeat."""


def encode(value: Any) -> bytes:
    out: list[bytes] = []
    _encode(value, out)
    return b"".join(out)


def _encode(value: Any, out: list[bytes]) -> None:
    if isinstance(value, Raw):
        out.append(value.text)
    elif isinstance(value, Pairs):
        out.append(b"{")
        for i, (key, item) in enumerate(value):
            if i:
                out.append(b",")
            _encode(key, out)
            out.append(b":")
            _encode(item, out)
        out.append(b"}")
    elif isinstance(value, dict):
        _encode(Pairs(value.items()), out)
    elif isinstance(value, list | tuple):
        out.append(b"[")
        for i, item in enumerate(value):
            if i:
                out.append(b",")
            _encode(item, out)
        out.append(b"]")
    elif isinstance(value, str):
        # ensure_ascii spells lone surrogates as \\udXXX escapes instead of failing.
        out.append(json.dumps(value).encode())
    elif isinstance(value, float):
        out.append(repr(value).encode() if value == value and abs(value) != float("inf") else b"null")
    else:  # None, bool, int (of any size)
        out.append(json.dumps(value).encode())


def short(value: Any, limit: int = 300) -> str:
    """A body as a failure message shows it."""
    text = value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


# -- scalars and junk -----------------------------------------------------------

EDGE_INTS = [
    2**200,
    -(2**200),
    2**64,
    2**64 - 1,
    2**63,
    2**63 - 1,
    -(2**63),
    -(2**63) - 1,
    2**53 + 1,
    2**31,
    -1,
    0,
]
integers = st.one_of(st.sampled_from(EDGE_INTS), st.integers(-(2**200), 2**200), st.integers(-3, 1_010))
floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.5, -0.0, 1.0, 1e308, -1e308, 5e-324, 86_400.0000001]),
)
raw_numbers = st.sampled_from(
    ["1e400", "-1e400", "1E+2", "1e-999", "-0", "1.0", "-0.0", "1" * 5_000, "-" + "9" * 400]
).map(Raw)
#: Tokens that are not JSON at all: a parser must refuse them, not crash.
raw_junk = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "0x10", "+1", ".5", "01", "tru", "nul", "'a'", "[1,]", "{,}", "\x00"]
).map(Raw)


def long_text(min_size: int = 65, max_size: int = 70_000) -> st.SearchStrategy[str]:
    return st.tuples(st.integers(min_size, max_size), st.sampled_from("xé€𝔘")).map(lambda p: p[1] * p[0])


special_texts = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\u202e",
        "💥",
        "\ufeff",
        "a" * 64,
        "a" * 65,
        "𝔘" * 64,
        "../../etc/passwd",
        "%s%n%x",
        "${jndi:ldap://x}",
        "' OR 1=1 --",
        "<script>",
        "zg:{p0}:game:x",
        "\r\n",
        "0",
        "-1",
        "true",
        "null",
    ]
)
surrogates = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3)
texts = st.one_of(st.text(max_size=24), special_texts, surrogates, long_text(65, 3_000))


def _not_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


#: A JSON string holding bytes that are not UTF-8.
invalid_utf8_strings = (
    st.binary(min_size=1, max_size=12)
    .map(lambda b: b.replace(b'"', b"").replace(b"\\", b""))
    .filter(_not_utf8)
    .map(lambda b: Raw(b'"' + b + b'"'))
)


def nested(depth: int, kind: str = "object") -> Raw:
    if kind == "array":
        return Raw(b"[" * depth + b"]" * depth, f"[ x {depth}")
    return Raw(b'{"a":' * depth + b"1" + b"}" * depth, f'{{"a": x {depth}')


#: Nesting from a little past what any field expects to what fills the body limit.
deep = st.tuples(st.integers(2, 30_000), st.sampled_from(["array", "object"])).map(
    lambda p: nested(min(p[0], 12_000) if p[1] == "object" else p[0], p[1])
)

scalars = st.one_of(st.none(), st.booleans(), integers, floats, raw_numbers, texts, invalid_utf8_strings)
keys = st.one_of(st.text(max_size=12), special_texts, surrogates)
#: Any JSON value, and some that only look like one.
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(keys, inner, max_size=5),
        st.lists(st.tuples(keys, inner), max_size=4).map(Pairs),
    ),
    max_leaves=16,
)
junk = st.one_of(json_values, deep, raw_junk, long_text())


# -- valid values of a msgspec type ------------------------------------------------


def _low(t: mi.IntType | mi.FloatType) -> Any:
    if t.ge is not None:
        return t.ge
    return None if t.gt is None else t.gt + (1 if isinstance(t, mi.IntType) else 0)


def _high(t: mi.IntType | mi.FloatType) -> Any:
    if t.le is not None:
        return t.le
    return None if t.lt is None else t.lt - (1 if isinstance(t, mi.IntType) else 0)


def valid(t: mi.Type) -> st.SearchStrategy[Any]:
    """Values that decode into ``t`` (bounds kept; whether the rules like them is another matter)."""
    if isinstance(t, mi.Metadata):
        return valid(t.type)
    if isinstance(t, mi.IntType):
        return st.integers(_low(t), _high(t))
    if isinstance(t, mi.FloatType):
        return st.floats(_low(t), _high(t), allow_nan=False, allow_infinity=False)
    if isinstance(t, mi.StrType):
        if t.pattern is not None:
            return st.from_regex(t.pattern, fullmatch=True)
        return st.text(min_size=t.min_length or 0, max_size=min(t.max_length or 24, 24))
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.NoneType):
        return st.none()
    if isinstance(t, mi.EnumType):
        return st.sampled_from([m.value for m in t.cls])
    if isinstance(t, mi.LiteralType):
        return st.sampled_from(t.values)
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return st.lists(valid(t.item_type), min_size=t.min_length or 0, max_size=min(t.max_length or 3, 3))
    if isinstance(t, mi.TupleType):
        return st.tuples(*(valid(i) for i in t.item_types)).map(list)
    if isinstance(t, mi.DictType):
        return st.dictionaries(valid(t.key_type), valid(t.value_type), max_size=min(t.max_length or 3, 3))
    if isinstance(t, mi.StructType):
        return valid_struct(t)
    if isinstance(t, mi.UnionType):
        return st.one_of(*(valid(m) for m in t.types))
    return st.one_of(st.none(), st.booleans(), st.integers(0, 10), st.text(max_size=8))


def valid_struct(t: mi.StructType, optional: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    required = {f.encode_name: valid(f.type) for f in t.fields if f.required}
    extra = {f.encode_name: valid(f.type) for f in t.fields if not f.required} if optional else {}
    doc = st.fixed_dictionaries(required, optional=extra)
    if t.tag_field is not None:
        doc = doc.map(lambda d: {t.tag_field: t.tag, **d})
    return doc


def sample(t: mi.Type) -> Any:
    """One valid value, picked without Hypothesis (for the deterministic sweeps)."""
    if isinstance(t, mi.Metadata):
        return sample(t.type)
    if isinstance(t, mi.IntType | mi.FloatType):
        low, high = _low(t), _high(t)
        return low if low is not None else (high if high is not None and high < 0 else 0)
    if isinstance(t, mi.StrType):
        return "a" * (t.min_length or 1)
    if isinstance(t, mi.BoolType):
        return False
    if isinstance(t, mi.EnumType):
        return next(iter(t.cls)).value
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return [sample(t.item_type)] * max(1, t.min_length or 0)
    if isinstance(t, mi.TupleType):
        return [sample(i) for i in t.item_types]
    if isinstance(t, mi.DictType):
        return {}
    if isinstance(t, mi.StructType):
        doc = {f.encode_name: sample(f.type) for f in t.fields if f.required}
        return {t.tag_field: t.tag, **doc} if t.tag_field is not None else doc
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        return sample(members[0]) if members else None
    return None


def edges(t: mi.Type) -> list[Any]:
    """Values at the edges of what ``t`` lets through: the type accepts them, the
    rules may not expect them (an empty name, the largest count, every choice)."""
    if isinstance(t, mi.Metadata):
        return edges(t.type)
    if isinstance(t, mi.IntType | mi.FloatType):
        found = [v for v in (_low(t), _high(t)) if v is not None]
        return found or [0, -1]
    if isinstance(t, mi.StrType):
        if t.pattern is not None:
            return [sample(t)]
        low = t.min_length or 0
        return ["x" * low, "x" * (t.max_length or 64), "é" * max(low, 1)]
    if isinstance(t, mi.BoolType):
        return [True, False]
    if isinstance(t, mi.EnumType):
        return [m.value for m in t.cls]
    if isinstance(t, mi.LiteralType):
        return list(t.values)
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return [[sample(t.item_type)] * (t.min_length or 0), [sample(t.item_type)] * (t.max_length or 8)]
    if isinstance(t, mi.UnionType):
        return [v for m in t.types for v in edges(m)]
    if isinstance(t, mi.NoneType):
        return [None]
    return [sample(t)]


# -- hostile values of a msgspec type -----------------------------------------------


def outside(t: mi.Type) -> list[Any]:
    """Values out of ``t``'s bounds or of the wrong type, for the deterministic
    sweeps (a 200-bit integer first; a few may fit another member of a union)."""
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        nullable = len(members) < len(t.types)
        values = outside(members[0]) if members else [2**200]
        return [v for v in values if not (nullable and v is None)]
    values: list[Any] = [2**200, -(2**200)]
    if isinstance(t, mi.Metadata):
        return outside(t.type)
    if isinstance(t, mi.IntType | mi.FloatType):
        low, high = _low(t), _high(t)
        values += [
            v for v in (None if high is None else high + 1, None if low is None else low - 1) if v is not None
        ]
        values += [Raw("1e400"), "1", True, 1.5 if isinstance(t, mi.IntType) else "1.5"]
    elif isinstance(t, mi.StrType):
        values += ["x" * ((t.max_length or 64) + 1), Raw(b'"\xff\xfe"'), 1]
    elif isinstance(t, mi.EnumType | mi.LiteralType):
        values += ["no-such-value", " " + str(_first_choice(t)), 1]
    elif isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        values += [[sample(t.item_type)] * ((t.max_length or 64) + 1), [2**200], {"a": 1}]
    elif isinstance(t, mi.StructType):
        values += [[], "x", {"no_such_field": 2**200}]
    values += [None, nested(3_000, "array"), {"$": [1, {"$": None}]}]
    return values


def _first_choice(t: mi.EnumType | mi.LiteralType) -> Any:
    return next(iter(t.cls)).value if isinstance(t, mi.EnumType) else t.values[0]


def hostile(t: mi.Type) -> st.SearchStrategy[Any]:
    """Values ``t`` must refuse, and junk that it almost certainly refuses."""
    if isinstance(t, mi.Metadata):
        return hostile(t.type)
    specific: list[st.SearchStrategy[Any]] = [st.sampled_from(outside(t))]
    if isinstance(t, mi.IntType):
        low, high = _low(t), _high(t)
        if high is not None:
            specific.append(st.integers(high + 1, high + 2**200))
        if low is not None:
            specific.append(st.integers(low - 2**200, low - 1))
        specific += [floats, raw_numbers, integers.map(str)]
    elif isinstance(t, mi.FloatType):
        specific += [floats, raw_numbers, raw_junk]
    elif isinstance(t, mi.StrType):
        specific += [long_text((t.max_length or 64) + 1), surrogates, invalid_utf8_strings, special_texts]
    elif isinstance(t, mi.EnumType | mi.LiteralType):
        choices = [str(_first_choice(t))]
        specific.append(
            st.sampled_from(choices).flatmap(
                lambda c: st.sampled_from([c.upper(), c + " ", c + "\x00", c * 40, c[:-1], f"{c}.x"])
            )
        )
    elif isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        over = (t.max_length or 64) + 1
        specific += [
            st.lists(valid(t.item_type), min_size=over, max_size=over + 3),
            st.lists(hostile(t.item_type), min_size=1, max_size=3),
        ]
    elif isinstance(t, mi.StructType):
        specific.append(
            valid_struct(t).flatmap(lambda d: st.tuples(keys, junk).map(lambda kv: {**d, kv[0]: kv[1]}))
        )
    elif isinstance(t, mi.UnionType):
        specific += [hostile(m) for m in t.types if not isinstance(m, mi.NoneType)]
    return st.one_of(st.one_of(*specific), junk)


# -- fields of a struct, and spoiling one ----------------------------------------------

Path = tuple[str | int, ...]


def structs_in(t: mi.Type) -> list[mi.StructType]:
    if isinstance(t, mi.Metadata):
        return structs_in(t.type)
    if isinstance(t, mi.StructType):
        return [t]
    if isinstance(t, mi.UnionType):
        return [s for m in t.types for s in structs_in(m)]
    return []


def _items_of(t: mi.Type) -> mi.Type | None:
    if isinstance(t, mi.Metadata):
        return _items_of(t.type)
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return t.item_type
    if isinstance(t, mi.UnionType):
        return next((i for m in t.types if (i := _items_of(m)) is not None), None)
    return None


def field_paths(t: mi.StructType, prefix: Path = ()) -> Iterator[tuple[Path, mi.Type]]:
    """Every field, nested struct field and first collection item of ``t``, with its type."""
    for f in t.fields:
        path = (*prefix, f.encode_name)
        yield path, f.type
        for inner in structs_in(f.type):
            yield from field_paths(inner, path)
        item = _items_of(f.type)
        if item is not None:
            yield (*path, 0), item
            for inner in structs_in(item):
                yield from field_paths(inner, (*path, 0))


def spoil(doc: Any, path: Path, op: str, value: Any = None) -> Any:
    """A copy of ``doc`` with the node at ``path`` replaced (``set``), removed
    (``drop``), or given an unknown sibling (``extra``). Missing containers on
    the way are created, so an absent optional field gets set too."""
    doc = copy.deepcopy(doc)
    if not path:
        return value if op == "set" else doc
    node = doc
    for step, following in itertools.pairwise(path):
        fresh: Any = [] if isinstance(following, int) else {}
        if isinstance(node, dict):
            if not isinstance(node.get(step), dict | list):
                node[step] = fresh
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int):
            while len(node) <= step:
                node.append(fresh)
            if not isinstance(node[step], dict | list):
                node[step] = fresh
            node = node[step]
        else:
            return doc
    last = path[-1]
    if isinstance(node, dict):
        if op == "set":
            node[last] = value
        elif op == "drop":
            node.pop(last, None)
        else:
            node[f"{last}_and_more"] = value
    elif isinstance(node, list) and isinstance(last, int):
        if op == "set":
            while len(node) <= last:
                node.append(None)
            node[last] = value
        elif op == "drop" and len(node) > last:
            del node[last]
        else:
            node.append(value)
    return doc


@st.composite
def spoiled(draw: st.DrawFn, paths: list[tuple[Path, mi.Type]], base: st.SearchStrategy[Any]) -> Any:
    """A draw from ``base`` (valid-shaped) with one of its ``paths`` spoiled, or
    an unknown field added, or the whole body replaced by junk."""
    doc = draw(base, label="valid-shaped")
    if not paths:
        return draw(st.sampled_from(["extra", "whole"]).flatmap(lambda op: _whole_or_extra(doc, op)))
    path, field_type = draw(st.sampled_from(paths), label="field")
    op = draw(st.sampled_from(["set", "set", "set", "set", "drop", "extra", "whole"]), label="how")
    if op == "set":
        return spoil(doc, path, "set", draw(hostile(field_type), label="value"))
    if op in ("drop", "extra"):
        return spoil(doc, path, op, draw(junk, label="value"))
    return draw(junk, label="body")


def _whole_or_extra(doc: Any, op: str) -> st.SearchStrategy[Any]:
    if op == "whole":
        return junk
    return st.tuples(keys, junk).map(lambda kv: {**doc, kv[0]: kv[1]})


# -- raw bodies, headers and query strings -----------------------------------------------

raw_bodies = st.one_of(
    st.binary(max_size=200),
    st.binary(max_size=200).filter(_not_utf8).map(lambda b: b'{"command":{"type":"' + b + b'"}}'),
    st.binary(min_size=1, max_size=40).filter(_not_utf8).map(lambda b: b'{"game":"' + b + b'","seats":2}'),
    deep.map(lambda r: r.text),
    st.integers(BODY_LIMIT - 20, BODY_LIMIT + 20).map(lambda n: b'{"x":"' + b"y" * n + b'"}'),
    st.sampled_from([b"", b" ", b"null", b"[]", b"{}", b"\xef\xbb\xbf{}", b"{}{}", b'{"a":1} x', b"\x00"]),
)

_FIELD_VCHARS = bytes(range(0x21, 0x7F)) + bytes(range(0x80, 0x100))


@st.composite
def header_values(draw: st.DrawFn) -> bytes:
    """What HTTP/1.1 can carry in a header value (the client refuses the rest):
    visible ASCII, bytes above 0x7f, and inner spaces and tabs."""
    kind = draw(st.sampled_from(["ascii", "bytes", "utf8", "long", "spaced", "edge"]))
    if kind == "ascii":
        value = draw(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=200)).encode()
    elif kind == "bytes":
        value = draw(st.lists(st.sampled_from(_FIELD_VCHARS), max_size=64).map(bytes))
    elif kind == "utf8":
        value = draw(st.text(min_size=1, max_size=40)).encode("utf-8", "surrogatepass")
    elif kind == "long":
        value = b"k" * draw(st.integers(120, 8_000))
    elif kind == "spaced":
        value = b"a " + draw(st.sampled_from([b"b", b"\tb", b"Bearer x", b"  b"]))
    else:
        value = draw(
            st.sampled_from([b"", b"0", b"-1", str(2**200).encode(), b"null", b"k" * 128, b"k" * 129])
        )
    # The client refuses control characters and edge whitespace; drop what the draws above may hold.
    return bytes(c for c in value if c in (0x09, 0x20) or (c >= 0x21 and c != 0x7F)).strip(b" \t")


@st.composite
def query_values(draw: st.DrawFn) -> str:
    """A query parameter's value, already percent-encoded as it goes on the wire."""
    kind = draw(st.sampled_from(["int", "edge", "bytes", "text", "long"]))
    if kind == "int":
        return str(draw(integers))
    if kind == "edge":
        return draw(
            st.sampled_from(
                [
                    "",
                    "0",
                    "00",
                    "01",
                    "+1",
                    "-0",
                    "1e3",
                    "1.0",
                    "%201",
                    "1%20",
                    "9007199254740992",
                    "9007199254740993",
                    "%EF%BC%91",
                    "%D9%A3",
                    "0x1",
                    "NaN",
                    "%",
                    "%ff",
                    "%00",
                    "1%00",
                    "%2B1",
                    "1&after=2",
                    "%E2%80%AE1",
                ]
            )
        )
    if kind == "bytes":
        return urllib.parse.quote_from_bytes(draw(st.binary(max_size=40)), safe="")
    if kind == "text":
        return urllib.parse.quote(draw(st.text(max_size=30)).encode("utf-8", "surrogatepass"), safe="")
    return "9" * draw(st.integers(17, 6_000))
