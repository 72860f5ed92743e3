"""Casual tables by invitation: pure, event-sourced.

A player (the host) invites other players to the seats of a table of one
game, with seats for our bots if it likes, rated or not. The table opens
once every invited player has accepted; a decline cancels it. Only players
who accepted ever sit at it, so nobody is seated (or rated) against their will.
"""
