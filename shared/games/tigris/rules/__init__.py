"""The rules of the board game, one module per concept (digest Part 1)."""
