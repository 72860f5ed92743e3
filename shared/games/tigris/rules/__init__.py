"""The rules of the board game, one module per concept (docs/rules/tigris.md)."""
