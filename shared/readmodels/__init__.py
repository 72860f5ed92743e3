"""What each audience of a game reads: the pure build (:mod:`.build`) and its atomic write (:mod:`.writer`).

Shared because the projector, the gateway's reads and ``ziggurat rebuild`` must agree on one format.
"""
