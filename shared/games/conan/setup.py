"""Setup (docs/rules/conan.md §3): kingdoms, objectives, hands, Conan and the adventure deck,
artifacts, the fate pool, then the opening bid for Conan."""

from __future__ import annotations

from shared.games.conan import events as ev
from shared.games.conan.content import FATE_FACES, Pack
from shared.games.conan.evolve import evolve
from shared.games.conan.options import Options
from shared.games.conan.rules.adventure import reveal_next
from shared.games.conan.rules.bidding import start_bidding
from shared.games.conan.rules.board import ConanFold
from shared.games.conan.rules.cards import draw
from shared.games.conan.rules.turn import roll_pool
from shared.kernel.rng import Rng


def kingdoms_for(pack: Pack, options: Options, seats: int) -> tuple[str, ...]:
    setups = pack.header.setups
    if options.recommended_kingdoms:
        return setups[seats]
    return setups[max(setups)][:seats]


def create(pack: Pack, options: Options, seats: int, rng: Rng) -> list[ev.AnyEvent]:
    unknown = set(options.fate_faces) - set(FATE_FACES)
    if unknown or seats not in pack.header.setups:
        raise ValueError(
            f"bad options: fate faces {sorted(unknown)}, or no setup for {seats} seats in the pack"
        )
    kingdoms = kingdoms_for(pack, options, seats)
    zones = tuple(sorted({*pack.header.always_in_play, *(pack.kingdoms[k].zone for k in kingdoms)}))
    started = ev.Started(seats=seats, options=options, kingdoms=kingdoms, zones=zones)
    fold = ConanFold(pack, evolve(pack, None, started), rng)
    _kingdoms(fold, kingdoms)
    fold.emit(ev.DeckShuffled(deck="objectives", order=tuple(rng.shuffled(sorted(pack.objectives)))))
    for _ in range(seats):
        fold.emit(ev.ObjectiveDrawn(objective=fold.state.objective_deck[0]))
    fold.emit(ev.DeckShuffled(deck="strategy", order=tuple(rng.shuffled(sorted(pack.strategy_deck())))))
    for seat in range(seats):
        draw(fold, seat, "kingdom", pack.header.starting_hand["kingdom"])
        draw(fold, seat, "strategy", pack.header.starting_hand["strategy"])
    fold.emit(ev.DeckShuffled(deck="adventure", order=tuple(rng.shuffled(sorted(pack.adventures)))))
    fold.emit(ev.TokensShuffled(order=tuple(rng.shuffled(range(len(pack.tokens))))))
    fold.emit(ev.AgeStarted(age=1))
    reveal_next(fold)
    _artifacts(fold, seats)
    roll_pool(fold)
    start_bidding(fold)
    return [started, *fold.events]


def _kingdoms(fold: ConanFold, kingdoms: tuple[str, ...]) -> None:
    pack = fold.pack
    tokens = tuple(sorted(pack.header.bidding_tokens))
    for seat, kid in enumerate(kingdoms):
        k = pack.kingdoms[kid]
        order = tuple(fold.rng.shuffled(sorted(pack.kingdom_deck(kid))))
        fold.emit(
            ev.DeckShuffled(deck="kingdom", order=order, seat=seat),
            ev.ResourcesChanged(seat=seat, reason="setup", gold=k.start_gold, sorcery=k.start_sorcery),
            ev.UnitsChanged(seat=seat, province=k.home, delta=k.start_units),
            ev.EmissariesChanged(seat=seat, province=k.home, delta=k.start_emissaries),
            ev.BidTokensSet(seat=seat, available=tokens, spent=()),
        )


def _artifacts(fold: ConanFold, seats: int) -> None:
    # The bonus card joins the deal only at four players (§3); with two, one
    # artifact stays out for Age I.
    cards = sorted(fold.pack.artifacts)
    if seats >= 4:
        cards.append(fold.pack.bonus.id)
    dealt = fold.rng.shuffled(cards)
    for seat in range(seats):
        if seat >= len(dealt):
            break
        card = dealt[seat]
        bonus = card == fold.pack.bonus.id
        fold.emit(ev.ArtifactsSet(seat=seat, artifacts=() if bonus else (card,), bonus=bonus))
