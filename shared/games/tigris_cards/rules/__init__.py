"""The rules of the card game, one module per concept; all pure functions."""
