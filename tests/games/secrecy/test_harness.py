"""The secrecy checks catch what they are for: each test breaks a sound game in
one place (a view, an event's audience, a shadow, a declared secret) and
requires the harness to fail."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from shared.games import registry
from shared.games.catan import CATAN_CK
from shared.games.catan import commands as cmd
from shared.games.catan import events as cev
from shared.games.tigris import GAME as TIGRIS
from shared.kernel.contract import Secrets
from shared.kernel.playout import play
from shared.kernel.visibility import PUBLIC, Audience, Visibility
from tests.games.catan.helpers import fresh, gain, given, hold, when
from tests.games.secrecy import harness
from tests.support import highcard
from tests.support.highcard import GAME as HIGHCARD

SEED = b"\x05" * 32
Game = Any


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Put a broken variant in the registry (the projector looks games up by key) for one test."""

    def put(game: Game, key: str) -> Game:
        variant = dataclasses.replace(game, key=key)
        monkeypatch.setitem(registry._loaded, key, variant)
        return variant

    yield put


def test_the_sound_fixture_game_passes(register: Any) -> None:
    game = register(HIGHCARD, "highcard-copy")
    harness.check_game(game, 3, SEED)
    assert harness.check_ids(game, play(game, 3, SEED), SEED)


def test_a_view_that_shows_a_sum_of_another_hand_is_caught(register: Any) -> None:
    def view(state: highcard.State, audience: Audience) -> highcard.SeatView:
        shown = highcard.view(state, audience)
        return msgspec.structs.replace(shown, hand_sizes=tuple(sum(h) for h in state.hands))

    game = register(dataclasses.replace(HIGHCARD, view=view), "highcard-leaky-view")
    with pytest.raises(harness.Leak, match="view depends on what seat"):
        harness.check_game(game, 3, SEED)


def test_a_view_that_shows_the_next_card_of_the_deck_is_caught(register: Any) -> None:
    def view(state: highcard.State, audience: Audience) -> highcard.SeatView:
        shown = highcard.view(state, audience)
        return msgspec.structs.replace(shown, tricks=(*shown.tricks, *state.deck[:1]))

    game = register(dataclasses.replace(HIGHCARD, view=view), "highcard-leaky-deck")
    with pytest.raises(harness.Leak, match="what no seat may see"):
        harness.check_game(game, 3, SEED)


def test_a_public_event_that_depends_on_a_hidden_hand_is_caught(register: Any) -> None:
    def decide(state: highcard.State, seat: int, command: highcard.Play, rng: Any) -> list[Any]:
        events = highcard.decide(state, seat, command, rng)
        after = HIGHCARD.fold(events, state)
        nxt = after.to_play
        # A "count" that is in truth the next seat's best card.
        return [*events, highcard.DealtCount(seat=nxt, count=max(after.hands[nxt], default=0))]

    game = register(dataclasses.replace(HIGHCARD, decide=decide), "highcard-leaky-feed")
    with pytest.raises(harness.Leak, match="feed parts"):
        harness.check_game(game, 3, SEED)


def test_a_private_deal_made_public_is_caught_by_the_ids(register: Any) -> None:
    def visibility(event: Any) -> Visibility:
        return PUBLIC if isinstance(event, highcard.Dealt) else highcard.visibility(event)

    game = register(dataclasses.replace(HIGHCARD, visibility=visibility), "highcard-leaky-deal")
    with pytest.raises(harness.Leak, match=r"is sent \['card:"):
        harness.check_ids(game, play(game, 3, SEED), SEED)


def test_a_face_down_choice_in_a_public_event_is_caught(register: Any) -> None:
    """The Commercial Harbor's face-down resource, were it public again."""

    def visibility(event: Any) -> Visibility:
        return PUBLIC if isinstance(event, cev.HarborOffered) else CATAN_CK.visibility(event)

    game = register(dataclasses.replace(CATAN_CK, visibility=visibility), "catan-leaky-harbor")
    state = given(fresh(), gain(0, brick=1, ore=1), gain(1, cloth=1))
    state, _ = when(hold(state, 0, "commercial_harbor"), 0, cmd.PlayProgress(card="commercial_harbor"))
    world = harness.World(game, state, 100)
    assert harness.check_choices(dataclasses.replace(world, game=CATAN_CK), SEED, per_kind=6)
    with pytest.raises(harness.Leak, match="harbor_offered"):
        harness.check_choices(world, SEED, per_kind=6)


def test_a_reveal_the_game_does_not_declare_is_caught(register: Any) -> None:
    """Tigris without its ``reveals``: a seat's draw differs between the worlds."""
    secrets = dataclasses.replace(TIGRIS.secrets, reveals=lambda event, audience: False)
    game = register(dataclasses.replace(TIGRIS, secrets=secrets), "tigris-undeclared")
    with pytest.raises(harness.Leak, match="tiles_drawn"):
        harness.check_game(game, 2, SEED, count=6, steps=8)


def test_a_conceal_that_varies_nothing_is_caught(register: Any) -> None:
    secrets: Secrets[Any, Any] = Secrets(conceal=lambda state, owner, rng: state, reveals=highcard.reveals)
    game = register(dataclasses.replace(HIGHCARD, secrets=secrets), "highcard-lazy")
    with pytest.raises(AssertionError, match="conceal never varied"):
        harness.check_game(game, 3, SEED)


def test_a_conceal_that_changes_a_public_fact_is_caught(register: Any) -> None:
    def conceal(state: highcard.State, owner: Audience, rng: Any) -> highcard.State:
        varied = highcard.conceal(state, owner, rng)
        return msgspec.structs.replace(varied, tricks=tuple(t + 1 for t in varied.tricks))

    secrets = dataclasses.replace(HIGHCARD.secrets, conceal=conceal)
    game = register(dataclasses.replace(HIGHCARD, secrets=secrets), "highcard-loud")
    with pytest.raises(harness.Leak, match="the spectator's view"):
        harness.check_game(game, 3, SEED)
