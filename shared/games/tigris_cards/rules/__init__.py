"""The rules of the card game (docs/rules/tigris-cards.md), one module per concept; all pure functions.

A command's rules write into one :data:`CardsFold`: they read ``f.state`` and
``emit`` events, each folded at once, so a later step of the same command sees
what the earlier ones did (a split kingdom, a leader sent home).
"""

from __future__ import annotations

from typing import TypeAlias

from shared.games.tigris_cards.events import TigrisCardsEvent
from shared.games.tigris_cards.state import State
from shared.kernel.fold import Fold

CardsFold: TypeAlias = Fold[State, TigrisCardsEvent]
