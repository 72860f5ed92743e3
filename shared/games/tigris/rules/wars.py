"""Wars: a tile uniting two kingdoms that share leader colours (docs/rules/tigris.md §11)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import NEIGHBOURS
from shared.games.tigris.rules.kingdoms import Regions, face_up, flipped, leader_squares, stranded
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import State, Support
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour


def _sides(state: State, regions: Regions) -> list[int]:
    """The kingdoms touching the unification square (the marker is a gap)."""
    assert state.marker is not None
    return sorted(regions.adjacent_kingdoms(state.marker))


def pending(state: State) -> list[Colour]:
    """Colours with leaders in two different kingdoms touching the marker."""
    regions = Regions(state, gap=state.marker)
    sides = _sides(state, regions)
    found = []
    for index, colour in enumerate(COLOURS):
        holding = {rid for rid in sides if regions.leader_of(rid, index) is not None}
        if len(holding) >= 2:
            found.append(colour)
    return found


def next_war(play: Play) -> bool:
    """Start the next war, ask which one, or lift the marker when peace is back."""
    s = play.state
    if s.marker is None:
        return False
    colours = pending(s)
    if not colours:
        play.emit(ev.MarkerRemoved(square=s.marker))
        return False
    if len(colours) == 1:
        start(play, colours[0])
    else:
        play.emit(ev.WarsPending(colours=tuple(colours)))
    return True


def _strength(state: State, regions: Regions, sq: int, colour: Colour) -> int:
    down = flipped(state)
    return sum(1 for x in regions.members[regions.label[sq]] if face_up(state, x, colour, down))


def start(play: Play, colour: Colour) -> None:
    s = play.state
    index = COLOURS.index(colour)
    regions = Regions(s, gap=s.marker)
    sides = set(_sides(s, regions))
    # The seats whose leader of the colour stands in a kingdom the marker joins.
    fronts = {
        seat: at
        for seat in range(s.seats)
        if (at := s.leaders[seat][index]) is not None and regions.label[at] in sides
    }
    seats = list(fronts)
    # The active seat attacks if involved, else the first involved seat after it.
    attacker = min(seats, key=lambda seat: (seat - s.active) % s.seats)
    defender = next(seat for seat in seats if seat != attacker)
    play.emit(
        ev.WarStarted(
            colour=colour,
            attacker=attacker,
            defender=defender,
            attacker_base=_strength(s, regions, fronts[attacker], colour),
            defender_base=_strength(s, regions, fronts[defender], colour),
        )
    )


def casualties(state: State, loser: int, colour: Colour) -> tuple[int, ...]:
    """The loser's supporters on the board that a lost war removes."""
    index = COLOURS.index(colour)
    lost_sq = state.leaders[loser][index]
    assert lost_sq is not None
    regions = Regions(state, gap=state.marker)
    down = flipped(state)
    others = set(leader_squares(state)) - {lost_sq}
    treasures = set(state.treasures)

    def protected(sq: int) -> bool:
        # Priest wars spare treasure temples and temples serving another leader.
        return colour is Colour.RED and (sq in treasures or any(n in others for n in NEIGHBOURS[sq]))

    members = regions.members[regions.label[lost_sq]]
    return tuple(sorted(x for x in members if face_up(state, x, colour, down) and not protected(x)))


def resolve(play: Play, phase: Support, winner: int, loser: int, totals: tuple[int, int]) -> None:
    removed = casualties(play.state, loser, phase.colour)
    play.emit(ev.LeaderReturned(seat=loser, leader=phase.colour.leader, reason="war"))
    if removed:
        play.emit(ev.TilesRemoved(colour=phase.colour, squares=removed))
    # One point for the beaten leader and one per tile actually removed.
    play.emit(ev.PointsScored(seat=winner, colour=phase.colour, amount=1 + len(removed), reason="war"))
    for seat, index in stranded(play.state):
        play.emit(ev.LeaderReturned(seat=seat, leader=LEADERS[index], reason="no_temple"))
    play.emit(
        ev.ConflictResolved(
            conflict="war",
            colour=phase.colour,
            winner=winner,
            loser=loser,
            attacker_total=totals[0],
            defender_total=totals[1],
        )
    )
