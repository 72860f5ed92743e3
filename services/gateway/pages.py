"""The web client (services/web), served by the gateway under ``make run``: its page
and its static files. In the deployments the proxy routes these two paths to the
web service instead. Not part of the API, so not in the OpenAPI document."""

from __future__ import annotations

from services.gateway.routing import Entry, Mounted, Route
from services.web import assets as client

routes: list[Entry] = [Route("GET", "/", client.index), Mounted("/static", client.ASSETS)]
