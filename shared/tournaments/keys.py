"""Redis keys of tournaments, next to (never inside) the games' keys.

A tournament's own stream lives in the slot of the partition its id hashes
to, like a game's, so the store's append script runs on it unchanged. Its
keys use a ``tournament`` namespace instead of ``game``, and its append feed
is a separate per-partition stream: the projector and every other reader of
the game partition feeds never see a tournament event.

Keys shared by every tournament (the command stream, the index, the map from
game ids to tournaments, the bot tables) carry one fixed hash tag ``{t}``.
"""

from __future__ import annotations

from shared.eventstore.keys import PREFIX, AggregateKeys, partition_of

#: The fixed hash tag of the keys every tournament shares.
SHARED_TAG = "{t}"
_SHARED = f"{PREFIX}:{SHARED_TAG}:tournaments"


class TournamentKeys(AggregateKeys):
    """The keys of one tournament; usable wherever the store takes ``GameKeys``.

    ``game_id`` holds the tournament id (the store's envelopes call it so).
    Its read models (``view``: ``standings`` and ``pairings``, JSON) and
    checkpoint are named as a game's are, in the ``tournament`` namespace.
    """

    __slots__ = ()
    namespace = "tournament"

    @property
    def tournament_id(self) -> str:
        return self.game_id

    @property
    def auth(self) -> str:
        """The organiser token's hash (a plain string key)."""
        return self.key("organiser")

    @property
    def players(self) -> str:
        """Player token hash -> player id."""
        return self.key("players")

    @property
    def seat_tokens(self) -> str:
        """``"<game_id>:<seat>"`` -> that seat's token, for the seated player to fetch."""
        return self.key("seat_tokens")

    @property
    def seed(self) -> str:
        """The tournament's secret seed (hex): pairings draw from it."""
        return self.key("seed")


def tournament_keys(tournament_id: str, partitions: int) -> TournamentKeys:
    return TournamentKeys(tournament_id, partition_of(tournament_id, partitions))


#: Every tournament event of a partition, in append order (the store writes it).
tournament_feed = TournamentKeys.append_feed


def tournament_command_stream() -> str:
    """Organiser commands from the gateways, waiting for the platform process."""
    return f"{_SHARED}:commands"


#: Sorted set of tournament ids by creation time.
TOURNAMENTS_INDEX = f"{_SHARED}:index"
#: game id -> tournament id, for every table a tournament opened.
TOURNAMENT_GAMES = f"{_SHARED}:games"
#: Set of tournament game ids that have bot seats still to play.
BOT_TABLES = f"{_SHARED}:bot_tables"


def bot_seats(game_id: str) -> str:
    """seat -> token of the bot seats of one tournament table."""
    return f"{_SHARED}:bots:{game_id}"


def bot_levels(game_id: str) -> str:
    """seat -> level (shared/kernel/levels.py) of a table's bot seats; a seat
    missing from it plays at the default level. Written with :func:`bot_seats`."""
    return f"{_SHARED}:bot_levels:{game_id}"


def changes_key(tournament_id: str) -> str:
    """What a tournament's change notice names on the changes channel."""
    return f"tournament:{tournament_id}"
