"""The web client: plain ES modules, SVG and CSS under ``static/``, served as they are.

Under ``make run`` the gateway mounts it (``/`` and ``/static``); in the
deployments the proxy sends those paths to ``python -m services.web`` instead,
so the gateways answer only the API (docs/architecture.md, "The web client").
"""
