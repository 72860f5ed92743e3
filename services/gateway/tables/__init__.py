"""Tables: opening one and playing it (``commands``, ``play_socket``), reading it
(``views``), and the lobby's look at it (``lobby``)."""

from __future__ import annotations

from services.gateway.routing import Route
from services.gateway.tables import commands, lobby, play_socket, views

routes: list[Route] = [*commands.routes, *views.routes, *lobby.routes, *play_socket.routes]
