"""Pairing: who sits at which table, in which seat order, and who has a bye.

Pure functions of the players, their points and the history of earlier
rounds, plus an :class:`shared.kernel.rng.Rng` for the tie-breaking shuffles.
The rules call them inside ``decide`` and write the outcome into the event,
so replaying the log never pairs again.
"""

from shared.tournaments.pairing.common import History, Pairing, history, order_seats, table_sizes

__all__ = ["History", "Pairing", "history", "order_seats", "table_sizes"]
