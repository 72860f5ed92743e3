"""The map and the words every view carries for a client to draw the table.

The pack's ``layout.yaml`` gives each province an outline and an anchor; the
gateway serves them once per pack with the printed facts (``Board``; a view
names it by ``View.board_digest``), and a view names the
cards, adventure and objectives the view itself mentions (``View.cards``).
A drawn map must tell the rules' truth: provinces that share a border are
adjacent, adjacent ones without a common border get a route, and a province
touches the sea exactly when it is coastal.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import msgspec
import pytest
import yaml

from shared.games import registry
from shared.games.conan import GAME, PACKS
from shared.games.conan.content import PackError
from shared.games.conan.loader import load_pack
from shared.games.conan.views import board, board_digest, board_json
from shared.kernel.contract import Asset, pack_board
from tests.games.conan.helpers import PACK, TINY, edit_seat, opening

ZIGGURAT = Path(__file__).parents[3] / "shared" / "games" / "conan" / "content" / "ziggurat"


def _sides(shape):
    return [frozenset((shape[i - 1], shape[i])) for i in range(len(shape))]


def _inside(x, y, shape):
    inside = False
    for i in range(len(shape)):
        (x0, y0), (x1, y1) = shape[i - 1], shape[i]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_every_province_has_an_outline_around_its_anchor_on_the_sheet():
    b = board(PACK)
    assert (b.width, b.height) == (1000, 900)
    assert len(b.provinces) == len(PACK.provinces)
    for p in b.provinces:
        assert len(p.shape) >= 3, p.id
        assert _inside(p.x, p.y, p.shape), p.id
        assert all(0 <= x <= b.width and 0 <= y <= b.height for x, y in p.shape), p.id


def test_borders_and_routes_are_exactly_the_rules_adjacency():
    pack = PACK
    b = board(PACK)
    sides = {p.id: set(_sides(p.shape)) for p in b.provinces}
    bordering = {
        frozenset((a, c)) for a in sides for c in sides if a < c and sides[a] & sides[c]
    }  # fmt: skip
    routes = {frozenset(r) for r in b.routes}
    adjacent = {frozenset((p.id, n)) for p in pack.provinces for n in p.adjacent}
    assert bordering | routes == adjacent
    assert not bordering & routes
    assert routes == {frozenset(("koth", "zamora"))}  # the pass through the Kezankian Mountains


def test_a_province_touches_the_sea_exactly_when_it_is_coastal():
    b = board(PACK)
    land: dict[frozenset, int] = {}
    for shape in [p.shape for p in b.provinces] + [f.shape for f in b.features]:
        for side in _sides(shape):
            land[side] = land.get(side, 0) + 1

    def on_frame(side):
        (x0, y0), (x1, y1) = tuple(side)
        return (x0 == x1 and x0 in (0, b.width)) or (y0 == y1 and y0 in (0, b.height))

    for p in b.provinces:
        coast = [s for s in _sides(p.shape) if land[s] == 1 and not on_frame(s)]
        assert bool(coast) == p.coastal, p.id


def test_every_audience_names_the_same_board_and_the_kingdoms_colours():
    state = opening(3)
    digests = {GAME.view(state, a).board_digest for a in (None, 0, 1, 2)}
    # The map is served once per pack, named in every view by a hash of its bytes.
    assert digests == {board_digest(PACK)}
    assert board_digest(PACK) == hashlib.sha256(msgspec.json.encode(board(PACK))).hexdigest()[:32]
    assert board_digest(PACK) != board_digest(TINY)
    kingdoms = {k.id: k.colour for k in board(PACK).kingdoms}
    assert kingdoms == {"aquilonia": "red", "turan": "yellow", "stygia": "green", "hyperborea": "purple"}


def test_the_game_serves_each_packs_map_through_its_contract():
    """What the gateway serves at /v1/games/{game}/packs/{pack}/board, found by
    key and name alone: the bytes a view's digest names, for every bundled pack,
    and nothing for another name, another pack or another game."""
    for name, pack in PACKS.items():
        asset = registry.asset("conan", pack_board(name))
        assert asset == Asset(media_type="application/json", body=board_json(pack), digest=board_digest(pack))
        assert msgspec.json.decode(asset.body, type=type(board(pack))) == board(pack)
    assert GAME.assets is not None and GAME.assets.types == (type(board(PACK)),)
    bundled = next(iter(PACKS))
    for key, name in [
        ("conan", pack_board("atlantis")),
        ("conan", f"packs/{bundled}/rules"),
        ("conan", f"packs/{bundled}/board/x"),
        ("catan", pack_board(bundled)),
        ("no-such-game", pack_board(bundled)),
    ]:
        assert registry.asset(key, name) is None, (key, name)


def test_cards_name_what_the_view_shows_and_nothing_of_another_hand():
    state = opening(3)
    state = edit_seat(state, 1, strategy_hand=("sappers",), kingdom_hand=("tu_spies",))
    state = edit_seat(state, 0, strategy_hand=("whispers",), kingdom_hand=("aq_envoys",))
    mine = {c.id: c for c in GAME.view(state, 1).cards}
    assert {"sappers", "tu_spies"} <= set(mine) and not {"whispers", "aq_envoys"} & set(mine)
    assert mine["sappers"].value == 2 and mine["sappers"].faces == ("AXE",)
    assert mine["sappers"].regions == ("west", "east") and mine["tu_spies"].type == "instant"
    spectator = {c.id for c in GAME.view(state, None).cards}
    assert not {"sappers", "tu_spies", "whispers", "aq_envoys"} & spectator
    assert state.adventure in spectator and set(state.objectives) <= spectator


def test_a_pack_without_layout_still_gives_facts_and_every_adjacency_as_a_route():
    b = board(TINY)
    pack = TINY
    assert (b.width, b.height) == (0, 0) and all(p.shape == () for p in b.provinces)
    assert {frozenset(r) for r in b.routes} == {
        frozenset((p.id, n)) for p in pack.provinces for n in p.adjacent
    }  # fmt: skip


def _broken_layout(tmp_path: Path, edit) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(ZIGGURAT, target)
    data = yaml.safe_load((target / "layout.yaml").read_text())
    edit(data)
    (target / "layout.yaml").write_text(yaml.safe_dump(data))
    return target


@pytest.mark.parametrize(
    ("edit", "entry", "field"),
    [
        (lambda d: d["provinces"].pop("koth"), "koth", "provinces"),
        (lambda d: d["provinces"].update(atlantis={"x": 1, "y": 1}), "atlantis", "provinces"),
        (lambda d: d["provinces"]["koth"].update(x=5000), "koth", "shape"),
        (lambda d: d["provinces"]["koth"].update(shape=[[1, 1], [2, 2]]), "koth", "shape"),
        (lambda d: d["zones"].update(atlantis={"x": 1, "y": 1}), "atlantis", "zones"),
    ],
)
def test_bad_layouts_name_the_entry_and_field(tmp_path, edit, entry, field):
    with pytest.raises(PackError) as err:
        load_pack(_broken_layout(tmp_path, edit))
    assert (err.value.file, err.value.entry, err.value.field) == ("layout.yaml", entry, field)
