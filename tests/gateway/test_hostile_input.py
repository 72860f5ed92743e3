"""Hostile input through the public HTTP API, against the real services.

Hypothesis sends arbitrary JSON (huge and negative integers up to 2**200,
floats and numbers no float holds, deep nesting, invalid UTF-8, wrong types,
unknown fields, strings up to the body limit and past it) in every field of
every request body: table openings (with each game's options, the clock and
the spectator delay), moves (the command and ``expected_version``), tournament
creation (with its game options) and registration. Each game's commands are
walked from the msgspec type information of its ``command_type``: valid-shaped
and real legal commands are spoiled one field at a time, retagged, or
replaced by junk, and sent with a real seat token of a real open table of that
game, by the awaited seat or another. Idempotency keys are replayed with other
bodies; the headers (Idempotency-Key, X-Correlation-ID, Authorization,
Last-Event-ID), the query parameters (``min_version``, ``after``,
``version``), the path ids and the methods get the same treatment.

The requirements, checked by :class:`tests.gateway.hostile_harness.Referee` on every
answer: never a 5xx; every refusal a JSON body with a stable ``code``, a human
``message`` and the status its code is documented with; a refused command or
registration leaves its table's (tournament's) store version unchanged, and
a refused opening or creation opens nothing; no dead letter ever appears and
no stage counts a failed message (a dead letter fails the test that sent its
input, and the failure shows the message it holds); ``/ready`` stays green.
Before, between the tests (every ``FRESH_EVERY_S``) and after the attack, a
fresh table of every registered game takes a legal move within 10 s.

Deterministic sweeps add what random draws may miss in a short run: every
field of every command of every game, and every field of every request body,
gets a 200-bit integer (which must be refused), one more out-of-bounds value
and (commands) one in-bounds edge value, in rotation; an unknown field next
to each, holding JSON nested 300 deep, must be refused. Every option of
every game is set alone to each edge of its type (an empty name, the largest
count): the opening is refused cleanly or the table takes its first legal
move. A tournament of every game is created with such options and started:
if creation accepted them, the first round must open. An opening's
Idempotency-Key is replayed for every other game.

How long it runs: ``ZIGGURAT_HOSTILE_EXAMPLES`` sets the examples per
strategy. The default (25) is the short form ``make test`` runs, in about a
minute with its own stack; it reports inputs as drawn. A larger number is the
long form, which also sends every value of the sweeps to every field and
shrinks what it finds (up to minutes per finding)::

    ZIGGURAT_HOSTILE_EXAMPLES=500 .venv/bin/python -m pytest tests/gateway/test_hostile_input.py -q
"""

from __future__ import annotations

import itertools
import os
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec.inspect as mi
import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from services.gateway.arenas import NewArena
from services.gateway.body import Move, NewTable
from services.gateway.casual import NewCasual
from services.gateway.players import NewAccount
from services.gateway.tables.play_socket import Hello, PlayMessage
from services.gateway.tournaments import NewPlayer, NewTournament
from shared.games import registry
from shared.infra.launcher import Stack
from shared.kernel.clocks import SpectatorDelay
from shared.kernel.legal_groups import expand
from tests.gateway.hostile_harness import GAMES, Referee, Store, Table, Targets, Tournament, auth, describe
from tests.gateway.hostile_strategies import (
    Path,
    edges,
    encode,
    field_paths,
    header_values,
    hostile,
    junk,
    nested,
    outside,
    query_values,
    raw_bodies,
    sample,
    short,
    spoil,
    spoiled,
    structs_in,
    valid,
    valid_struct,
)
from tests.support.stacks import running_stack

DEFAULT_EXAMPLES = 25
EXAMPLES = int(os.environ.get("ZIGGURAT_HOSTILE_EXAMPLES", DEFAULT_EXAMPLES))
#: The long form also sends every out-of-bounds value of the sweeps to every field.
THOROUGH = EXAMPLES > DEFAULT_EXAMPLES

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.xdist_group("stack"),
    # The long form shrinks what it finds, which can take minutes per finding.
    pytest.mark.timeout(7_200 if THOROUGH else 600),
]
HOSTILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    # Examples are slow (HTTP round trips) and large on purpose; no example
    # database: a finding is reported with its input, not replayed from disk.
    suppress_health_check=list(HealthCheck),
    database=None,
    # Each example is a few HTTP round trips and a crash costs the stage
    # retries, so shrinking may take minutes: the long form shrinks, the short
    # form reports the input as drawn.
    phases=tuple(Phase) if THOROUGH else (Phase.explicit, Phase.generate),
)
#: Between tests, a fresh table of every game is played at least this often.
FRESH_EVERY_S = 20.0
JSON = {"content-type": "application/json"}
HUGE = 2**200


# The system under attack is this module's own, not the one the end-to-end tests
# share: an input that parks a dead letter must fail this module alone rather
# than every later test that asks ``/ready``, and the dead letters and failure
# counters watched here must be this module's inputs' doing. It starts in about
# three seconds and stops when the module is done.
@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "hostile-stack")


@pytest.fixture(scope="module")
def store(stack: Stack) -> Iterator[Store]:
    opened = Store(stack.redis_url or "", stack.partitions)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def referee(stack: Stack, store: Store) -> Iterator[Referee]:
    with httpx.Client(base_url=stack.api, timeout=30) as client:
        ready = Referee(stack, client, store)
        r = ready.wait_ready()
        assert r.status_code == 200, f"the stack never got ready: {r.text}"
        yield ready


@pytest.fixture(scope="module")
def targets(referee: Referee) -> Targets:
    return Targets(referee)


@pytest.fixture(scope="module")
def finished(referee: Referee) -> Table:
    """A finished table: its log, replay and audit are served, and its view never waits."""
    table = referee.open("highcard", 2, {"hand_size": 1, "deck_size": 4})
    for _ in range(10):
        if referee.view(table, None)["over"]:
            return table
        r = referee.play_legal(table)
        assert r.status_code == 200, r.text
        table.version = r.json()["version"]
    raise AssertionError("a one-card game of high card did not end")


@pytest.fixture(scope="module")
def tournament(referee: Referee) -> Tournament:
    r = referee.client.post("/v1/tournaments", json={"game": "highcard", "name": "hostile", "rounds": 3})
    assert r.status_code == 201, r.text
    doc = r.json()
    return Tournament(doc["tournament_id"], doc["organiser_token"], doc["version"])


def beyond_64_bits(value: Any) -> bool:
    """No field takes such an integer: msgpack, further down the pipeline, cannot hold it."""
    return type(value) is int and not -(2**63) <= value < 2**64


_serial = itertools.count()

COMMANDS: dict[str, dict[str, mi.StructType]] = {
    game: {s.tag: s for s in structs_in(mi.type_info(registry.get(game).command_type))} for game in GAMES
}
EVERY_TAG = sorted({tag for tags in COMMANDS.values() for tag in tags})
OPTIONS: dict[str, mi.StructType] = {game: mi.type_info(registry.get(game).options_type) for game in GAMES}
NEW_TABLE = mi.type_info(NewTable)
MOVE = mi.type_info(Move)
PLAY_MESSAGE = mi.type_info(PlayMessage)
HELLO = mi.type_info(Hello)
NEW_TOURNAMENT = mi.type_info(NewTournament)
NEW_PLAYER = mi.type_info(NewPlayer)
NEW_ACCOUNT = mi.type_info(NewAccount)
NEW_ARENA = mi.type_info(NewArena)
NEW_CASUAL = mi.type_info(NewCasual)
#: Clocks that never run out during the run: a valid-shaped opening must not
#: leave timeouts firing behind it (spoiled ones may, as any client could).
CLOCKS = st.sampled_from(
    [
        None,
        {"initial_ms": 3_600_000},
        {"initial_ms": 86_400_000, "increment_ms": 1_000, "policy": "forfeit"},
        {"per_move_ms": 3_600_000, "policy": "bot"},
    ]
)


def paths(
    t: mi.StructType, options: mi.StructType | None = None, under: str = "options"
) -> list[tuple[Path, Any]]:
    """Every field of a body, and of the game options it carries under ``under``."""
    found = list(field_paths(t))
    if options is not None:
        found += [((under, *p), ft) for p, ft in field_paths(options)]
    return found


def rotation(t: Any, i: int) -> list[Any]:
    """The sweep's values for the ``i``-th field: a 200-bit integer and one more,
    or (in the long form) every out-of-bounds value of its type."""
    values = outside(t)
    return values if THOROUGH else [HUGE, values[1 + i % (len(values) - 1)]]


def edge_rotation(t: Any, i: int) -> list[Any]:
    """In-bounds edge values for the ``i``-th field: one (in rotation), or all in the long form."""
    values = edges(t)
    return values if THOROUGH else [values[i % len(values)]]


def post(referee: Referee, url: str, body: Any, tracked: Any = None, **headers: Any) -> Any:
    what = f"POST {url} {short(body)}" + (f" headers {short(headers)}" if headers else "")
    return referee.send("POST", url, what, table=tracked, content=encode(body), headers={**JSON, **headers})


def pick_seat(targets: Targets, table: Table, awaited: bool) -> int:
    actors, others = targets.seats(table)
    return (actors if awaited or not others else others)[0]


# -- health around the attack ------------------------------------------------------


#: Tests that judge readiness and fresh tables themselves, at their end.
JUDGE_THEMSELVES = {
    "test_every_game_plays_before_the_attack",
    "test_tournaments_open_the_tables_their_options_allowed",
    "test_every_game_still_plays_after_the_attack",
}


@pytest.fixture(autouse=True)
def still_healthy(referee: Referee, request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if request.node.name in JUDGE_THEMSELVES:
        return
    when = f"after {request.node.name}"
    referee.check_ready(when)
    if time.monotonic() - getattr(referee, "fresh_at", 0.0) > FRESH_EVERY_S:
        referee.every_game_plays(when)
        referee.fresh_at = time.monotonic()  # type: ignore[attr-defined]


def test_every_game_plays_before_the_attack(referee: Referee) -> None:
    # The fixture game comes from ZIGGURAT_EXTRA_GAMES (tests/conftest.py): without it
    # the suite would quietly attack one game fewer.
    assert {"catan", "catan-ck", "conan", "highcard", "tigris", "tigris-cards"} <= set(GAMES), GAMES
    referee.every_game_plays("before the attack")
    referee.fresh_at = time.monotonic()  # type: ignore[attr-defined]


# -- table openings ---------------------------------------------------------------------


def new_table(game: str) -> st.SearchStrategy[dict[str, Any]]:
    module = registry.get(game)
    return st.fixed_dictionaries(
        {"game": st.just(game), "seats": st.integers(module.min_seats, module.max_seats)},
        optional={
            "options": valid_struct(OPTIONS[game]),
            "clock": CLOCKS,
            "spectator_delay": valid(mi.type_info(SpectatorDelay)),
        },
    )


def open_and_check(referee: Referee, store: Store, body: Any, **headers: Any) -> Any:
    opened = store.games_opened()
    r = post(referee, "/v1/tables", body, **headers)
    if not r.is_success:
        assert store.games_opened() == opened, f"a refused opening opened a table: {short(body)}"
    return r


@HOSTILE
@given(data=st.data())
def test_table_openings(referee: Referee, store: Store, data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    kind = data.draw(st.sampled_from(["spoiled"] * 5 + ["valid-shaped", "junk"]), label="kind")
    if kind == "spoiled":
        body = data.draw(spoiled(paths(NEW_TABLE, OPTIONS[game]), new_table(game)), label="body")
    else:
        body = data.draw(new_table(game) if kind == "valid-shaped" else junk, label="body")
    open_and_check(referee, store, body)


# -- commands -----------------------------------------------------------------------------


def one_of_list(items: list[Any], fallback: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """An item of ``items`` (a view's legal commands), else a draw from ``fallback``.

    The draws do not depend on ``items``: Hypothesis requires the same choices
    to follow the same prefix, and the table's state changes between examples.
    """
    return st.tuples(st.integers(0, 2**16), fallback).map(
        lambda p: items[p[0] % len(items)] if items else p[1]
    )


def game_commands(game: str, legal: list[dict[str, Any]]) -> st.SearchStrategy[Any]:
    structs = COMMANDS[game]

    def shaped(tag: str) -> st.SearchStrategy[Any]:
        return one_of_list([c for c in legal if c.get("type") == tag], valid_struct(structs[tag]))

    tags = st.sampled_from(sorted(structs))
    spoiled_one = tags.flatmap(lambda tag: spoiled(list(field_paths(structs[tag])), shaped(tag)))
    hostile_tag = st.one_of(
        st.sampled_from(EVERY_TAG),
        tags.flatmap(lambda t: st.sampled_from([t.upper(), f" {t}", f"{t}\x00", t.replace(".", ":"), t * 5])),
        hostile(mi.StrType(max_length=64)),
    )
    retagged = st.tuples(tags.flatmap(shaped), hostile_tag).map(lambda p: {**p[0], "type": p[1]})
    some_legal = one_of_list(legal, tags.flatmap(shaped))
    return st.one_of(spoiled_one, spoiled_one, spoiled_one, retagged, tags.flatmap(shaped), junk, some_legal)


def expected_versions(table: Table) -> st.SearchStrategy[Any]:
    near = st.sampled_from([table.version, max(0, table.version - 1), table.version + 1])
    return st.one_of(near, hostile(MOVE.fields[1].type))


@HOSTILE
@given(data=st.data())
def test_move_envelopes(referee: Referee, targets: Targets, data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    table = targets.live(game)
    seat = pick_seat(targets, table, data.draw(st.booleans(), label="awaited seat"))
    legal = expand(referee.view(table, seat)["legal"])
    command = one_of_list(legal, valid(mi.type_info(registry.get(game).command_type)))
    base = st.fixed_dictionaries(
        {"command": command}, optional={"expected_version": expected_versions(table)}
    )
    body = data.draw(st.one_of(spoiled(paths(MOVE), base), junk), label="body")
    post(referee, table.commands, body, table, **auth(table.tokens[seat]))


@HOSTILE
@given(data=st.data())
def test_play_connections(referee: Referee, targets: Targets, data: st.DataObject) -> None:
    """A seat's play connection (WebSocket): a hello spoiled or not, then messages
    that are commands spoiled field by field (the POST body plus the two header
    fields), junk, or bytes that are not UTF-8. Every frame back is judged as an
    HTTP answer would be, every view carried is that seat's, and the table moves
    only if a command was accepted."""
    game = data.draw(st.sampled_from(GAMES), label="game")
    table = targets.live(game)
    seat = pick_seat(targets, table, data.draw(st.booleans(), label="awaited seat"))
    token = table.tokens[seat]
    good = {"token": token}
    # Mostly the seat's own hello, so that most examples reach the commands.
    spoil_hello = data.draw(st.integers(0, 3), label="hello spoiled if 0") == 0
    hello: Any = good
    if spoil_hello:
        hello = data.draw(st.one_of(spoiled(paths(HELLO), st.just(good)), junk), label="hello")
    legal = expand(referee.view(table, seat)["legal"])
    command = one_of_list(legal, valid(mi.type_info(registry.get(game).command_type)))
    base = st.fixed_dictionaries(
        {"command": command},
        optional={
            "expected_version": expected_versions(table),
            "idempotency_key": st.uuids().map(str),
            "correlation_id": st.text(max_size=20),
        },
    )
    message = st.one_of(
        base.map(encode),
        spoiled(paths(PLAY_MESSAGE), base).map(encode),
        junk.map(encode),
        st.binary(max_size=64),
    )
    messages = data.draw(st.lists(message, min_size=1, max_size=3), label="messages")
    what = f"play {table.table_id} seat {seat} hello {short(hello)} then {short(messages)}"
    frames = referee.play(table, seat, encode(hello), messages, what)
    for frame in frames:
        answer = frame.get("answer") or {}
        event(f"{frame['type']} {answer.get('code') or answer.get('status') or ''}".strip())


@pytest.mark.parametrize("game", GAMES)
@HOSTILE
@given(data=st.data())
def test_commands_of_every_game(referee: Referee, targets: Targets, game: str, data: st.DataObject) -> None:
    table = targets.live(game)
    seat = pick_seat(targets, table, data.draw(st.booleans(), label="awaited seat"))
    legal = expand(referee.view(table, seat)["legal"])
    body: dict[str, Any] = {"command": data.draw(game_commands(game, legal), label="command")}
    if data.draw(st.booleans(), label="with expected_version"):
        body["expected_version"] = data.draw(expected_versions(table), label="expected_version")
    post(referee, table.commands, body, table, **auth(table.tokens[seat]))


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_every_command_is_refused_cleanly(
    referee: Referee, targets: Targets, game: str
) -> None:
    for tag, struct in COMMANDS[game].items():
        table = targets.live(game)
        seat = pick_seat(targets, table, True)
        legal = expand(referee.view(table, seat)["legal"])
        base = next((c for c in legal if c.get("type") == tag), None) or sample(struct)
        fields = list(field_paths(struct))
        for i, (path, t) in enumerate(fields):
            for value in rotation(t, i) + edge_rotation(t, i):
                command = spoil(base, path, "set", value)
                r = post(referee, table.commands, {"command": command}, table, **auth(table.tokens[seat]))
                if beyond_64_bits(value):
                    assert not r.is_success, f"{game}: {value} at {path} was accepted: {r.text}"
        for f in struct.fields:
            if f.required:
                post(
                    referee,
                    table.commands,
                    {"command": spoil(base, (f.encode_name,), "drop")},
                    table,
                    **auth(table.tokens[seat]),
                )
        r = post(
            referee,
            table.commands,
            {"command": {**base, "no_such_field": 1}},
            table,
            **auth(table.tokens[seat]),
        )
        assert not r.is_success, f"{game}: a command with an unknown field was accepted: {r.text}"


# -- request bodies, field by field ------------------------------------------------------------


def test_every_field_of_every_request_body_is_refused_cleanly(
    referee: Referee, store: Store, targets: Targets, tournament: Tournament
) -> None:
    problems: list[str] = []

    def sweep(
        url: str, base: dict[str, Any], fields: list[tuple[Path, Any]], check: Any, **headers: Any
    ) -> None:
        for i, (path, t) in enumerate(fields):
            try:
                for value in rotation(t, i):
                    r = check(url, spoil(base, path, "set", value), **headers)
                    if beyond_64_bits(value):
                        assert not r.is_success, f"{value} at {path} of {url} was accepted: {r.text}"
                # Nested a few hundred deep: inside what the edge decodes, and an
                # unknown field besides, which every struct a client sends forbids
                # (where the field is a list's item, the list just grows by one).
                r = check(url, spoil(base, path, "extra", nested(300)), **headers)
                if isinstance(path[-1], str):
                    assert not r.is_success, (
                        f"an unknown field next to {path} of {url} was accepted: {r.text}"
                    )
            except AssertionError as exc:
                problems.append(str(exc))

    def opening(url: str, body: Any) -> Any:
        return open_and_check(referee, store, body)

    for game in GAMES:
        base = {
            "game": game,
            "seats": registry.get(game).min_seats,
            "options": {},
            "clock": {"initial_ms": 3_600_000},
            "spectator_delay": {"moves": 1, "seconds": 0.5},
        }
        sweep("/v1/tables", base, paths(NEW_TABLE, OPTIONS[game]), opening)

    table = targets.live("highcard")

    def move(url: str, body: Any, **headers: Any) -> Any:
        return post(referee, url, body, table, **headers)

    seat = pick_seat(targets, table, True)
    legal = expand(referee.view(table, seat)["legal"])[0]
    sweep(
        table.commands,
        {"command": legal, "expected_version": table.version},
        paths(MOVE),
        move,
        **auth(table.tokens[seat]),
    )

    def creation(url: str, body: Any) -> Any:
        return create_and_check(referee, store, body)

    base = {
        "tournament_id": f"sweep-{next(_serial)}",
        "name": "sweep",
        "game": "highcard",
        "game_options": {"hand_size": 2},
        "format": "swiss",
        "seats_per_table": 2,
        "min_table_size": 2,
        "rounds": 1,
        "clock": {"initial_ms": 3_600_000},
        "points": [2, 0],
        "bye_points": 1,
        "delay": {"moves": 0, "seconds": 0.0},
        "qualifiers": 1,
    }
    sweep("/v1/tournaments", base, paths(NEW_TOURNAMENT, OPTIONS["highcard"], "game_options"), creation)

    def registration(url: str, body: Any) -> Any:
        return post(referee, url, body, tournament, **auth(tournament.organiser_token))

    player = {"name": "sweep", "kind": "bot", "bot": "random", "player_id": f"sweep-{next(_serial)}"}
    sweep(f"/v1/tournaments/{tournament.tournament_id}/players", player, paths(NEW_PLAYER), registration)

    # Player accounts, arenas and casual tables: a refusal answers 4xx and the
    # suite's referee requires no 5xx and a ready pipeline after each.
    def plain(url: str, body: Any, **headers: Any) -> Any:
        return post(referee, url, body, **headers)

    sweep("/v1/players", {"name": "sweep", "bot": True, "operator": "ops"}, paths(NEW_ACCOUNT), plain)
    account = post(referee, "/v1/players", {"name": "sweep-host"})
    assert account.status_code == 201, account.text
    host = account.json()
    key = auth(host["player_key"])
    arena = {"game": "highcard", "game_options": {"hand_size": 2}, "seats": 2, "seconds": 60}
    sweep("/v1/arenas", arena, paths(NEW_ARENA, OPTIONS["highcard"], "game_options"), plain, **key)
    casual = {
        "game": "highcard",
        "game_options": {"hand_size": 2},
        "seats": [{"player_id": host["player_id"]}, {"bot": "random"}],
        "rated": False,
    }
    sweep("/v1/casual", casual, paths(NEW_CASUAL, OPTIONS["highcard"], "game_options"), plain, **key)
    if problems:
        pytest.fail(f"{len(problems)} field(s) mishandled:\n" + "\n".join(problems), pytrace=False)


# -- tournaments ----------------------------------------------------------------------------


def create_and_check(referee: Referee, store: Store, body: Any, **headers: Any) -> Any:
    tid = body.get("tournament_id") if isinstance(body, dict) else None
    named = isinstance(tid, str) and _storable(tid)
    before, created = (store.tournament_version(tid) if named else 0), store.tournaments_created()
    r = post(referee, "/v1/tournaments", body, **headers)
    if not r.is_success:
        assert store.tournaments_created() == created, f"a refused creation created one: {short(body)}"
        if named:
            assert store.tournament_version(tid) == before, f"a refused creation wrote events: {short(body)}"
    return r


def _storable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def new_tournament(game: str) -> st.SearchStrategy[dict[str, Any]]:
    fresh_id = st.builds(lambda: f"hostile-{next(_serial)}")
    return st.tuples(valid_struct(NEW_TOURNAMENT), valid_struct(OPTIONS[game]), fresh_id, st.booleans()).map(
        lambda p: {**p[0], "game": game, "game_options": p[1], **({"tournament_id": p[2]} if p[3] else {})}
    )


@HOSTILE
@given(data=st.data())
def test_tournament_creation(referee: Referee, store: Store, data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    body = data.draw(
        st.one_of(spoiled(paths(NEW_TOURNAMENT, OPTIONS[game], "game_options"), new_tournament(game)), junk),
        label="body",
    )
    create_and_check(referee, store, body)


@HOSTILE
@given(data=st.data())
def test_tournament_registration(referee: Referee, tournament: Tournament, data: st.DataObject) -> None:
    body = data.draw(st.one_of(spoiled(paths(NEW_PLAYER), valid_struct(NEW_PLAYER)), junk), label="body")
    url = f"/v1/tournaments/{tournament.tournament_id}/players"
    post(referee, url, body, tournament, **auth(tournament.organiser_token))


# -- idempotency keys replayed with other bodies -----------------------------------------------


@HOSTILE
@given(data=st.data())
def test_replayed_idempotency_keys(
    referee: Referee, store: Store, targets: Targets, data: st.DataObject
) -> None:
    key = f"replay-{next(_serial)}-" + data.draw(
        st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40), label="key"
    )
    if data.draw(st.booleans(), label="an opening"):
        first = data.draw(new_table("highcard"), label="first")
        game = data.draw(st.sampled_from(GAMES), label="second game")
        second = data.draw(
            st.one_of(new_table(game), spoiled(paths(NEW_TABLE, OPTIONS[game]), new_table(game)))
        )
        r1 = open_and_check(referee, store, first, **{"idempotency-key": key})
        opened = store.games_opened()
        r2 = open_and_check(referee, store, second, **{"idempotency-key": key})
        if r1.is_success:
            assert store.games_opened() == opened, f"a replayed key opened a second table: {short(second)}"
            if r2.is_success:
                one, two = r1.json(), r2.json()
                assert (two["table_id"], two["game"]) == (one["table_id"], one["game"]), (
                    f"the replay of {short(first)} with {short(second)} answered {two} after {one}"
                )
        return
    game = data.draw(st.sampled_from(GAMES), label="game")
    table = targets.live(game)
    seat = pick_seat(targets, table, data.draw(st.booleans(), label="awaited seat"))
    legal = expand(referee.view(table, seat)["legal"])
    bodies = [
        {"command": data.draw(game_commands(game, legal), label=f"command {n}")} for n in ("first", "second")
    ]
    headers = {**auth(table.tokens[seat]), "idempotency-key": key}
    r1 = post(referee, table.commands, bodies[0], table, **headers)
    after_first = table.version
    r2 = post(referee, table.commands, bodies[1], table, **headers)
    if r1.is_success:
        assert table.version == after_first, (
            f"a replayed key appended {short(bodies[1])} after {short(bodies[0])}"
        )
        if r2.is_success:
            assert r2.json()["duplicate"] and r2.json()["version"] == r1.json()["version"], r2.text


def test_a_replayed_opening_key_answers_with_the_table_it_opened(referee: Referee, store: Store) -> None:
    """The same Idempotency-Key, first for high card, then for every game: the
    replay opens nothing and, if it succeeds, names the table the key opened."""
    problems = []
    for game in GAMES:
        key = {"idempotency-key": f"reopen-{next(_serial)}"}
        seats = max(registry.get(game).min_seats, registry.get("highcard").min_seats)
        first = open_and_check(referee, store, {"game": "highcard", "seats": seats}, **key)
        assert first.status_code == 201, first.text
        opened = store.games_opened()
        second = open_and_check(referee, store, {"game": game, "seats": seats}, **key)
        assert store.games_opened() == opened, f"a replayed key opened a second table for {game}"
        one, two = first.json(), second.json()
        if second.is_success and (two["table_id"], two["game"]) != (one["table_id"], one["game"]):
            problems.append(
                f"{game}: the replay answered {second.status_code} with table {two['table_id']} of game "
                f"{two['game']!r}, duplicate={two['duplicate']}; the key opened {one['table_id']} (highcard)"
            )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# -- headers, query parameters, paths, methods, raw bodies -------------------------------------

HEADER_ROUTES = {
    "idempotency-key": ["command", "open", "register", "create"],
    "x-correlation-id": ["command", "open", "register", "create", "view"],
    "authorization": ["command", "view", "feed", "register", "me"],
    "last-event-id": ["feed", "tournament-feed", "view"],
}


@HOSTILE
@given(data=st.data())
def test_hostile_headers(
    referee: Referee, store: Store, targets: Targets, tournament: Tournament, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(HEADER_ROUTES)), label="header")
    value = data.draw(header_values(), label="value")
    route = data.draw(st.sampled_from(HEADER_ROUTES[name]), label="route")
    game = data.draw(st.sampled_from(GAMES), label="game")
    table = targets.live(game)
    seat = pick_seat(targets, table, True)
    if name == "authorization":
        token = table.tokens[seat].encode()
        value = data.draw(
            st.sampled_from(
                [
                    value,
                    b"Bearer " + value,
                    b"bearer\t" + value,
                    b"Basic " + value,
                    b"Bearer " + token + value,
                    b"Bearer " + value + token,
                    b"Bearer " + targets.live("highcard").tokens[0].encode(),
                    b"Bearer",
                ]
            ),
            label="authorization",
        ).rstrip(b" \t")  # HTTP drops edge whitespace; the client refuses to send it
    sent = {name: value}
    what = f"{route} with {name}: {short(value)}"
    tid = tournament.tournament_id
    if route == "command":
        legal = expand(referee.view(table, seat)["legal"])
        headers = {**JSON, **auth(table.tokens[seat]), **sent}
        referee.send(
            "POST", table.commands, what, table=table, content=encode({"command": legal[0]}), headers=headers
        )
    elif route == "open":
        open_and_check(referee, store, {"game": "highcard", "seats": 2}, **sent)
    elif route == "create":
        create_and_check(referee, store, {"game": "highcard"}, **sent)
    elif route == "register":
        headers = {**JSON, **auth(tournament.organiser_token), **sent}
        referee.send(
            "POST",
            f"/v1/tournaments/{tid}/players",
            what,
            table=tournament,
            content=encode({"name": "h"}),
            headers=headers,
        )
    elif route == "view":
        referee.send("GET", table.view_url, what, headers=sent)
    elif route == "feed":
        referee.send("GET", f"/v1/tables/{table.table_id}/feed", what, stream=True, headers=sent)
    elif route == "me":
        referee.send("GET", f"/v1/tournaments/{tid}/me", what, headers=sent)
    else:
        referee.send("GET", f"/v1/tournaments/{tid}/feed", what, stream=True, headers=sent)


@HOSTILE
@given(data=st.data())
def test_hostile_query_parameters(
    referee: Referee, targets: Targets, finished: Table, tournament: Tournament, data: st.DataObject
) -> None:
    done, live, tid = (
        finished.table_id,
        targets.live(data.draw(st.sampled_from(GAMES))).table_id,
        tournament.tournament_id,
    )
    # A valid min_version above a live table's version waits for it (as
    # documented): views are asked of the finished table, which never waits.
    path, streamed = data.draw(
        st.sampled_from(
            [
                (f"/v1/tables/{done}/view", False),
                (f"/v1/tables/{done}/feed", True),
                (f"/v1/tables/{done}/replay", False),
                (f"/v1/tables/{done}/log", False),
                (f"/v1/tables/{done}/audit", False),
                (f"/v1/tables/{live}/feed", True),
                (f"/v1/tournaments/{tid}/feed", True),
                (f"/v1/tournaments/{tid}/standings", False),
            ]
        ),
        label="route",
    )
    names = st.sampled_from(["min_version", "after", "version", "MIN_VERSION", "after[]", "", "%ff"])
    pairs = data.draw(st.lists(st.tuples(names, query_values()), min_size=1, max_size=3), label="query")
    query = "&".join(f"{n}={v}" for n, v in pairs)
    referee.send("GET", f"{path}?{query}", f"GET {path}?{short(query)}", stream=streamed)


ID_ROUTES = [
    ("GET", "/v1/tables/{}/view"),
    ("GET", "/v1/tables/{}/feed"),
    ("GET", "/v1/tables/{}/log"),
    ("GET", "/v1/tables/{}/replay"),
    ("GET", "/v1/tables/{}/audit"),
    ("POST", "/v1/tables/{}/commands"),
    ("GET", "/v1/tournaments/{}/standings"),
    ("GET", "/v1/tournaments/{}/pairings"),
    ("GET", "/v1/tournaments/{}/log"),
    ("GET", "/v1/tournaments/{}/feed"),
    ("GET", "/v1/tournaments/{}/me"),
    ("POST", "/v1/tournaments/{}/players"),
    ("POST", "/v1/tournaments/{}/start"),
    ("POST", "/v1/tournaments/{}/players/x/withdraw"),
]


@HOSTILE
@given(data=st.data())
def test_hostile_paths_and_methods(referee: Referee, targets: Targets, data: st.DataObject) -> None:
    table = targets.live(data.draw(st.sampled_from(GAMES), label="game"))
    segment = data.draw(
        st.one_of(
            st.text(max_size=80).map(
                lambda s: urllib.parse.quote(s.encode("utf-8", "surrogatepass"), safe="")
            ),
            st.binary(max_size=60).map(lambda b: urllib.parse.quote_from_bytes(b, safe="")),
            st.sampled_from(
                ["..", ".", "%2F", "%2e%2e", "%00", "a" * 3_000, "*", "%7Bp0%7D", "zg:%7Bp0%7D:x"]
            ),
            st.sampled_from(["", "x", "%ff", "/.."]).map(lambda s: table.table_id + s),
        ),
        label="id",
    )
    method, template = data.draw(st.sampled_from(ID_ROUTES), label="route")
    method = data.draw(st.sampled_from([method, method, "PUT", "DELETE", "PATCH", "OPTIONS"]), label="method")
    url = template.format(segment)
    body = data.draw(
        st.one_of(st.just({"command": {"type": "highcard.play", "card": 1}}), junk), label="body"
    )
    streamed = method == "GET" and url.endswith("/feed")
    # A real seat token on every request: a path that reached its table would be judged.
    headers = {**JSON, **auth(table.tokens[0])}
    what = f"{method} {short(url)} {short(body)}"
    referee.send(method, url, what, table=table, stream=streamed, content=encode(body), headers=headers)


@HOSTILE
@given(data=st.data())
def test_raw_bodies(
    referee: Referee, store: Store, targets: Targets, tournament: Tournament, data: st.DataObject
) -> None:
    body = data.draw(raw_bodies, label="body")
    route = data.draw(st.sampled_from(["tables", "command", "tournaments", "players"]), label="route")
    what = f"{route}: {short(body)}"
    if route == "tables":
        opened = store.games_opened()
        r = referee.send("POST", "/v1/tables", what, content=body, headers=JSON)
        assert r.is_success or store.games_opened() == opened, what
    elif route == "tournaments":
        created = store.tournaments_created()
        r = referee.send("POST", "/v1/tournaments", what, content=body, headers=JSON)
        assert r.is_success or store.tournaments_created() == created, what
    elif route == "command":
        table = targets.live(data.draw(st.sampled_from(GAMES), label="game"))
        seat = pick_seat(targets, table, data.draw(st.booleans(), label="awaited seat"))
        headers = {**JSON, **auth(table.tokens[seat])}
        referee.send("POST", table.commands, what, table=table, content=body, headers=headers)
    else:
        headers = {**JSON, **auth(tournament.organiser_token)}
        url = f"/v1/tournaments/{tournament.tournament_id}/players"
        referee.send("POST", url, what, table=tournament, content=body, headers=headers)


# -- valid-shaped but unexpected: options at their edges -------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_every_game_at_its_edges(referee: Referee, store: Store, game: str) -> None:
    """Each option alone at every edge of its type: refused cleanly, or a table that plays.

    Options are where a value valid by type but not by content reaches a game's
    setup, so every edge is sent in both forms, and one bad option does not
    hide the others: the findings of all of them fail the test together.
    """
    module = registry.get(game)
    problems = []
    for path, t in field_paths(OPTIONS[game]):
        for value in edges(t):
            body = {"game": game, "seats": module.min_seats, "options": spoil({}, path, "set", value)}
            try:
                r = open_and_check(referee, store, body)
                if r.is_success:
                    doc = r.json()
                    table = Table(game, doc["table_id"], [s["token"] for s in doc["tokens"]], doc["version"])
                    plays_if_it_can(referee, table, f"a {game} table opened with {short(body)}")
            except AssertionError as exc:
                problems.append(str(exc))
    if problems:
        pytest.fail(f"{len(problems)} option value(s) broke {game}:\n" + "\n".join(problems), pytrace=False)


def plays_if_it_can(referee: Referee, table: Table, what: str) -> None:
    """A table that is not over awaits a seat with a legal move, and takes it."""
    spectator = referee.view(table, None)
    if spectator["over"]:
        return
    assert spectator["actors"], f"{what} awaits nobody and is not over"
    seat = spectator["actors"][0]
    mine = referee.view(table, seat)
    assert mine["legal"], f"{what} awaits seat {seat}, which has no legal move"
    body = {"command": expand(mine["legal"])[0], "expected_version": mine["version"]}
    r = post(referee, table.commands, body, table, **auth(table.tokens[seat]))
    assert r.status_code == 200, f"{what} refused its first legal move: {r.text}"


def test_tournaments_open_the_tables_their_options_allowed(referee: Referee, store: Store) -> None:
    """A creation must refuse game options the game cannot open a table with:
    once a tournament of any game accepted them, its first round opens its tables.

    Runs last but one: a round that cannot open is retried for as long as the
    tournament lives, so what it breaks stays broken for the tests after it.
    Dead letters are therefore judged once, at the end, for every game at once.
    """
    started: dict[str, tuple[str, dict[str, Any]]] = {}
    problems: list[str] = []
    with referee.dead_letters_later():
        for game in GAMES:
            options: dict[str, Any] = {}
            for i, (path, t) in enumerate(field_paths(OPTIONS[game])):
                options = spoil(options, path, "set", edges(t)[i % len(edges(t))])
            seats = registry.get(game).min_seats
            body = {"game": game, "game_options": options, "rounds": 1, "seats_per_table": seats}
            r = create_and_check(referee, store, body)
            if not r.is_success:
                continue
            tid, token = r.json()["tournament_id"], r.json()["organiser_token"]
            tournament = Tournament(tid, token, r.json()["version"])
            for n in range(seats):
                post(referee, f"/v1/tournaments/{tid}/players", {"name": f"p{n}"}, tournament, **auth(token))
            post(referee, f"/v1/tournaments/{tid}/start", {}, tournament, **auth(token))
            started[game] = (tid, body)
        deadline = time.monotonic() + 10
        for game, (tid, body) in started.items():
            try:
                first_round_opens(referee, tid, body, deadline)
            except AssertionError as exc:
                problems.append(f"{game}: {exc}")
    letters = store.dead_letters()[referee.dead_letters :]
    if letters:
        problems.append(f"dead letters:\n{describe(letters)}")
    if problems:
        referee.finding("\n".join(problems))


def first_round_opens(referee: Referee, tid: str, body: dict[str, Any], deadline: float) -> None:
    while True:
        pairings = referee.send("GET", f"/v1/tournaments/{tid}/pairings", f"pairings of {tid}").json()
        tables = [t for r in pairings["rounds"] for t in r["tables"]]
        if tables and all(t["game_id"] for t in tables):
            break
        assert time.monotonic() < deadline, f"{tid} cannot open its first round: {pairings}"
        time.sleep(0.2)
    for t in tables:
        what = f"the view of {t['game_id']}, of a tournament created with {short(body, 3_000)}"
        referee.send("GET", f"/v1/tables/{t['game_id']}/view", what)


# -- afterwards --------------------------------------------------------------------------------


def test_every_game_still_plays_after_the_attack(referee: Referee, store: Store) -> None:
    referee.every_game_plays("after the attack")
    assert store.dead_letter_count() == referee.dead_letters
    assert referee.sent > 0
