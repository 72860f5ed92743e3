"""One instance of every command and event, for codec and visibility tests."""

from __future__ import annotations

from shared.games.tigris import commands as cmd
from shared.games.tigris import events as ev
from shared.games.tigris.board import STARTING_TEMPLES, Monument
from shared.games.tigris.options import Options
from shared.games.tigris.state import MonumentOption
from shared.games.tigris_common.colours import Colour, Leader

R, B, G, K = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK

EVERY_EVENT: list[ev.TigrisEvent] = [
    ev.GameStarted(seats=3, options=Options(open_scoring=True), first=2, temples=STARTING_TEMPLES),
    ev.BagFilled(order=(R, B, G, K, K)),
    ev.TilesDrawn(seat=1, tiles=(R, R, K)),
    ev.TilesDrawnCount(seat=1, count=3),
    ev.TilesDiscarded(seat=0, tiles=(G,)),
    ev.TilesDiscardedCount(seat=0, count=1),
    ev.TurnStarted(seat=2),
    ev.LeaderPositioned(seat=0, leader=Leader.TRADER, square=17, origin=None),
    ev.LeaderReturned(seat=0, leader=Leader.KING, reason="no_temple"),
    ev.TilePlaced(seat=2, colour=B, square=4),
    ev.MarkerPlaced(square=70),
    ev.MarkerRemoved(square=70),
    ev.PointsScored(seat=1, colour=G, amount=4, reason="war"),
    ev.CatastrophePlaced(seat=1, square=33, destroyed=None),
    ev.ActionPassed(seat=0),
    ev.RevoltStarted(colour=K, attacker=0, defender=1, attacker_base=2, defender_base=1),
    ev.WarsPending(colours=(G, K)),
    ev.WarStarted(colour=G, attacker=1, defender=0, attacker_base=1, defender_base=2),
    ev.SupportCommitted(seat=1, colour=R, count=3),
    ev.ConflictResolved(conflict="war", colour=G, winner=1, loser=0, attacker_total=5, defender_total=3),
    ev.TilesRemoved(colour=G, squares=(72, 73)),
    ev.MonumentOffered(seat=0, options=(MonumentOption(top_left=69, monument=Monument.RED_BLUE),)),
    ev.MonumentBuilt(seat=0, monument=Monument.BLACK_RED, top_left=69),
    ev.MonumentDeclined(seat=0, top_lefts=(69, 70)),
    ev.TreasureChoiceOffered(seat=2, count=2, candidates=(17, 31, 90), stage="treasures"),
    ev.TreasuresTaken(seat=2, squares=(17, 31)),
    ev.ActionEnded(seat=2, number=1),
    ev.GameEnded(reason="bag_empty"),
]

EVERY_COMMAND: list[cmd.TigrisCommand] = [
    cmd.PositionLeader(leader=Leader.PRIEST, square=9),
    cmd.WithdrawLeader(leader=Leader.FARMER),
    cmd.PlaceTile(colour=B, square=4),
    cmd.PlaceCatastrophe(square=100),
    cmd.SwapTiles(red=1, black=2),
    cmd.Pass(),
    cmd.CommitSupport(count=3),
    cmd.ChooseWarColour(colour=K),
    cmd.BuildMonument(top_left=69, monument=Monument.BLUE_GREEN),
    cmd.DeclineMonument(),
    cmd.TakeTreasures(squares=(17, 31)),
]
