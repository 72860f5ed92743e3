"""The content pack: the default pack's facts, a swapped-in tiny pack, and
clear errors for bad packs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from shared.games.conan import GAME, build
from shared.games.conan.content import PackError
from shared.games.conan.loader import load_pack, load_packs
from shared.games.conan.options import Options
from shared.kernel.rng import Rng
from tests.games.conan.helpers import PACK, TINY
from tests.games.conan.invariants import check
from tests.games.contract_checks import check_decide_is_pure_and_legal_matches, check_playouts

ZIGGURAT = Path(__file__).parents[3] / "shared" / "games" / "conan" / "content" / "ziggurat"


def test_default_pack_matches_the_seed_and_digest():
    # the facts docs/rules/conan.md §2.1 says the bundled pack keeps
    pack = PACK
    steppes = pack.province("steppes")
    assert steppes.value == 3 and not steppes.savage
    assert len(steppes.track) == 2 and steppes.track[-1] == "hills"
    assert {"hyperborea", "turan"} <= set(steppes.adjacent)
    assert pack.province("cimmeria").conan_start
    assert sum(p.savage for p in pack.provinces) == 4
    assert all((k.units, k.emissaries) == (18, 6) for k in pack.kingdoms.values())
    starts = {
        k.id: (k.start_units, k.start_emissaries, k.start_gold, k.start_sorcery)
        for k in pack.kingdoms.values()
    }
    assert starts == {
        "aquilonia": (5, 4, 3, 0),
        "turan": (5, 4, 3, 0),
        "stygia": (4, 4, 3, 2),
        "hyperborea": (4, 4, 3, 2),
    }
    assert pack.header.bidding_tokens == (0, 3, 4, 5, 6)
    assert len(pack.strategy_deck()) == 37
    assert all(len(pack.kingdom_deck(k)) == 21 for k in pack.kingdoms)
    assert pack.dice.pool_size == 7 and pack.dice.max_per_roll == 6
    assert set(pack.dice.contest_faces) == {"HIT", "ATTACKER_HIT", "HIT_CONAN", "SHIELD", "AXE", "BLANK"}
    homes = {a.destination for a in pack.adventures.values()}
    assert {"aquilonia", "turan", "stygia", "hyperborea"} <= homes, "coronation needs home destinations"
    assert "Ziggurat" in pack.header.label and "not the publisher" in pack.header.label


def test_zones_give_connected_boards_for_two_and_three_players():
    pack = PACK
    for seats in (2, 3, 4):
        kingdoms = pack.header.setups[seats]
        zones = {"central", *(pack.kingdoms[k].zone for k in kingdoms)}
        ids = {p.id for p in pack.provinces if p.zone in zones}
        seen, todo = set(), [next(iter(ids))]
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo += [n for n in pack.neighbours(here) if n in ids]
        assert seen == ids, seats


def test_a_tiny_pack_plays_without_code_change():
    assert len(TINY.provinces) == 4
    game = build({"tiny": TINY})
    playouts = check_playouts(game, 2, games=3, invariant=check, options={"pack": "tiny"})
    for p in playouts:
        assert p.state.seats[0].kingdom == "west" and game.is_over(p.state)
    check_decide_is_pure_and_legal_matches(game, playouts[:1], samples=40)


def _broken(tmp_path: Path, file: str, edit) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(ZIGGURAT, target)
    data = yaml.safe_load((target / file).read_text())
    edit(data)
    (target / file).write_text(yaml.safe_dump(data))
    return target


@pytest.mark.parametrize(
    ("file", "edit", "entry", "field"),
    [
        ("provinces.yaml", lambda d: d[0].update(value="high"), "aquilonia", "value"),
        ("provinces.yaml", lambda d: d[1].update(adjacent=["atlantis"]), "pictish_wilderness", "adjacent"),
        ("provinces.yaml", lambda d: d[1].update(adjacent=["zingara"]), "aquilonia", "adjacent"),
        ("provinces.yaml", lambda d: d[0].update(colour="blue"), "aquilonia", "colour"),
        (
            "strategy_cards.yaml",
            lambda d: d[0].update(success_faces=["SKULL"]),
            "shield_wall",
            "success_faces",
        ),
        (
            "kingdom_cards.yaml",
            lambda d: d[0]["effects"][0].update(op="teleport"),
            "aq_black_legion",
            "effects.op",
        ),
        ("kingdom_cards.yaml", lambda d: d[0].update(windows=["lunch"]), "aq_black_legion", "windows"),
        ("kingdom_cards.yaml", lambda d: d[0].update(kingdom="atlantis"), "aq_black_legion", "kingdom"),
        (
            "adventures.yaml",
            lambda d: d["cards"][0].update(destination="xuthal"),
            "tower_of_the_elephant",
            "destination",
        ),
        ("objectives.yaml", lambda d: d[0]["condition"].update(type="be_happy"), "warlord", "condition.type"),
        (
            "artifacts.yaml",
            lambda d: d["artifacts"][0].update(category="gems"),
            "sword_of_atlantis",
            "category",
        ),
    ],
)
def test_bad_packs_name_file_entry_and_field(tmp_path, file, edit, entry, field):
    with pytest.raises(PackError) as err:
        load_pack(_broken(tmp_path, file, edit))
    assert (err.value.file, err.value.entry, err.value.field) == (file, entry, field)
    assert file in str(err.value) and entry in str(err.value)


def test_missing_file_and_unknown_pack(tmp_path):
    target = tmp_path / "pack"
    shutil.copytree(ZIGGURAT, target)
    (target / "dice.yaml").unlink()
    with pytest.raises(PackError, match=r"dice\.yaml"):
        load_pack(target)
    with pytest.raises(PackError, match="no such content pack"):
        GAME.create(Options(pack="does-not-exist"), 2, Rng(b"\x00" * 32, 0))


def test_the_game_plays_every_bundled_pack():
    assert set(load_packs()) == {"ziggurat"}
