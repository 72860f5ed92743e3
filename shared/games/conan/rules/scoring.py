"""Income, objectives, artifacts by secret category (docs/rules/conan.md §11),
and final scoring (§12)."""

from __future__ import annotations

from shared.games.conan import events as ev
from shared.games.conan.content import CATEGORIES, Objective, Pack
from shared.games.conan.rules.adventure import category_total, tally
from shared.games.conan.rules.board import (
    ConanFold,
    active_seats,
    clockwise,
    emissaries_on_map,
    in_play,
    units_on_map,
)
from shared.games.conan.state import NEUTRAL, State
from shared.kernel.contract import Standing


def ep_loss(state: State, seat: int, amount: int) -> int:
    """EP actually lost: all of it, or down to zero when negatives are off."""
    return amount if state.options.negative_ep else min(amount, max(0, state.seats[seat].ep))


def markers(pack: Pack, state: State, seat: int, kind: str | None = None) -> list[str]:
    return [
        p.id
        for i, p in enumerate(pack.provinces)
        if state.provinces[i].owner == seat
        and in_play(pack, state, p.id)
        and kind in (None, state.provinces[i].marker)
    ]


def income(fold: ConanFold, seat: int, flat: bool) -> None:
    rates = fold.pack.header.age_change_income
    gold = (rates["flat"] if flat else 0) + rates["per_tower"] * len(
        markers(fold.pack, fold.state, seat, "tower")
    )
    gold += rates["per_city"] * len(markers(fold.pack, fold.state, seat, "city"))
    if gold:
        fold.emit(ev.ResourcesChanged(seat=seat, reason="income", gold=gold))


def meets(pack: Pack, state: State, seat: int, objective: Objective) -> bool:
    c = objective.condition
    s = state.seats[seat]
    value = {
        "forts_at_least": lambda: len(markers(pack, state, seat, "fort")),
        "towers_at_least": lambda: len(markers(pack, state, seat, "tower")),
        "cities_at_least": lambda: len(markers(pack, state, seat, "city")),
        "gold_at_least": lambda: s.gold,
        "crom_at_least": lambda: s.crom,
        "provinces_at_least": lambda: len(markers(pack, state, seat)),
        "units_at_least": lambda: units_on_map(state, seat),
        "emissaries_at_least": lambda: emissaries_on_map(state, seat),
        "provinces_in_region_at_least": lambda: sum(
            pack.province(p).region == c.region for p in markers(pack, state, seat)
        ),
        "adventure_tokens_at_least": lambda: len(s.tokens),
        "sorcery_at_least": lambda: s.sorcery,
    }[c.type]()
    return value >= c.n


def objectives(fold: ConanFold) -> None:
    for oid in fold.state.objectives:
        obj = fold.pack.objectives[oid]
        winners = tuple(s for s in active_seats(fold.state) if meets(fold.pack, fold.state, s, obj))
        if not winners:
            continue
        for s in winners:
            fold.emit(ev.ResourcesChanged(seat=s, reason="objective", ep=obj.ep))
        fold.emit(ev.ObjectiveMet(objective=oid, seats=winners))
        if fold.state.options.replace_objectives and fold.state.objective_deck:
            fold.emit(ev.ObjectiveDrawn(objective=fold.state.objective_deck[0]))


def assign_artifacts(fold: ConanFold) -> None:
    """Step 5: reveal the secret choices; the sole leader of a category takes
    its artifact, the fewest EP takes the bonus card."""
    pack = fold.pack
    state = fold.state
    totals: dict[str, dict[int, int]] = {c: {} for c in CATEGORIES}
    for seat in active_seats(state):
        category = state.seats[seat].sealed_category
        values = category_total(pack, state, seat, category)
        fold.emit(ev.TokensRevealed(seat=seat, category=category, values=values))
        totals[category][seat] = tally(state, values)
    held: dict[int, list[str]] = {s: [] for s in range(len(state.seats))}
    for art in fold.pack.artifacts.values():
        lead = _sole_leader(totals[art.category])
        if lead is not None:
            held[lead].append(art.id)
    bonus = _bonus_holder(fold)
    for seat in range(len(state.seats)):
        fold.emit(ev.ArtifactsSet(seat=seat, artifacts=tuple(sorted(held[seat])), bonus=seat == bonus))


def _sole_leader(totals: dict[int, int]) -> int | None:
    if not totals:
        return None
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    return leaders[0] if len(leaders) == 1 and best > 0 else None


def _bonus_holder(fold: ConanFold) -> int | None:
    """Fewest EP, then fewest adventure tokens (count), then the
    ``bonus_last_tiebreak`` option (docs/rules/conan.md §11 step 5)."""
    state = fold.state
    if len(state.seats) < 4 and not state.options.bonus_card_small_games:
        return None
    seats = clockwise(state, state.first_player)
    best = min((state.seats[s].ep, len(state.seats[s].tokens)) for s in seats)
    tied = [s for s in seats if (state.seats[s].ep, len(state.seats[s].tokens)) == best]
    match state.options.bonus_last_tiebreak:
        case _ if len(tied) == 1:
            return tied[0]
        case "random":
            return fold.rng.choice(sorted(tied))
        case "nobody":
            return None
    return tied[0]


def _award(
    fold: ConanFold, values: dict[int, int], sole: int, tied: int, reason: str, only: int = NEUTRAL
) -> None:
    if not values:
        return
    best = max(values.values())
    leaders = [s for s, v in values.items() if v == best]
    if best <= 0:
        return
    for s in leaders:
        if only == NEUTRAL or s == only:
            fold.emit(ev.ResourcesChanged(seat=s, reason=reason, ep=sole if len(leaders) == 1 else tied))


def final_marker_ep(pack: Pack, state: State) -> tuple[int, int]:
    """EP per fort and per city at the end: the seed names the step but no
    amount, so the content pack carries it (0 in the bundled pack) and the
    options may override it (docs/rules/conan.md §12)."""
    header = pack.header
    fort, city = state.options.ep_per_fort, state.options.ep_per_city
    return (
        header.final_ep_per_fort if fort is None else fort,
        header.final_ep_per_city if city is None else city,
    )


def final(fold: ConanFold) -> None:
    pack = fold.pack
    state = fold.state
    alive = active_seats(state)
    per_fort, per_city = final_marker_ep(pack, state)
    for s in alive:
        forts, cities = len(markers(pack, state, s, "fort")), len(markers(pack, state, s, "city"))
        ep = forts * per_fort + cities * per_city
        if ep:
            fold.emit(ev.ResourcesChanged(seat=s, reason="final_markers", ep=ep))
        income(fold, s, flat=fold.state.options.final_flat_income)
    objectives(fold)
    _award(fold, {s: fold.state.seats[s].gold for s in alive}, 3, 1, "richest")
    _award(fold, {s: fold.state.seats[s].crom for s in alive}, 3, 1, "crom")
    for category in CATEGORIES:
        values = {s: tally(fold.state, category_total(fold.pack, fold.state, s, category)) for s in alive}
        _award(fold, values, 5, 2, f"majority_{category}", only=fold.state.crowned)
    fold.emit(ev.GameEnded(standings=standings(fold.state), reason="age_three_complete"))


def standings(state: State) -> tuple[Standing, ...]:
    alive = active_seats(state)
    order = clockwise(state, state.first_player)
    by_seat = state.options.final_last_tiebreak == "first_player"

    def key(s: int) -> tuple[int, ...]:
        rank = (-order.index(s),) if by_seat and s in order else ()
        return (state.seats[s].ep, len(state.seats[s].tokens), *rank)

    out = []
    for s in sorted(range(len(state.seats)), key=lambda s: (s not in alive, [-k for k in key(s)], s)):
        if s in alive:
            place = 1 + sum(key(o) > key(s) for o in alive)
        else:
            place = len(alive) + 1  # killed by Conan: out of the scoring
        out.append(Standing(seat=s, place=place, score=state.seats[s].ep, tiebreak=key(s)[1:]))
    return tuple(out)
