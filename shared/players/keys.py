"""The store's keys of player accounts, next to (never inside) the games'.

A player's event stream lives in the slot of the partition its id hashes to,
like a game's, so the store's append script (expected version, dedup by
command id) runs on it unchanged; it has its own per-partition append feed,
which no game reader consumes.

Everything else (read models, the key index, each player's tables and turn
inbox) carries one fixed hash tag ``{pl}``, so a script may touch several of
them at once.
"""

from __future__ import annotations

from shared.eventstore.keys import AggregateKeys, platform_key, platform_record


class PlayerKeys(AggregateKeys):
    __slots__ = ()
    namespace = "player"


player_keys = PlayerKeys.of


#: key hash -> player id: how the gateway finds the player a key belongs to.
KEY_INDEX = platform_key("players:keys")
#: Sorted set of player ids by registration time.
PLAYERS_INDEX = platform_key("players:index")
#: table id -> JSON ``[[seat, player id], ...]``: the account seats of live tables.
SEATED = platform_key("players:seated")

#: Hash: the account's read model (name, bot, operator, key_hash, registered_at, version).
player_doc = platform_record("players", "")
#: Hash: table id -> JSON :class:`shared.players.seats.Seat` of each live table it sits at.
player_tables = platform_record("players", ":tables")
#: Set: ids of the casual invitations it has not answered (a fresh bot stream hears of them).
player_invitations = platform_record("players", ":invitations")
#: Set: ids of the casual invitations it hosts that are neither open nor cancelled yet.
player_hosting = platform_record("players", ":hosting")
#: List: JSON seats of its finished tables, newest first.
player_games = platform_record("players", ":games")
#: Hash: game -> JSON :class:`shared.ladders.ladder.PlayerLadder`.
player_ratings = platform_record("players", ":ratings")
#: Stream, ids ``0-<n>``: "look at table T, seat S, at version V", for the bot stream.
inbox = platform_record("players", ":inbox")
#: The number of the player's last inbox entry.
inbox_counter = platform_record("players", ":inbox-n")


def notice_id(player_id: str) -> str:
    """What a change notice names for a player's inbox."""
    return f"player:{player_id}"


def credential_notice(credential_hash: str) -> str:
    """What a change notice names for a credential (a player key) that ended: every
    gateway ends the channels open with it (services/gateway/credentials.py)."""
    return f"credential:{credential_hash}"
