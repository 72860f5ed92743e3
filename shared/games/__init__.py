"""The games Ziggurat hosts, one package each, found through :mod:`.registry`."""
