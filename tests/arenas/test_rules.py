"""Arenas: the pure rules keep every player in one place, seat full tables first come
first served, queue players again after their table, and stop at the window's end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.arenas import codes
from shared.arenas.commands import MAX_BOTS, ArenaCommandUnion, Close, Create, Join, Leave, Pair, Score
from shared.arenas.events import Paired
from shared.arenas.rules import MAX_MEMBERS, decide, evolve
from shared.arenas.standings import arena_view
from shared.arenas.state import ArenaState, bot_levels, playing
from shared.infra.settings import Settings
from shared.kernel.levels import Level
from shared.kernel.rejection import RuleViolation
from shared.tournaments.commands import Placing

PLAYERS = [f"p{i}" for i in range(7)]
END = 1_000


def run(state: ArenaState | None, command: ArenaCommandUnion) -> ArenaState | None:
    for event in decide(state, command):
        state = evolve(state, event)
    return state


def created(seats: int = 2) -> ArenaState:
    state = run(None, Create(arena_id="a", game="highcard", seats=seats, starts_at_ms=0, ends_at_ms=END))
    assert state is not None
    return state


def finish(state: ArenaState, table_id: str, at: int) -> ArenaState:
    table = next(t for t in state.tables if t.table_id == table_id)
    placings = tuple(Placing(seat=s, player_id=p, place=s + 1, score=0) for s, p in enumerate(table.players))
    out = run(state, Score(table_id=table_id, placings=placings, at_ms=at))
    assert out is not None
    return out


@st.composite
def steps(draw: st.DrawFn) -> list[tuple[str, str, int]]:
    kinds = st.sampled_from(["join", "leave", "pair", "finish", "close"])
    return [
        (draw(kinds), draw(st.sampled_from(PLAYERS)), draw(st.integers(0, END + 100)))
        for _ in range(draw(st.integers(0, 40)))
    ]


def played(state: ArenaState, plan: list[tuple[str, str, int]]) -> Iterator[tuple[ArenaState, int]]:
    """The states a plan's steps lead to, in time order, each with its step's
    time: a refused command is skipped, a finish scores the oldest live table."""
    for kind, pid, at in sorted(plan, key=lambda s: s[2]):
        if kind == "finish":
            live = [t for t in state.tables if t.placings is None]
            if live:
                state = finish(state, live[0].table_id, at)
                yield state, at
            continue
        commands: dict[str, ArenaCommandUnion] = {
            "join": Join(player_id=pid, at_ms=at),
            "leave": Leave(player_id=pid, at_ms=at),
            "pair": Pair(at_ms=at),
            "close": Close(at_ms=at),
        }
        try:
            after = run(state, commands[kind])
        except RuleViolation:
            continue
        assert after is not None
        state = after
        yield state, at


@given(st.integers(2, 4), steps())
def test_every_player_is_in_one_place_and_tables_are_full(
    seats: int, plan: list[tuple[str, str, int]]
) -> None:
    state = created(seats)
    for step, _ in played(state, plan):
        state = step
        busy = [p for t in state.tables if t.placings is None for p in t.players]
        assert len(busy) == len(set(busy)), "a player at two live tables"
        assert not set(state.waiting) & set(busy), "a player waiting while playing"
        assert len(state.waiting) == len(set(state.waiting))
        assert all(len(t.players) == seats for t in state.tables)
        if state.status == "closed":
            assert state.waiting == ()
    view = arena_view(state)
    scored = [t for t in state.tables if t.placings is not None]
    assert sum(line.games for line in view.lines) == seats * len(scored)
    assert [line.rank for line in view.lines] == list(range(1, len(view.lines) + 1))


def test_waiting_players_are_seated_first_come_and_queue_again_after_their_table() -> None:
    state = created(2)
    for i, pid in enumerate(["p1", "p2", "p3"]):
        state = run(state, Join(player_id=pid, at_ms=i))  # type: ignore[assignment]
    state = run(state, Pair(at_ms=5))  # type: ignore[assignment]
    assert [t.players for t in state.tables] == [("p1", "p2")] and state.waiting == ("p3",)
    state = finish(state, "a-g1", 6)
    assert state.waiting == ("p3", "p1", "p2")
    state = run(state, Leave(player_id="p3", at_ms=7))  # type: ignore[assignment]
    state = run(state, Pair(at_ms=8))  # type: ignore[assignment]
    assert state.tables[-1].table_id == "a-g2" and state.tables[-1].players == ("p1", "p2")
    # Leaving mid-table: not queued again when it ends.
    state = run(state, Leave(player_id="p1", at_ms=9))  # type: ignore[assignment]
    state = finish(state, "a-g2", 10)
    assert state.waiting == ("p2",)
    assert playing(state) == set()


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Join(player_id="p1", at_ms=END), codes.CLOSED),
        (Leave(player_id="nobody", at_ms=1), codes.NOT_IN),
        (Close(at_ms=END - 1), codes.INVALID_ARENA),
        (Score(table_id="a-g9", placings=(), at_ms=1), codes.UNKNOWN_TABLE),
    ],
)
def test_refusals_have_stable_codes(command: ArenaCommandUnion, code: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        decide(created(), command)
    assert refused.value.code == code


def test_a_table_scored_twice_the_same_way_changes_nothing_and_otherwise_conflicts() -> None:
    state = created(2)
    for pid in ("p1", "p2"):
        state = run(state, Join(player_id=pid, at_ms=1))  # type: ignore[assignment]
    state = run(state, Pair(at_ms=2))  # type: ignore[assignment]
    state = finish(state, "a-g1", 3)
    same = tuple(Placing(seat=s, player_id=p, place=s + 1, score=0) for s, p in enumerate(("p1", "p2")))
    assert decide(state, Score(table_id="a-g1", placings=same, at_ms=4)) == []
    other = tuple(Placing(seat=s, player_id=p, place=2 - s, score=0) for s, p in enumerate(("p1", "p2")))
    with pytest.raises(RuleViolation) as refused:
        decide(state, Score(table_id="a-g1", placings=other, at_ms=4))
    assert refused.value.code == codes.RESULT_CONFLICT
    assert decide(state, Pair(at_ms=END)) == []  # the window is over: nobody is seated


def test_an_arena_takes_at_most_its_members_and_a_member_may_always_come_back() -> None:
    state: ArenaState | None = created()
    bound = 3
    for pid in PLAYERS[:bound]:
        state = evolve(state, decide(state, Join(player_id=pid, at_ms=1), max_members=bound)[0])
    assert state is not None
    with pytest.raises(RuleViolation) as full:
        decide(state, Join(player_id=PLAYERS[bound], at_ms=2), max_members=bound)
    assert (full.value.code, full.value.details) == (codes.FULL, {"limit": bound, "of": "players"})
    # Leaving frees no place (every member stays on the leaderboard), and a member
    # who left joins again.
    state = evolve(state, decide(state, Leave(player_id=PLAYERS[0], at_ms=3))[0])
    with pytest.raises(RuleViolation):
        decide(state, Join(player_id=PLAYERS[bound], at_ms=4), max_members=bound)
    back = decide(state, Join(player_id=PLAYERS[0], at_ms=5), max_members=bound)
    assert [type(e).__name__ for e in back] == ["Joined"]


def test_the_default_member_bound_is_the_setting_default() -> None:
    assert Settings().max_arena_members == MAX_MEMBERS
    state: ArenaState | None = created()
    for i in range(MAX_MEMBERS):
        state = evolve(state, decide(state, Join(player_id=f"m{i}", at_ms=1))[0])
    assert state is not None
    with pytest.raises(RuleViolation) as full:
        decide(state, Join(player_id="one-more", at_ms=1))
    assert full.value.code == codes.FULL


def test_an_arena_plays_at_most_its_tables_then_seats_and_admits_nobody() -> None:
    state: ArenaState | None = created()
    bound = 2
    for pid in PLAYERS[:6]:
        state = run(state, Join(player_id=pid, at_ms=1))
    assert state is not None
    [paired] = decide(state, Pair(at_ms=2), max_tables=bound)
    assert isinstance(paired, Paired) and len(paired.tables) == bound
    state = evolve(state, paired)
    assert len(state.waiting) == 2, "the third table's players wait"
    assert decide(state, Pair(at_ms=3), max_tables=bound) == []
    with pytest.raises(RuleViolation) as full:
        decide(state, Join(player_id=PLAYERS[6], at_ms=4), max_tables=bound)
    assert (full.value.code, full.value.details) == (codes.FULL, {"limit": bound, "of": "tables"})
    # The tables already seated still finish and score.
    state = finish(state, state.tables[0].table_id, 5)
    assert decide(state, Pair(at_ms=6), max_tables=bound) == []


# -- bot entrants (issue 25) -------------------------------------------------------------------


def with_bots(seats: int, bots: tuple[Level, ...]) -> ArenaState:
    command = Create(arena_id="a", game="tigris", seats=seats, starts_at_ms=0, ends_at_ms=END, bots=bots)
    state = run(None, command)
    assert state is not None
    return state


def test_bot_entrants_wait_from_the_start_at_their_levels_and_are_on_the_leaderboard() -> None:
    state = with_bots(2, ("hard", "easy"))
    assert state.waiting == state.members == ("bot:1", "bot:2")
    assert bot_levels(state) == {"bot:1": "hard", "bot:2": "easy"}
    # Two bots alone are never seated: nobody would watch their table.
    assert decide(state, Pair(at_ms=1)) == []
    state = run(state, Join(player_id="p1", at_ms=2))  # type: ignore[assignment]
    state = run(state, Pair(at_ms=3))  # type: ignore[assignment]
    assert [t.players for t in state.tables] == [("bot:1", "p1")] and state.waiting == ("bot:2",)
    state = finish(state, "a-g1", 4)
    # Everyone queues again after the table, the bot too.
    assert state.waiting == ("bot:2", "bot:1", "p1")
    levels_shown = {line.player_id: line.level for line in arena_view(state).lines}
    assert levels_shown == {"bot:1": "hard", "bot:2": "easy", "p1": None}


def test_an_arena_without_bots_is_seated_as_before() -> None:
    state = with_bots(3, ())
    for i, pid in enumerate(PLAYERS):
        state = run(state, Join(player_id=pid, at_ms=i))  # type: ignore[assignment]
    state = run(state, Pair(at_ms=10))  # type: ignore[assignment]
    assert [t.players for t in state.tables] == [tuple(PLAYERS[0:3]), tuple(PLAYERS[3:6])]
    assert state.bots == ()


@pytest.mark.parametrize("bots", [("hard",) * (MAX_BOTS + 1), ("superhard",)])
def test_an_arena_refuses_too_many_bots_or_a_level_that_is_none(bots: tuple[Level, ...]) -> None:
    with pytest.raises(RuleViolation) as refused:
        with_bots(2, bots)
    assert refused.value.code == codes.INVALID_ARENA


@given(
    st.integers(2, 4),
    st.lists(st.sampled_from(["easy", "medium", "hard"]), max_size=MAX_BOTS),
    steps(),
)
def test_with_bots_every_table_is_full_has_a_person_and_everyone_is_in_one_place(
    seats: int, bots: list[Level], plan: list[tuple[str, str, int]]
) -> None:
    for state, at in played(with_bots(seats, tuple(bots)), plan):
        entrants = bot_levels(state)
        for t in state.tables:
            assert len(t.players) == seats, "a table not full"
            assert any(p not in entrants for p in t.players), "a table of bots alone"
        busy = [p for t in state.tables if t.placings is None for p in t.players]
        assert len(busy) == len(set(busy)), "a player at two live tables"
        assert not set(busy) & set(state.waiting), "a player waiting and playing"
        people = [p for p in state.waiting if p not in entrants]
        if state.status == "open" and at < END and people and len(state.waiting) >= seats:
            assert decide(state, Pair(at_ms=at)) != [], "a person waits beside a full table's players"
