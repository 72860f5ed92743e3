"""What each audience of a game reads: the pure build (:mod:`.build`), its atomic write
(:mod:`.writer`), a game's models from its log (:mod:`.rebuild`, pure) and many games'
rebuilt on the live servers (:mod:`.rebuilder`), and the audit log with its
verification (:mod:`.audit`).

Shared because the projector, the gateway's reads and ``ziggurat rebuild`` and
``ziggurat verify`` must agree on one format.
"""
