"""The rules of the card game (docs/rules/tigris-cards.md), one module per concept; all pure functions."""
