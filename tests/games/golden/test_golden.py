"""Recorded games must keep replaying to the same result and views, forever."""

from pathlib import Path

import msgspec
import pytest

from shared.games import registry
from shared.kernel.codec import codec_for
from tests.games.golden.record import Golden, laid_out

FILES = sorted(Path(__file__).parent.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_recorded_game_replays_to_the_recorded_outcome(path: Path) -> None:
    golden = msgspec.json.decode(path.read_bytes(), type=Golden)
    game = registry.get(golden.game)
    codec = codec_for(game)
    state = game.fold(codec.event_from_json(bytes(raw)) for raw in golden.events)
    enc = msgspec.json.encode
    assert msgspec.json.decode(enc(game.result(state))) == msgspec.json.decode(bytes(golden.result))
    for audience, view in golden.views.items():
        seat = None if audience == "None" else int(audience)
        assert msgspec.json.decode(enc(game.view(state, seat))) == msgspec.json.decode(bytes(view)), audience


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_recorded_game_is_laid_out_one_event_per_line(path: Path) -> None:
    # A hand edit or another writer would make the next re-record's diff unreadable.
    recorded = path.read_bytes()
    assert laid_out(msgspec.json.decode(recorded, type=Golden)) == recorded


def test_every_hosted_game_has_a_golden_record() -> None:
    assert {p.stem for p in FILES} >= set(registry.available())
