"""The pure, game-agnostic kernel: the contract every game module fulfils.

Nothing here performs I/O, reads the clock or touches global randomness.
"""
