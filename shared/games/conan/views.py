"""Views per audience and the visibility of every event.

Canonical: sorted tuples, no sets, so equal information encodes to identical
bytes. A seat sees its own hand, tokens and sealed choices; everyone sees the
board, counts, and that a sealed choice was made, never its content.

Every view also carries what a client needs to draw the table without a copy
of the content pack: the facts of the cards, adventure and objectives the view
itself names (``cards``, as data the client words in its own language), so it
tells nothing the view does not already hold; and the map by reference. The
map (``Board``: each province's printed facts, its outline and anchor from the
pack's ``layout.yaml``, the kingdoms' colours, and the pack's words in every
language it has, keyed by id) is public and a function of the pack alone,
the same in every view and every history entry of every table that plays it,
and larger than the rest of a view: the gateway serves
it once per pack (``GET /v1/games/conan/packs/{pack}/board``: the game's
:func:`board_asset`, through the contract's ``assets``) and a view names it by
``board_digest``, a hash of exactly the bytes served.
"""

from __future__ import annotations

import functools
import hashlib
from typing import assert_never

import msgspec

from shared.games.conan import events as ev
from shared.games.conan.content import (
    Artifact,
    Condition,
    Effect,
    KingdomCard,
    Objective,
    Pack,
    PackWords,
    ProvinceLayout,
    StrategyCard,
)
from shared.games.conan.rules.adventure import age_deck_left
from shared.games.conan.state import (
    AnyPhase,
    Bid,
    Bidding,
    Contest,
    ProvinceState,
    SeatState,
    State,
    TableCard,
)
from shared.kernel.contract import Asset
from shared.kernel.messages import Record
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Audience, Visibility, by_type, seat_only


class SeatPublic(Record, frozen=True):
    kingdom: str
    gold: int
    sorcery: int
    ep: int
    crom: int
    strategy_cards: int
    kingdom_cards: int
    kingdom_deck: int
    kingdom_discard: tuple[str, ...]
    table: tuple[TableCard, ...]
    bid_available: tuple[int, ...]
    bid_spent: tuple[int, ...]
    adventure_tokens: int
    token_pending: bool
    artifacts: tuple[str, ...]
    bonus: bool
    dead: bool
    bid_placed: bool
    contest_card_committed: bool
    category_chosen: bool


class Private(Record, frozen=True):
    strategy_hand: tuple[str, ...]
    kingdom_hand: tuple[str, ...]
    tokens: tuple[tuple[str, int], ...]
    pending_token: tuple[str, int] | None
    sealed_bid: Bid | None
    sealed_cards: tuple[str, ...]
    sealed_category: str


class ProvinceView(Record, frozen=True):
    id: str
    state: ProvinceState


class MapProvince(Record, frozen=True, omit_defaults=True):
    """A province as printed (provinces.yaml) and where it is drawn (layout.yaml);
    its name is in the board's ``words``."""

    id: str
    zone: str
    region: str
    value: int
    track: tuple[str, ...]
    savage: bool = False
    coastal: bool = False
    home_of: str | None = None
    #: the anchor for its name and pieces, and its outline; (0, 0) and () when
    #: the pack has no layout
    x: int = 0
    y: int = 0
    shape: tuple[tuple[int, int], ...] = ()


class MapKingdom(Record, frozen=True):
    id: str
    colour: str
    home: str


class MapFeature(Record, frozen=True):
    kind: str
    shape: tuple[tuple[int, int], ...]


class MapLabel(Record, frozen=True, omit_defaults=True):
    kind: str
    #: in English, and the key of its words in other languages
    name: str
    x: int
    y: int
    angle: int = 0


class MapZone(Record, frozen=True):
    id: str
    x: int
    y: int


class Board(Record, frozen=True):
    """An Age of Conan content pack's map: public, the same for every table that
    plays the pack; served once per pack (GET /v1/games/conan/packs/{pack}/board)
    and named in every view by its ``board_digest``."""

    width: int
    height: int
    provinces: tuple[MapProvince, ...]
    kingdoms: tuple[MapKingdom, ...]
    #: adjacent provinces whose outlines share no border (every adjacent pair
    #: when the pack has no layout): a client draws these as routes
    routes: tuple[tuple[str, str], ...] = ()
    features: tuple[MapFeature, ...] = ()
    labels: tuple[MapLabel, ...] = ()
    zones: tuple[MapZone, ...] = ()
    #: the pack's words by language code (``en``: the pack's own names), keyed by
    #: its ids: every name a page shows of the pack, and kingdom cards' texts.
    #: Static, so a page holds every card's words and the views decide which
    #: cards it names; a language may lack an entry, which a page then shows in
    #: English
    words: dict[str, PackWords] = {}


class CardInfo(Record, frozen=True, omit_defaults=True):
    """What a client needs to word an item the view names (a strategy or kingdom
    card, an artifact, the adventure or an objective), as data: its name and a
    kingdom card's text are the pack's words (:class:`Board` ``words``, by id and
    language), its sentence the client's catalogue. ``value``: bid value, cost,
    tokens or EP."""

    id: str
    kind: str  # strategy | kingdom | artifact | adventure | objective
    value: int = 0
    #: strategy: the faces that count as successes, where it helps a military
    #: contest (terrains) and an intrigue (regions, for this table's seat count)
    faces: tuple[str, ...] = ()
    terrains: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    #: kingdom: table | instant | event
    type: str = ""
    #: artifact: its lasting effects
    effects: tuple[Effect, ...] = ()
    #: adventure: the province Conan heads for
    destination: str = ""
    #: objective: what meets it
    condition: Condition | None = None


class View(Record, frozen=True):
    pack: str
    seats: tuple[SeatPublic, ...]
    provinces: tuple[ProvinceView, ...]
    zones: tuple[str, ...]
    phases: tuple[AnyPhase, ...]
    fate_pool: tuple[str, ...]
    conan_at: str
    conan_player: int
    first_player: int
    age: int
    adventure: str
    destination: str
    adventures_left_in_age: int
    track: int
    container: int
    strategy_deck: int
    strategy_discard: tuple[str, ...]
    objectives: tuple[str, ...]
    crowned: int
    me: Private | None = None
    #: names the pack's map, served once per pack: see :func:`board_digest`
    board_digest: str = ""
    cards: tuple[CardInfo, ...] = ()


def _public(s: SeatState) -> SeatPublic:
    return SeatPublic(
        kingdom=s.kingdom, gold=s.gold, sorcery=s.sorcery, ep=s.ep, crom=s.crom,
        strategy_cards=len(s.strategy_hand), kingdom_cards=len(s.kingdom_hand),
        kingdom_deck=len(s.kingdom_deck),
        kingdom_discard=tuple(sorted(s.kingdom_discard)), table=s.table, bid_available=s.bid_available,
        bid_spent=s.bid_spent, adventure_tokens=len(s.tokens), token_pending=s.pending_token >= 0,
        artifacts=s.artifacts, bonus=s.bonus, dead=s.dead, bid_placed=s.sealed_bid is not None,
        contest_card_committed=s.committed, category_chosen=bool(s.sealed_category),
    )  # fmt: skip


def _private(pack: Pack, s: SeatState) -> Private:
    tokens = pack.tokens
    return Private(
        strategy_hand=s.strategy_hand,
        kingdom_hand=s.kingdom_hand,
        tokens=tuple(sorted(tokens[t] for t in s.tokens)),
        pending_token=tokens[s.pending_token] if s.pending_token >= 0 else None,
        sealed_bid=s.sealed_bid,
        sealed_cards=s.sealed_cards,
        sealed_category=s.sealed_category,
    )


def view(pack: Pack, state: State, audience: Audience) -> View:
    me = _private(pack, state.seats[audience]) if audience is not None else None
    return View(
        pack=state.options.pack,
        seats=tuple(_public(s) for s in state.seats),
        provinces=tuple(
            ProvinceView(id=p.id, state=state.provinces[i]) for i, p in enumerate(pack.provinces)
        ),
        zones=state.zones,
        phases=state.phases,
        fate_pool=tuple(sorted(state.fate_pool)),
        conan_at=state.conan_at,
        conan_player=state.conan_player,
        first_player=state.first_player,
        age=state.age,
        adventure=state.adventure,
        destination=state.destination,
        adventures_left_in_age=max(0, age_deck_left(pack, state)),
        track=len(state.track),
        container=len(state.container),
        strategy_deck=len(state.strategy_deck),
        strategy_discard=tuple(sorted(state.strategy_discard)),
        objectives=state.objectives,
        crowned=state.crowned,
        me=me,
        board_digest=board_digest(pack),
        cards=_cards(state, pack, me),
    )


# A pure function of the pack (hashed by identity), the same for every view of
# every table that plays it: worked out once per pack.
@functools.lru_cache(maxsize=8)
def board(pack: Pack) -> Board:
    layout = pack.layout
    places = layout.provinces if layout else {}
    provinces: list[MapProvince] = []
    for p in pack.provinces:
        place = places.get(p.id) or ProvinceLayout(x=0, y=0)
        provinces.append(
            MapProvince(
                id=p.id,
                zone=p.zone,
                region=p.region,
                value=p.value,
                track=p.track,
                savage=p.savage,
                coastal=p.coastal,
                home_of=p.home_of,
                x=place.x,
                y=place.y,
                shape=place.shape,
            )
        )
    kingdoms = tuple(MapKingdom(id=k.id, colour=k.colour, home=k.home) for k in pack.kingdoms.values())
    routes = tuple(
        (p.id, n)
        for p in pack.provinces
        for n in p.adjacent
        if p.id < n and not _share_border(places.get(p.id), places.get(n))
    )
    words = dict(sorted(pack.words.items()))
    if layout is None:
        return Board(
            width=0, height=0, provinces=tuple(provinces), kingdoms=kingdoms, routes=routes, words=words
        )
    return Board(
        width=layout.width,
        height=layout.height,
        provinces=tuple(provinces),
        kingdoms=kingdoms,
        routes=routes,
        features=tuple(MapFeature(kind=f.kind, shape=f.shape) for f in layout.features),
        labels=tuple(
            MapLabel(kind=lb.kind, name=lb.name, x=lb.x, y=lb.y, angle=lb.angle) for lb in layout.labels
        ),
        zones=tuple(MapZone(id=z, x=pt.x, y=pt.y) for z, pt in sorted(layout.zones.items())),
        words=words,
    )


@functools.lru_cache(maxsize=8)
def board_json(pack: Pack) -> bytes:
    """The pack's map as the gateway serves it (JSON)."""
    return msgspec.json.encode(board(pack))


@functools.lru_cache(maxsize=8)
def board_digest(pack: Pack) -> str:
    """A hash of :func:`board_json`: a client keeps a map it fetched for as long
    as views name the same digest (a pack edited in place gets a new one)."""
    return hashlib.sha256(board_json(pack)).hexdigest()[:32]


def board_asset(pack: Pack) -> Asset:
    """The pack's map as the game serves it (``pack_board(name)`` in its ``assets``)."""
    return Asset(media_type="application/json", body=board_json(pack), digest=board_digest(pack))


def _share_border(a: ProvinceLayout | None, b: ProvinceLayout | None) -> bool:
    """Whether two outlines have a side in common (two consecutive shared corners)."""
    if a is None or b is None or not a.shape or not b.shape:
        return False
    sides = {frozenset((a.shape[i - 1], a.shape[i])) for i in range(len(a.shape))}
    return any(frozenset((b.shape[i - 1], b.shape[i])) in sides for i in range(len(b.shape)))


def _strategy_info(card: StrategyCard, seats: int) -> CardInfo:
    regions = card.regions_full if seats >= 4 else card.regions_small
    return CardInfo(
        id=card.id,
        kind="strategy",
        value=card.bid_value,
        faces=card.success_faces,
        terrains=card.military_terrains,
        regions=regions,
    )


def _kingdom_info(card: KingdomCard) -> CardInfo:
    return CardInfo(id=card.id, kind="kingdom", value=card.cost, type=card.type)


def _artifact_info(art: Artifact) -> CardInfo:
    return CardInfo(id=art.id, kind="artifact", effects=art.effects)


def _objective_info(obj: Objective) -> CardInfo:
    return CardInfo(id=obj.id, kind="objective", value=obj.ep, condition=obj.condition)


def _cards(state: State, pack: Pack, me: Private | None) -> tuple[CardInfo, ...]:
    """Words for the cards in play, in hand and revealed, the artifacts, the adventure
    and the objectives this view names (not the discard piles: names suffice there)."""
    strategy: set[str] = set()
    kingdom: set[str] = set()
    artifacts: set[str] = set()
    for s in state.seats:
        kingdom.update(t.card for t in s.table)
        artifacts.update(s.artifacts)
        if s.bonus:
            artifacts.add(pack.bonus.id)
    for phase in state.phases:
        match phase:
            case Bidding(revealed=revealed):
                strategy.update(b.card for b in revealed if b.card)
            case Contest(attacker=attacker, defender=defender):
                strategy.update((*attacker.cards, *defender.cards))
    if me is not None:
        strategy.update((*me.strategy_hand, *me.sealed_cards))
        kingdom.update(me.kingdom_hand)
    seats = len(state.seats)
    out = [_strategy_info(pack.strategy[c], seats) for c in sorted(strategy) if c in pack.strategy]
    out += [_kingdom_info(pack.kingdom_cards[c]) for c in sorted(kingdom) if c in pack.kingdom_cards]
    arts = {**pack.artifacts, pack.bonus.id: pack.bonus}
    out += [_artifact_info(arts[a]) for a in sorted(artifacts) if a in arts]
    if state.adventure in pack.adventures:
        adv = pack.adventures[state.adventure]
        out.append(CardInfo(id=adv.id, kind="adventure", value=adv.tokens, destination=adv.destination))
    out += [_objective_info(pack.objectives[o]) for o in state.objectives if o in pack.objectives]
    return tuple(out)


def matched_visibility(event: ev.AnyEvent) -> Visibility:
    """Every event's audience (exhaustive: mypy checks each class is handled);
    :func:`visibility` answers the cases that read no field from
    :data:`VISIBILITY_BY_TYPE`."""
    match event:
        case ev.CardsDrawn(seat=seat) | ev.BidSealed(seat=seat) | ev.ContestCardCommitted(seat=seat):
            return seat_only(seat)
        case ev.TokenTaken(seat=seat) | ev.CategoryChosen(seat=seat):
            return seat_only(seat)
        case ev.DeckShuffled() | ev.TokensShuffled() | ev.TrackFilled():
            return SERVER_ONLY
        case (
            ev.Started()
            | ev.CardsDrawnCount()
            | ev.CardsDiscarded()
            | ev.TableCardPlayed()
            | ev.TableCardTurned()
        ):
            return PUBLIC
        case ev.ResourcesChanged() | ev.UnitsChanged() | ev.EmissariesChanged() | ev.MarkerSet():
            return PUBLIC
        case (
            ev.RaidersChanged()
            | ev.CampaignSet()
            | ev.ConanMoved()
            | ev.ConanPlayerSet()
            | ev.FirstPlayerSet()
        ):
            return PUBLIC
        case ev.FatePoolRolled() | ev.FateDieTaken() | ev.AdventureRevealed() | ev.TokenTakenCount():
            return PUBLIC
        case ev.TokenKept() | ev.TokenExchanged() | ev.TokenDiscarded() | ev.BidPlaced() | ev.BidsRevealed():
            return PUBLIC
        case ev.BidTokensSet() | ev.ContestCardDeclared() | ev.ContestCardsRevealed() | ev.ContestRolled():
            return PUBLIC
        case (
            ev.ContestResolved()
            | ev.PhasePushed()
            | ev.PhaseReplaced()
            | ev.PhasePopped()
            | ev.ArtifactsSet()
        ):
            return PUBLIC
        case ev.CategoryChoiceMade() | ev.TokensRevealed() | ev.ObjectiveDrawn() | ev.ObjectiveMet():
            return PUBLIC
        case ev.AgeStarted() | ev.AgeEnding() | ev.Crowned() | ev.GameEnded():
            return PUBLIC
        case _:
            assert_never(event)


#: ``matched_visibility``'s cases that read no field (tests/games/test_visibility_by_type.py).
VISIBILITY_BY_TYPE: dict[type, Visibility] = {
    **dict.fromkeys(
        (
            ev.DeckShuffled,
            ev.TokensShuffled,
            ev.TrackFilled,
        ),
        SERVER_ONLY,
    ),
    **dict.fromkeys(
        (
            ev.Started,
            ev.CardsDrawnCount,
            ev.CardsDiscarded,
            ev.TableCardPlayed,
            ev.TableCardTurned,
            ev.ResourcesChanged,
            ev.UnitsChanged,
            ev.EmissariesChanged,
            ev.MarkerSet,
            ev.RaidersChanged,
            ev.CampaignSet,
            ev.ConanMoved,
            ev.ConanPlayerSet,
            ev.FirstPlayerSet,
            ev.FatePoolRolled,
            ev.FateDieTaken,
            ev.AdventureRevealed,
            ev.TokenTakenCount,
            ev.TokenKept,
            ev.TokenExchanged,
            ev.TokenDiscarded,
            ev.BidPlaced,
            ev.BidsRevealed,
            ev.BidTokensSet,
            ev.ContestCardDeclared,
            ev.ContestCardsRevealed,
            ev.ContestRolled,
            ev.ContestResolved,
            ev.PhasePushed,
            ev.PhaseReplaced,
            ev.PhasePopped,
            ev.ArtifactsSet,
            ev.CategoryChoiceMade,
            ev.TokensRevealed,
            ev.ObjectiveDrawn,
            ev.ObjectiveMet,
            ev.AgeStarted,
            ev.AgeEnding,
            ev.Crowned,
            ev.GameEnded,
        ),
        PUBLIC,
    ),
}
visibility = by_type(VISIBILITY_BY_TYPE, matched_visibility)
