"""Adapters with I/O: the Valkey server, the event store's client side, the broker,
logging and metrics. Pure code never imports from here."""
