"""Card kinds, costs and deck contents.

Hands are 8-tuples of counts indexed by card kind: the five resources, then
the three commodities. Counting instead of listing keeps hands canonical.
"""

from __future__ import annotations

import operator
from typing import Annotated

from msgspec import Meta

BRICK, LUMBER, WOOL, GRAIN, ORE, PAPER, CLOTH, COIN = range(8)
RESOURCES = (BRICK, LUMBER, WOOL, GRAIN, ORE)
COMMODITIES = (PAPER, CLOTH, COIN)
KINDS = RESOURCES + COMMODITIES
NAMES = ("brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin")
Hand = tuple[int, ...]
EMPTY: Hand = (0,) * 8
#: The most cards of one kind in the game: 19 of each resource, 12 of each commodity.
MOST_OF_A_KIND = 19


#: A hand a client names (to pay, give or ask for): a count per kind, none
#: above what exists. Stored hands stay plain ``Hand``: the rules made them.
def stock(ck: bool) -> Hand:
    """Every card of each kind in the game: the bank's holding when a game starts."""
    return tuple(MOST_OF_A_KIND if k in RESOURCES else (12 if ck else 0) for k in KINDS)


SentHand = Annotated[tuple[Annotated[int, Meta(ge=0, le=MOST_OF_A_KIND)], ...], Meta(max_length=len(NAMES))]


def bundle(**counts: int) -> Hand:
    return tuple(counts.get(name, 0) for name in NAMES)


ROAD = bundle(brick=1, lumber=1)
SETTLEMENT = bundle(brick=1, lumber=1, wool=1, grain=1)
CITY = bundle(grain=2, ore=3)
DEV_CARD = bundle(ore=1, wool=1, grain=1)
KNIGHT = bundle(wool=1, ore=1)
ACTIVATION = bundle(grain=1)
PROMOTION = bundle(wool=1, ore=1)
WALL = bundle(brick=2)
MEDICINE_CITY = bundle(ore=2, grain=1)


def _mismatch(a: Hand, b: Hand) -> ValueError:
    return ValueError(f"hands of {len(a)} and {len(b)} kinds")


# map over operator functions: the hot loops of every roll, payment and listing of affordable moves.
def add(a: Hand, b: Hand) -> Hand:
    if len(a) != len(b):
        raise _mismatch(a, b)
    return tuple(map(operator.add, a, b))


def sub(a: Hand, b: Hand) -> Hand:
    if len(a) != len(b):
        raise _mismatch(a, b)
    return tuple(map(operator.sub, a, b))


def covers(a: Hand, b: Hand) -> bool:
    if len(a) != len(b):
        raise _mismatch(a, b)
    return all(map(operator.ge, a, b))


def _one(kind: int, n: int) -> Hand:
    return tuple(n if k == kind else 0 for k in KINDS)


_SINGLE = tuple(_one(k, 1) for k in KINDS)


def one(kind: int, n: int = 1) -> Hand:
    return _SINGLE[kind] if n == 1 else _one(kind, n)


def total(hand: Hand) -> int:
    return sum(hand)


# Tracks of city improvements, keyed by name, never by colour (editions recolour).
TRADE, POLITICS, SCIENCE = 0, 1, 2
TRACKS = ("trade", "politics", "science")
TRACK_COMMODITY = (CLOTH, COIN, PAPER)

# Base-game development deck.
DEV_DECK = (
    (("knight",) * 14)
    + (("victory_point",) * 5)
    + (("road_building",) * 2 + ("year_of_plenty",) * 2 + ("monopoly",) * 2)
)

# Progress decks with copies, per track (2020 names; 6e names are a view concern).
SCIENCE_DECK = {
    "alchemist": 2, "crane": 2, "engineer": 1, "inventor": 2, "irrigation": 2,
    "medicine": 2, "mining": 2, "printer": 1, "road_building": 2, "smith": 2,
}  # fmt: skip
POLITICS_DECK = {
    "bishop": 2, "constitution": 1, "deserter": 2, "diplomat": 2, "intrigue": 2,
    "saboteur": 2, "spy": 3, "warlord": 2, "wedding": 2,
}  # fmt: skip
TRADE_DECK = {
    "commercial_harbor": 2, "master_merchant": 2, "merchant": 6, "merchant_fleet": 2,
    "resource_monopoly": 4, "trade_monopoly": 2,
}  # fmt: skip
DECKS = (TRADE_DECK, POLITICS_DECK, SCIENCE_DECK)
VP_CARDS = ("constitution", "printer")


def deck_cards(track: int) -> tuple[str, ...]:
    return tuple(name for name, n in sorted(DECKS[track].items()) for _ in range(n))


def track_of(card: str) -> int:
    return next(t for t, deck in enumerate(DECKS) if card in deck)
