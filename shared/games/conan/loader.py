"""Load and validate content packs from directories of YAML files.

This is the game's only I/O, and it runs in the shell: the package's
``__init__`` loads the bundled packs once and builds the game over them, so
the rules receive a :class:`Pack` and never read a file. Every error names the
file, the entry and the field, because pack authors are not Python programmers.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import yaml  # type: ignore[import-untyped]  # PyYAML ships no types and the project pins no stubs

from shared.games.conan.content import (
    LANGUAGE,
    AdventureCard,
    Artifact,
    CardWords,
    Dice,
    Header,
    Kingdom,
    KingdomCard,
    Layout,
    Objective,
    Pack,
    PackError,
    PackWords,
    Province,
    StrategyCard,
    TokenKind,
    WordName,
)
from shared.games.conan.validate import validate_pack

#: The packs that ship with the game, one folder each, named by the folder.
BUNDLED = Path(__file__).parent / "content"
T = TypeVar("T")


def load_packs(root: Path = BUNDLED) -> dict[str, Pack]:
    """Every pack under ``root``, by its folder's name."""
    return {d.name: load_pack(d) for d in sorted(root.iterdir()) if d.is_dir()}


def _read(directory: Path, file: str) -> Any:
    path = directory / file
    if not path.exists():
        raise PackError(file, "-", "-", "file is missing")
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise PackError(file, "-", "-", f"not valid YAML: {exc}") from exc


def _convert(file: str, raw: Any, kind: type[T], entry: str) -> T:
    try:
        return msgspec.convert(raw, kind, strict=False)
    except msgspec.ValidationError as exc:
        text = str(exc)
        found = re.search(r"unknown field `([^`]*)`", text) or re.search(r"`\$\.?([^`]*)`", text)
        field = found.group(1) if found and found.group(1) else "-"
        raise PackError(file, entry, field, text.split(" - at ")[0]) from exc


def _entries(file: str, raw: Any, kind: type[T]) -> list[T]:
    if not isinstance(raw, list):
        raise PackError(file, "-", "-", "expected a list of entries")
    out: list[T] = []
    for i, item in enumerate(raw):
        entry = str(item.get("id", i)) if isinstance(item, dict) else str(i)
        out.append(_convert(file, item, kind, entry))
    ids = [getattr(x, "id", None) for x in out]
    for i, x in enumerate(ids):
        if x is not None and ids.index(x) != i:
            raise PackError(file, str(x), "id", "duplicate id")
    return out


def load_pack(directory: Path) -> Pack:
    header = _convert("pack.yaml", _read(directory, "pack.yaml"), Header, "pack")
    dice = _load_dice(directory)
    provinces = tuple(_entries("provinces.yaml", _read(directory, "provinces.yaml"), Province))
    kingdoms = {k.id: k for k in _entries("kingdoms.yaml", _read(directory, "kingdoms.yaml"), Kingdom)}
    strategy = {
        c.id: c
        for c in _entries("strategy_cards.yaml", _read(directory, "strategy_cards.yaml"), StrategyCard)
    }
    kcards = {
        c.id: c for c in _entries("kingdom_cards.yaml", _read(directory, "kingdom_cards.yaml"), KingdomCard)
    }
    adv_raw = _read(directory, "adventures.yaml")
    if not isinstance(adv_raw, dict):
        raise PackError("adventures.yaml", "-", "-", "expected keys 'cards' and 'tokens'")
    adventures = {a.id: a for a in _entries("adventures.yaml", adv_raw.get("cards"), AdventureCard)}
    kinds = _entries("adventures.yaml", adv_raw.get("tokens"), TokenKind)
    objectives = {
        o.id: o for o in _entries("objectives.yaml", _read(directory, "objectives.yaml"), Objective)
    }
    art_raw = _read(directory, "artifacts.yaml")
    if not isinstance(art_raw, dict):
        raise PackError("artifacts.yaml", "-", "-", "expected keys 'artifacts' and 'bonus_card'")
    artifacts = {a.id: a for a in _entries("artifacts.yaml", art_raw.get("artifacts"), Artifact)}
    bonus = _convert("artifacts.yaml", art_raw.get("bonus_card"), Artifact, "bonus_card")
    index = {p.id: i for i, p in enumerate(provinces)}
    tokens = tuple((k.category, k.value) for k in kinds for _ in range(k.count))
    pack = Pack(
        header, dice, provinces, kingdoms, strategy, kcards, adventures, tokens, objectives,
        artifacts, bonus, index, _distances(provinces, index), _load_layout(directory, provinces),
    )  # fmt: skip
    validate_pack(pack, kinds)
    return replace(pack, words=_load_words(directory, pack))


def english_words(pack: Pack) -> PackWords:
    """The pack's own words: the names in its files (zones and regions, which
    have no name there, by their ids in words)."""
    layout = pack.layout
    return PackWords(
        provinces={p.id: p.name for p in pack.provinces},
        kingdoms={k.id: k.name for k in pack.kingdoms.values()},
        zones={z: z.replace("_", " ") for z in sorted({p.zone for p in pack.provinces})},
        regions={r: r.replace("_", " ") for r in sorted({p.region for p in pack.provinces})},
        strategy_cards={c.id: c.name for c in pack.strategy.values()},
        kingdom_cards={c.id: CardWords(name=c.name, text=c.text) for c in pack.kingdom_cards.values()},
        artifacts={a.id: a.name for a in (*pack.artifacts.values(), pack.bonus)},
        adventures={a.id: a.title for a in pack.adventures.values()},
        objectives={o.id: o.name for o in pack.objectives.values()},
        labels={lb.name: lb.name for lb in layout.labels} if layout else {},
    )


def _load_words(directory: Path, pack: Pack) -> dict[str, PackWords]:
    """English from the pack's files, and each ``i18n/<code>.yaml``: an entry may be
    missing (the client falls back to English) but never name an id the pack lacks,
    so a renamed or removed card cannot leave stale words behind."""
    english = english_words(pack)
    words = {"en": english}
    folder = directory / "i18n"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        file = f"i18n/{path.name}"
        if not re.fullmatch(LANGUAGE, path.stem) or path.stem == "en":
            raise PackError(file, "-", "-", "name it by a language's code (fi.yaml); English is the pack")
        raw = _read(folder, path.name)
        _check_words(file, {} if raw is None else raw, english)
        words[path.stem] = _convert(file, {} if raw is None else raw, PackWords, path.stem)
    return words


def _check_words(file: str, raw: Any, english: PackWords) -> None:
    """Entry by entry, so an error names the id and the section it is under."""
    if not isinstance(raw, dict):
        raise PackError(file, "-", "-", f"expected sections: {', '.join(PackWords.__struct_fields__)}")
    for section, entries in raw.items():
        if section not in PackWords.__struct_fields__:
            raise PackError(file, "-", str(section), "no such section")
        if not isinstance(entries, dict):
            raise PackError(file, "-", section, "expected entries 'id: words'")
        known = getattr(english, section)
        kind: Any = CardWords if section == "kingdom_cards" else WordName
        for key, said in entries.items():
            if key not in known:
                raise PackError(file, str(key), section, f"the pack has no {section} entry {key!r}")
            try:
                _convert(file, said, kind, str(key))
            except PackError as exc:
                field = section if exc.field == "-" else f"{section}.{exc.field}"
                said_wrong = str(exc).removeprefix(f"{file}: entry {exc.entry!r}, field {exc.field!r}: ")
                raise PackError(file, str(key), field, said_wrong) from exc


def _load_layout(directory: Path, provinces: tuple[Province, ...]) -> Layout | None:
    if not (directory / "layout.yaml").exists():
        return None
    layout = _convert("layout.yaml", _read(directory, "layout.yaml"), Layout, "layout")
    ids = {p.id for p in provinces}
    zones = {p.zone for p in provinces}
    for pid in sorted(ids - set(layout.provinces)):
        raise PackError("layout.yaml", pid, "provinces", "province has no place on the map")
    for pid, place in layout.provinces.items():
        if pid not in ids:
            raise PackError("layout.yaml", pid, "provinces", f"unknown province {pid!r}")
        if place.shape and len(place.shape) < 3:
            raise PackError("layout.yaml", pid, "shape", "an outline needs at least three corners")
        for x, y in ((place.x, place.y), *place.shape):
            if not (0 <= x <= layout.width and 0 <= y <= layout.height):
                raise PackError("layout.yaml", pid, "shape", f"({x}, {y}) lies off the map")
    for zone in layout.zones:
        if zone not in zones:
            raise PackError("layout.yaml", zone, "zones", f"unknown zone {zone!r}")
    return layout


def _load_dice(directory: Path) -> Dice:
    raw = _read(directory, "dice.yaml")
    try:
        fate, contest = raw["fate_die"], raw["contest_die"]
        flat = {
            "fate_faces": fate["faces"],
            "pool_size": fate["pool_size"],
            "contest_faces": contest["faces"],
            "max_per_roll": contest["max_per_roll"],
        }
    except (KeyError, TypeError) as exc:
        raise PackError("dice.yaml", "-", str(exc), "missing key") from exc
    return _convert("dice.yaml", flat, Dice, "dice")


def _distances(provinces: tuple[Province, ...], index: dict[str, int]) -> tuple[tuple[int, ...], ...]:
    # Conan's "closer" test needs shortest paths over the whole map.
    far = len(provinces) + 1
    rows = []
    for start in range(len(provinces)):
        dist = [far] * len(provinces)
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n in provinces[here].adjacent:
                j = index.get(n)
                if j is not None and dist[j] == far:
                    dist[j] = dist[here] + 1
                    queue.append(j)
        rows.append(tuple(dist))
    return tuple(rows)
