"""Progress cards: one module per deck, and the rules every card shares
(docs/rules/catan.md §12)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import track_of
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.rules.progress import politics, science
from shared.games.catan.rules.progress import trade as trade_deck
from shared.games.catan.state import State

DECK_MODULES = (trade_deck, politics, science)  # indexed like the tracks


def options(state: State, seat: int) -> list[cmd.PlayProgress]:
    """Cards playable now in the action phase; cards with no possible effect are not offered."""
    out: list[cmd.PlayProgress] = []
    if not state.players[seat].cards:  # every deck lists only cards held: none to ask about
        return out
    for module in DECK_MODULES:
        out += module.options(state, seat)
    return out


def play(f: CatanFold, seat: int, c: cmd.PlayProgress) -> None:
    f.emit(ev.CardPlayed(seat=seat, card=c.card))
    DECK_MODULES[track_of(c.card)].play(f, seat, c)
