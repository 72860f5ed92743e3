"""Cross-reference checks of a loaded pack (ids, faces, windows, primitives)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shared.games.conan.loader import Pack


def _err(file: str, entry: str, field: str, message: str) -> Exception:
    from shared.games.conan.loader import PackError

    return PackError(file, entry, field, message)


def validate_pack(pack: Pack, kinds: list[Any], fate, contest, categories, card_types, windows, ops) -> None:
    _check_dice(pack, fate, contest)
    _check_provinces(pack)
    _check_kingdoms(pack)
    _check_strategy(pack, contest)
    _check_kingdom_cards(pack, card_types, windows, ops, contest)
    for a in pack.adventures.values():
        if a.destination not in pack.index:
            raise _err("adventures.yaml", a.id, "destination", f"unknown province {a.destination!r}")
        if a.tokens < 1:
            raise _err("adventures.yaml", a.id, "tokens", "must be at least 1")
    for k in kinds:
        if k.category not in categories:
            raise _err("adventures.yaml", k.category, "category", f"must be one of {categories}")
    for art in pack.artifacts.values():
        if art.category not in categories:
            raise _err("artifacts.yaml", art.id, "category", f"must be one of {categories}")
    h = pack.header
    per_age = h.adventures_per_age
    if len(pack.adventures) < per_age * h.ages:
        raise _err("adventures.yaml", "cards", "-", f"need at least {per_age * h.ages} adventure cards")
    if len(pack.objectives) < max(h.setups):
        raise _err("objectives.yaml", "-", "-", "need one objective per player at least")


def _check_dice(pack: Pack, fate, contest) -> None:
    for f in pack.dice.fate_faces:
        if f not in fate:
            raise _err("dice.yaml", "fate_die", "faces", f"unknown face {f!r}")
    for f in pack.dice.contest_faces:
        if f not in contest:
            raise _err("dice.yaml", "contest_die", "faces", f"unknown face {f!r}")


def _check_provinces(pack: Pack) -> None:
    for p in pack.provinces:
        if p.value < 0:
            raise _err("provinces.yaml", p.id, "value", "must not be negative")
        if not p.track:
            raise _err("provinces.yaml", p.id, "track", "needs at least one space")
        if p.home_of is not None and p.home_of not in pack.kingdoms:
            raise _err("provinces.yaml", p.id, "home_of", f"unknown kingdom {p.home_of!r}")
        for n in p.adjacent:
            if p.id not in pack.province(n).adjacent:
                raise _err("provinces.yaml", p.id, "adjacent", f"{n!r} does not list {p.id!r} back")
    if sum(p.conan_start for p in pack.provinces) != 1:
        raise _err("provinces.yaml", "-", "conan_start", "exactly one province must be Conan's start")


def _check_kingdoms(pack: Pack) -> None:
    for k in pack.kingdoms.values():
        if k.home not in pack.index or pack.province(k.home).home_of != k.id:
            raise _err("kingdoms.yaml", k.id, "home", "must be a province whose home_of is this kingdom")
    for count, names in pack.header.setups.items():
        if len(names) != count or any(n not in pack.kingdoms for n in names):
            raise _err("pack.yaml", str(count), "setups", "must list that many known kingdoms")


def _check_strategy(pack: Pack, contest) -> None:
    for c in pack.strategy.values():
        for f in c.success_faces:
            if f not in contest:
                raise _err("strategy_cards.yaml", c.id, "success_faces", f"unknown face {f!r}")
        if c.copies < 1:
            raise _err("strategy_cards.yaml", c.id, "copies", "must be at least 1")


def _check_kingdom_cards(pack: Pack, card_types, windows, ops, contest) -> None:
    for c in pack.kingdom_cards.values():
        where = ("kingdom_cards.yaml", c.id)
        if c.kingdom not in pack.kingdoms:
            raise _err(*where, "kingdom", f"unknown kingdom {c.kingdom!r}")
        if c.type not in card_types:
            raise _err(*where, "type", f"must be one of {card_types}")
        for w in c.windows:
            if w not in windows:
                raise _err(*where, "windows", f"unknown window {w!r}")
        if (c.type == "event") != (c.windows == ("court.resolve",)):
            raise _err(*where, "windows", "events, and only events, use exactly [court.resolve]")
        for e in c.effects:
            if e.op not in ops:
                raise _err(*where, "effects.op", f"unknown primitive {e.op!r}")
            if not set(c.windows) <= set(ops[e.op]):
                raise _err(*where, "effects.op", f"{e.op!r} cannot be used in {c.windows}")
            if e.op == "face_counts_as" and e.face not in contest:
                raise _err(*where, "effects.face", f"unknown face {e.face!r}")
