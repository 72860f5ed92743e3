"""Cross-reference checks of a loaded pack (ids, faces, windows, primitives).

The loader calls these once it has decoded every file; they read only the
records of ``content.py``, so the dependency runs one way.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.conan.content import (
    CARD_OPS,
    CARD_TYPES,
    CATEGORIES,
    CONTEST_FACES,
    FATE_FACES,
    OBJECTIVE_TYPES,
    PERMANENT_OPS,
    WINDOWS,
    Pack,
    PackError,
    TokenKind,
)


def validate_pack(pack: Pack, kinds: Sequence[TokenKind]) -> None:
    _check_dice(pack)
    _check_provinces(pack)
    _check_kingdoms(pack)
    _check_strategy(pack)
    _check_kingdom_cards(pack)
    for a in pack.adventures.values():
        if a.destination not in pack.index:
            raise PackError("adventures.yaml", a.id, "destination", f"unknown province {a.destination!r}")
        if a.tokens < 1:
            raise PackError("adventures.yaml", a.id, "tokens", "must be at least 1")
    for k in kinds:
        if k.category not in CATEGORIES:
            raise PackError("adventures.yaml", k.category, "category", f"must be one of {CATEGORIES}")
    for art in pack.artifacts.values():
        if art.category not in CATEGORIES:
            raise PackError("artifacts.yaml", art.id, "category", f"must be one of {CATEGORIES}")
    h = pack.header
    per_age = h.adventures_per_age
    if len(pack.adventures) < per_age * h.ages:
        raise PackError("adventures.yaml", "cards", "-", f"need at least {per_age * h.ages} adventure cards")
    if len(pack.objectives) < max(h.setups):
        raise PackError("objectives.yaml", "-", "-", "need one objective per player at least")
    for art in (*pack.artifacts.values(), pack.bonus):
        for e in art.effects:
            if e.op not in PERMANENT_OPS:
                raise PackError("artifacts.yaml", art.id, "effects.op", f"unknown primitive {e.op!r}")
    for obj in pack.objectives.values():
        if obj.condition.type not in OBJECTIVE_TYPES:
            raise PackError("objectives.yaml", obj.id, "condition.type", f"unknown {obj.condition.type!r}")


def _check_dice(pack: Pack) -> None:
    for f in pack.dice.fate_faces:
        if f not in FATE_FACES:
            raise PackError("dice.yaml", "fate_die", "faces", f"unknown face {f!r}")
    for f in pack.dice.contest_faces:
        if f not in CONTEST_FACES:
            raise PackError("dice.yaml", "contest_die", "faces", f"unknown face {f!r}")


def _check_provinces(pack: Pack) -> None:
    for p in pack.provinces:
        for n in p.adjacent:
            if n not in pack.index:
                raise PackError("provinces.yaml", p.id, "adjacent", f"unknown province {n!r}")
    for p in pack.provinces:
        if p.value < 0:
            raise PackError("provinces.yaml", p.id, "value", "must not be negative")
        if not p.track:
            raise PackError("provinces.yaml", p.id, "track", "needs at least one space")
        if p.home_of is not None and p.home_of not in pack.kingdoms:
            raise PackError("provinces.yaml", p.id, "home_of", f"unknown kingdom {p.home_of!r}")
        for n in p.adjacent:
            if p.id not in pack.province(n).adjacent:
                raise PackError("provinces.yaml", p.id, "adjacent", f"{n!r} does not list {p.id!r} back")
    if sum(p.conan_start for p in pack.provinces) != 1:
        raise PackError("provinces.yaml", "-", "conan_start", "exactly one province must be Conan's start")


def _check_kingdoms(pack: Pack) -> None:
    for k in pack.kingdoms.values():
        if k.home not in pack.index or pack.province(k.home).home_of != k.id:
            raise PackError("kingdoms.yaml", k.id, "home", "must be a province whose home_of is this kingdom")
    for count, names in pack.header.setups.items():
        if len(names) != count or any(n not in pack.kingdoms for n in names):
            raise PackError("pack.yaml", str(count), "setups", "must list that many known kingdoms")


def _check_strategy(pack: Pack) -> None:
    for c in pack.strategy.values():
        for f in c.success_faces:
            if f not in CONTEST_FACES:
                raise PackError("strategy_cards.yaml", c.id, "success_faces", f"unknown face {f!r}")
        if c.copies < 1:
            raise PackError("strategy_cards.yaml", c.id, "copies", "must be at least 1")


def _check_kingdom_cards(pack: Pack) -> None:
    for c in pack.kingdom_cards.values():
        where = ("kingdom_cards.yaml", c.id)
        if c.kingdom not in pack.kingdoms:
            raise PackError(*where, "kingdom", f"unknown kingdom {c.kingdom!r}")
        if c.type not in CARD_TYPES:
            raise PackError(*where, "type", f"must be one of {CARD_TYPES}")
        for w in c.windows:
            if w not in WINDOWS:
                raise PackError(*where, "windows", f"unknown window {w!r}")
        if (c.type == "event") != (c.windows == ("court.resolve",)):
            raise PackError(*where, "windows", "events, and only events, use exactly [court.resolve]")
        for e in c.effects:
            if e.op not in CARD_OPS:
                raise PackError(*where, "effects.op", f"unknown primitive {e.op!r}")
            if not set(c.windows) <= set(CARD_OPS[e.op]):
                raise PackError(*where, "effects.op", f"{e.op!r} cannot be used in {c.windows}")
            if e.op == "face_counts_as" and e.face not in CONTEST_FACES:
                raise PackError(*where, "effects.face", f"unknown face {e.face!r}")
