"""What a seat may ask for. Hand cards are named by colour: equal cards are
interchangeable, so one command per colour keeps ``legal`` free of duplicates."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from shared.games.tigris_cards.cards import Card
from shared.games.tigris_cards.options import Cards
from shared.games.tigris_cards.state import GAPS, Column, Spot
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.messages import Command

Gap = Annotated[int, Meta(ge=0, le=GAPS - 1)]


class PlaceLeader(Command, tag="tigris-cards.place_leader"):
    """From the supply, or moved from another card."""

    leader: Leader
    spot: Spot


class WithdrawLeader(Command, tag="tigris-cards.withdraw_leader"):
    leader: Leader


class PlayCard(Command, tag="tigris-cards.play_card"):
    colour: Colour
    column: Column


class PlayConnector(Command, tag="tigris-cards.play_connector"):
    colour: Colour
    gap: Gap


class PlayCatastrophe(Command, tag="tigris-cards.play_catastrophe"):
    spot: Spot


class Pass(Command, tag="tigris-cards.pass"):
    pass


class CommitSupport(Command, tag="tigris-cards.commit_support"):
    """Cards of the conflict's support colour laid from hand (0 or more)."""

    count: Cards


class ChooseConflictColour(Command, tag="tigris-cards.choose_conflict"):
    colour: Colour


class ScoreCard(Command, tag="tigris-cards.score_card"):
    """Accept the offered VP: lay one card of the offered colour from hand."""


class BuildShip(Command, tag="tigris-cards.build_ship"):
    ship: Card


class TakeTreasure(Command, tag="tigris-cards.take_treasure"):
    column: Column


class Decline(Command, tag="tigris-cards.decline"):
    """Turn down the offered VP, ship or treasure."""


TigrisCardsCommand = (
    PlaceLeader
    | WithdrawLeader
    | PlayCard
    | PlayConnector
    | PlayCatastrophe
    | Pass
    | CommitSupport
    | ChooseConflictColour
    | ScoreCard
    | BuildShip
    | TakeTreasure
    | Decline
)
