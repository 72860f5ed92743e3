"""The lease decision (shared/messaging/leases.py), alone and as reducers play it out.

The simulation applies each reducer's moves to a model of the store with the
lease script's rules: a lease is taken only when free (or under the taker's
own name), renewed or given up only by its holder; a dead reducer's leases
and heartbeat expire together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.messaging.leases import Moves, decide, fair_share


def test_fair_share_covers_every_partition() -> None:
    assert fair_share(4, 1) == 4
    assert fair_share(4, 2) == 2
    assert fair_share(5, 2) == 3
    assert fair_share(2, 3) == 1
    assert fair_share(4, 0) == 4  # nobody counted yet: the asker counts itself


def test_a_reducer_alone_takes_every_free_partition() -> None:
    moves = decide("a", 4, {}, ["a"], [])
    assert sorted(moves.acquire) == [0, 1, 2, 3]
    assert moves.renew == moves.release == moves.lost == ()


def test_it_counts_itself_among_the_live_before_its_first_heartbeat() -> None:
    moves = decide("b", 4, {0: "a", 1: "a", 2: "a", 3: "a"}, ["a"], [])
    assert moves == Moves(renew=(), acquire=(), release=(), lost=())
    assert len(decide("b", 4, {}, ["a"], []).acquire) == 2


def test_beyond_its_fair_share_it_renews_some_and_gives_up_the_rest() -> None:
    owners = dict.fromkeys(range(4), "a")
    moves = decide("a", 4, owners, ["a", "b"], [0, 1, 2, 3])
    assert len(moves.renew) == 2 and len(moves.release) == 2
    assert set(moves.renew) | set(moves.release) == {0, 1, 2, 3}
    assert moves.acquire == ()


def test_a_lease_the_store_gives_another_is_lost_and_one_expired_is_taken_again() -> None:
    moves = decide("a", 3, {0: "a", 1: "b", 2: None}, ["a", "b"], [0, 1, 2])
    assert set(moves.lost) == {1, 2}
    assert moves.renew == (0,)
    assert moves.acquire == (2,)  # expired: ours to take again, with a new token


def test_a_lease_under_its_own_name_from_an_earlier_process_is_taken_first() -> None:
    moves = decide("a", 4, {0: None, 1: None, 2: None, 3: "a"}, ["a", "b"], [])
    assert moves.acquire[0] == 3 and len(moves.acquire) == 2


def test_reducers_starting_together_try_different_partitions_first() -> None:
    live = [f"reducer-{i}" for i in range(8)]
    firsts = {frozenset(decide(node, 64, {}, live, []).acquire) for node in live}
    assert len(firsts) > 1


# ------------------------------------------------------------------- simulation


@dataclass
class Store:
    partitions: int
    owners: dict[int, str] = field(default_factory=dict)
    live: set[str] = field(default_factory=set)
    held: dict[str, set[int]] = field(default_factory=dict)

    def join(self, node: str) -> None:
        self.live.add(node)
        self.held[node] = set()

    def die(self, node: str) -> None:
        """Its process is gone: its heartbeat and leases expire."""
        self.live.discard(node)
        self.held.pop(node, None)
        self.owners = {p: o for p, o in self.owners.items() if o != node}

    def look(self, node: str) -> None:
        moves = decide(node, self.partitions, self.owners, sorted(self.live), self.held[node])
        held = self.held[node]
        held.difference_update(moves.lost)
        for p in moves.renew:
            assert self.owners.get(p) == node
        for p in moves.acquire:
            if self.owners.get(p) in (None, node):
                self.owners[p] = node
                held.add(p)
        for p in moves.release:
            assert self.owners.pop(p) == node
            held.discard(p)

    def round(self) -> None:
        for node in sorted(self.live):
            self.look(node)

    def covered(self) -> bool:
        return all(self.owners.get(p) in self.live for p in range(self.partitions))

    def fair(self) -> bool:
        share = fair_share(self.partitions, len(self.live))
        return all(len(h) <= share for h in self.held.values())


def test_two_reducers_split_four_partitions_and_one_takes_all_when_the_other_dies() -> None:
    store = Store(4)
    store.join("a")
    store.round()
    assert store.held["a"] == {0, 1, 2, 3}
    store.join("b")
    store.round()  # a gives up two; b may find them gone already or not
    store.round()
    assert len(store.held["a"]) == len(store.held["b"]) == 2 and store.covered()
    store.die("a")
    store.round()
    assert store.held["b"] == {0, 1, 2, 3}


@settings(max_examples=200, deadline=None)
@given(
    partitions=st.integers(1, 16),
    events=st.lists(st.tuples(st.booleans(), st.integers(0, 5)), min_size=1, max_size=12),
)
def test_any_joins_and_deaths_settle_covered_and_fair_within_two_rounds(
    partitions: int, events: list[tuple[bool, int]]
) -> None:
    store = Store(partitions)
    store.join("r0")
    for joins, who in events:
        node = f"r{who}"
        if joins and node not in store.live:
            store.join(node)
        elif not joins and node in store.live and len(store.live) > 1:
            store.die(node)
        store.round()
        store.round()
        assert store.covered(), store
        assert store.fair(), store
        assert all(store.owners[p] in store.live for p in store.owners)
        claimed = [p for h in store.held.values() for p in h]
        assert len(claimed) == len(set(claimed)), "a partition held twice"
