"""What the Tigris & Euphrates board game and its card game share.

Both games have the same four colours, the same four leaders per dynasty, and
the same final scoring: a player is as strong as their weakest colour, with
treasures as wildcards. The two engines import these instead of keeping
copies that could drift apart.
"""
