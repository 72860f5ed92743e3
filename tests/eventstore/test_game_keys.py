"""``kept_game_keys``: a game's keys built once and shared by the stages, so every
stage must get exactly the keys it would have built, and another partition's or
another game's never."""

from __future__ import annotations

from shared.eventstore.keys import GameKeys, kept_game_keys

FIELDS = ("game_id", "partition", "events", "commands", "dedup", "meta", "snapshot", "feed", "auth")


def test_the_shared_keys_are_the_keys_built_and_built_once() -> None:
    shared = kept_game_keys("t0123456789abcdef0123", 3)
    built = GameKeys("t0123456789abcdef0123", 3)
    assert all(getattr(shared, f) == getattr(built, f) for f in FIELDS)
    assert shared.view("seat1") == built.view("seat1") and shared.event_id(7) == built.event_id(7)
    assert kept_game_keys("t0123456789abcdef0123", 3) is shared
    other_partition = kept_game_keys("t0123456789abcdef0123", 2)
    other_game = kept_game_keys("t0123456789abcdef0124", 3)
    assert other_partition.events != shared.events and other_partition.partition == 2
    assert other_game.events != shared.events and other_game.game_id.endswith("0124")
