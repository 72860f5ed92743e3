"""A content pack's words in every language the client speaks.

The pack's own files are its English; ``i18n/<code>.yaml`` beside them holds
each other language's, keyed by the pack's ids. The loader refuses a file that
names an id the pack lacks or breaks the bounds; a bundled pack must have every
entry in Finnish and Hungarian, so adding a card without its words fails here.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from shared.games.conan import PACKS
from shared.games.conan.content import PackError, PackWords
from shared.games.conan.loader import english_words, load_pack
from shared.games.conan.views import board
from tests.games.conan.helpers import TINY

ZIGGURAT = Path(__file__).parents[3] / "shared" / "games" / "conan" / "content" / "ziggurat"
#: The languages of the web client's catalogues besides English (services/web/static/locales).
LANGUAGES = ("fi", "hu")
SECTIONS = PackWords.__struct_fields__


@pytest.mark.parametrize("name", sorted(PACKS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_id_of_a_bundled_pack_has_its_words_in_every_language(name: str, language: str) -> None:
    pack = PACKS[name]
    english = pack.words["en"]
    assert language in pack.words, f"{name}: no i18n/{language}.yaml"
    words = pack.words[language]
    for section in SECTIONS:
        missing = set(getattr(english, section)) - set(getattr(words, section))
        assert not missing, f"{name}: i18n/{language}.yaml lacks {section}: {sorted(missing)}"
        # The loader refuses the opposite; held here too, as the two directions of one rule.
        assert set(getattr(words, section)) <= set(getattr(english, section))
    for card, said in words.kingdom_cards.items():
        assert said.text != english.kingdom_cards[card].text, f"{card}: its text is still English"


def test_english_is_every_name_the_pack_gives() -> None:
    pack = PACKS["ziggurat"]
    english = english_words(pack)
    assert pack.words["en"] == english
    assert english.provinces["pictish_wilderness"] == "Pictish Wilderness"
    assert english.kingdom_cards["aq_black_legion"].text.startswith("For one military roll")
    assert set(english.artifacts) == {*pack.artifacts, pack.bonus.id}
    assert set(english.adventures) == set(pack.adventures) and set(english.objectives) == set(pack.objectives)
    assert english.regions == {r: r for r in ("east", "north", "south", "west")}
    assert pack.layout is not None and set(english.labels) == {lb.name for lb in pack.layout.labels}


def test_the_seeds_words_are_kept() -> None:
    """The Finnish summary (seeds/001) names the four kingdoms, Cimmeria and Steppes,
    and two cards (in their printed English): its words, not ours."""
    fi = PACKS["ziggurat"].words["fi"]
    assert fi.kingdoms == {k: k.capitalize() for k in ("aquilonia", "turan", "stygia", "hyperborea")}
    assert (fi.provinces["cimmeria"], fi.provinces["steppes"]) == ("Cimmeria", "Steppes")
    assert fi.kingdom_cards["aq_black_legion"].name == "Black Legion"
    assert fi.kingdom_cards["hy_legions_of_the_dead"].name == "Legions of the Dead"


def test_the_served_map_carries_every_language_and_a_pack_without_translations_only_english() -> None:
    served = msgspec.json.decode(msgspec.json.encode(board(PACKS["ziggurat"])))
    assert sorted(served["words"]) == ["en", *LANGUAGES]
    assert served["words"]["fi"]["strategy_cards"]["whispers"] == "Kuiskauksia hovissa"
    assert list(TINY.words) == ["en"]


def _with_words(tmp_path: Path, language: str, edit: Any) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(ZIGGURAT, target)
    path = target / "i18n" / f"{language}.yaml"
    data = yaml.safe_load(path.read_text("utf-8")) if path.exists() else {}
    edit(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return target


@pytest.mark.parametrize(
    ("language", "edit", "entry", "field"),
    [
        ("fi", lambda d: d["strategy_cards"].update(atlantis_gambit="Atlantiksen gambiitti"),
         "atlantis_gambit", "strategy_cards"),
        ("hu", lambda d: d["labels"].update({"Sea of Atlantis": "Atlantiszi-tenger"}),
         "Sea of Atlantis", "labels"),
        ("fi", lambda d: d["provinces"].update(koth=""), "koth", "provinces"),
        ("hu", lambda d: d["objectives"].update(warlord="W" * 61), "warlord", "objectives"),
        ("fi", lambda d: d["kingdom_cards"]["aq_envoys"].pop("text"), "aq_envoys", "kingdom_cards"),
        ("fi", lambda d: d["kingdom_cards"]["aq_envoys"].update(cost=3), "aq_envoys", "kingdom_cards.cost"),
        ("fi", lambda d: d.update(heroes={"conan": "Conan"}), "-", "heroes"),
        ("english", lambda d: d.update(zones={"north": "north"}), "-", "-"),
        ("en", lambda d: d.update(zones={"north": "north"}), "-", "-"),
    ],
)  # fmt: skip
def test_a_bad_translation_names_its_file_entry_and_field(
    tmp_path: Path, language: str, edit: Any, entry: str, field: str
) -> None:
    with pytest.raises(PackError) as err:
        load_pack(_with_words(tmp_path, language, edit))
    assert (err.value.file, err.value.entry, err.value.field) == (f"i18n/{language}.yaml", entry, field)


def test_a_missing_entry_loads_and_falls_back_to_english_on_the_page(tmp_path: Path) -> None:
    """The loader lets a language be partial (a pack author adds one bit by bit; the page
    shows English where it has no word): only the bundled packs must be complete."""
    pack = load_pack(_with_words(tmp_path, "fi", lambda d: d["objectives"].pop("warlord")))
    assert "warlord" not in pack.words["fi"].objectives and "warlord" in pack.words["en"].objectives
