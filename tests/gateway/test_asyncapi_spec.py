"""The committed AsyncAPI document is the generated one, its payloads are the
msgspec types' own schemas, and every stream or channel the code writes is in it."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec

from services.gateway.asyncapi import SCHEMAS, _types, spec
from shared.arenas import keys as arena_keys
from shared.casual import keys as casual_keys
from shared.eventstore import keys
from shared.ladders import keys as ladder_keys
from shared.messaging import control
from shared.players import keys as player_keys
from shared.players import store as player_store
from shared.players.seats import Turn
from shared.tournaments import keys as tournament_keys

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "asyncapi.json"
SPEC = spec()
#: Calls that write a stream or a channel, whatever their receiver.
WRITING = {"xadd", "add", "send", "submit", "publish", "publisher"}
#: Every name the key modules (and the control plane) build stream and channel names with.
BUILDERS = {
    name
    for module in (keys, tournament_keys, player_keys, ladder_keys, arena_keys, casual_keys)
    for name in vars(module)
    if not name.startswith("_") and name[0].isalpha()
} | {"COMMANDS"}
#: The aggregates that the store's append script writes besides games and tournaments
#: (with no command record: their commands are not re-decided).
AGGREGATES = ("PlayerKeys", "LadderKeys", "ArenaKeys", "CasualKeys")
#: Each XADD of the Lua scripts (files, and scripts inline in Python): the key it writes, as
#: the script's caller passes it.
LUA_WRITES = {
    ("shared/eventstore/append.lua", "KEYS[1]"): {
        "GameKeys.events",
        "TournamentKeys.events",
        *(f"{a}.events" for a in AGGREGATES),
    },
    ("shared/eventstore/append.lua", "KEYS[2]"): {"GameKeys.commands", "TournamentKeys.commands"},
    ("shared/eventstore/append.lua", "KEYS[5]"): {
        "partition_feed",
        "tournament_feed",
        *(f"{a}.feed" for a in AGGREGATES),
    },
    ("shared/readmodels/project.lua", "KEYS[tonumber(ARGV[i])]"): {"GameKeys.audience_feed"},
    ("shared/players/store.py", "KEYS[1]"): {"inbox"},
}
_XADD = re.compile(r'redis\.call\("XADD", (.+?), "')


def documented_keys() -> set[str]:
    return {channel["x-key"] for channel in SPEC["channels"].values()}


def _called(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def python_writes() -> Iterator[tuple[str, str]]:
    """(file, key builder) for each builder named in the target of a writing call."""
    for path in sorted([*ROOT.joinpath("services").rglob("*.py"), *ROOT.joinpath("shared").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and _called(node.func) in WRITING):
                continue
            for arg in [*node.args[:2], *(k.value for k in node.keywords if k.arg in ("stream", "channel"))]:
                for inner in ast.walk(arg):
                    name = _called(inner.func) if isinstance(inner, ast.Call) else _called(inner)
                    if name in BUILDERS:
                        yield str(path.relative_to(ROOT)), name


def test_the_committed_document_is_current() -> None:
    assert json.loads(DOC.read_text()) == SPEC, "run `make asyncapi` and commit docs/asyncapi.json"


def test_every_payload_is_its_types_own_schema() -> None:
    for name, type_ in _types().items():
        (schema,), components = msgspec.json.schema_components([type_], ref_template=SCHEMAS + "{name}")
        assert SPEC["components"]["messages"][name]["payload"] == json.loads(msgspec.json.encode(schema))
        for component in components:
            assert component in SPEC["components"]["schemas"]


def test_every_channel_names_existing_messages_and_every_operation_an_existing_channel() -> None:
    messages = SPEC["components"]["messages"]
    for channel in SPEC["channels"].values():
        for ref in channel["messages"].values():
            assert "$ref" not in ref or ref["$ref"].rsplit("/", 1)[1] in messages
    for op in SPEC["operations"].values():
        channel_id = op["channel"]["$ref"].rsplit("/", 1)[1]
        assert channel_id in SPEC["channels"]
        for ref in op["messages"]:
            assert ref["$ref"].rsplit("/", 1)[1] in SPEC["channels"][channel_id]["messages"]


def test_every_stream_the_python_code_writes_is_a_channel() -> None:
    found = set(python_writes())
    assert {name for _, name in found} >= {"command_stream", "validated_stream", "COMMANDS"}, "the scan sees"
    missing = {(path, name) for path, name in found if name not in documented_keys()}
    assert not missing, f"written but not in docs/asyncapi.json: {sorted(missing)}"


def lua_writes() -> set[tuple[str, str]]:
    """(file, key) of each XADD in a script file, or in a script inline in Python."""
    sites = set()
    for path in [*ROOT.joinpath("shared").rglob("*.lua"), *ROOT.joinpath("shared").rglob("*.py")]:
        text = path.read_text()
        if path.suffix == ".py" and "LuaScript(" not in text:
            continue
        for key in _XADD.findall(text):
            sites.add((str(path.relative_to(ROOT)), key))
    return sites


def test_every_stream_the_lua_scripts_write_is_a_channel() -> None:
    sites = lua_writes()
    assert ("shared/players/store.py", "KEYS[1]") in sites, "the scan sees inline scripts"
    assert sites == set(LUA_WRITES), "a script writes a stream this test does not know: map it above"
    for names in LUA_WRITES.values():
        assert names <= documented_keys()


def test_the_player_inbox_entry_is_a_turn_field_by_field() -> None:
    """The inbox script writes one field per Turn attribute, by initial, in order."""
    (script,) = re.findall(r'"XADD", KEYS\[1\].*', player_store._APPEND_TURN.source)
    fields = re.findall(r'"([a-z])", ARGV\[\d\]', script)
    assert fields == [name[0] for name in Turn.__struct_fields__]
    assert SPEC["components"]["messages"]["Turn"]["x-field"].startswith(", ".join(fields))


def test_player_notices_on_the_changes_channel() -> None:
    """What announce() publishes for a player matches the documented notice, and not a table's."""
    notice = SPEC["channels"]["changes"]["messages"]["PlayerNotice"]["payload"]["pattern"]
    assert re.match(notice, f"{player_keys.notice_id('pl0123abcd')} 7")
    assert not re.match(notice, "g0123 7")


def test_the_control_plane_is_the_faststream_application() -> None:
    channel = SPEC["channels"]["tournament-commands"]
    assert channel["address"] == control.COMMANDS
    actions = sorted(
        op["action"]
        for op in SPEC["operations"].values()
        if op["channel"]["$ref"].endswith("/tournament-commands")
    )
    assert actions == ["receive", "receive", "send"], "consume, reclaim and the gateway's publisher"
