"""Final scoring: the weakest colour with treasures as wildcards (docs/rules/tigris.md §17)."""

from __future__ import annotations

from shared.games.tigris.state import Over, State
from shared.games.tigris_common.colours import COLOURS
from shared.games.tigris_common.scoring import rank, strength
from shared.kernel.contract import Result


def strength_of(state: State, seat: int) -> tuple[int, ...]:
    return strength(dict(zip(COLOURS, state.points[seat], strict=True)), state.treasures_won[seat])


def result(state: State) -> Result | None:
    phase = state.phase
    if not isinstance(phase, Over):
        return None
    vectors = [strength_of(state, seat) for seat in range(state.seats)]
    if not state.options.shared_full_ties:
        # A house tie-break, in no rule text (§17): a full tie goes to the seat later in
        # turn order, which had no more turns than those before it.
        vectors = [(*v, (seat - state.first) % state.seats) for seat, v in enumerate(vectors)]
    return Result(standings=rank(vectors), reason=phase.reason)
