"""Every resource's routes, mounted as the gateway's one routing table.

Each resource module declares its own routes (:class:`services.gateway.routing.Route`)
and imports no other resource (an import contract in pyproject.toml); the
application (``app.py``) serves this table and the OpenAPI document
(``openapi.py``) describes it.
"""

from __future__ import annotations

from services.gateway import arenas, bots, casual, games, pages, players, system, tables, tournaments
from services.gateway.routing import Table

TABLE = Table(
    [
        *tables.routes,
        *system.routes,
        *games.routes,
        *tournaments.routes,
        *players.routes,
        *bots.routes,
        *arenas.routes,
        *casual.routes,
        *pages.routes,
    ]
)
