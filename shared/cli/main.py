"""``ziggurat``: run the system, verify a finished game, rebuild projections,
look after dead letters.

The commands that talk to a running system find it in this order: their
flag, then the environment variable, then the ``ziggurat run`` running on
this machine (``var/stack.json``), then the default.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

# Only the standard library up here: a Ctrl-C during the imports of the
# heavier modules below lands inside main()'s guard, not in a traceback.
if TYPE_CHECKING:
    from shared.cli.discovery import RunningStack

DEFAULT_API = "http://127.0.0.1:8000"
DEFAULT_REDIS = "redis://127.0.0.1:6399/0"
DEFAULT_PARTITIONS = 4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ziggurat", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the folder of data, logs and stack.json (default: $ZIGGURAT_ROOT, else var/ in the repo)",
    )

    run = sub.add_parser("run", parents=[common], help="start everything and watch bots play")
    run.add_argument("--game", default=None, help="game key (default: the first hosted of tigris, ...)")
    run.add_argument("--seats", type=int, default=4)
    run.add_argument("--once", action="store_true", help="stop after the demo")
    run.add_argument("--idle", action="store_true", help="start everything, play no demo, run until Ctrl-C")

    verify = sub.add_parser(
        "verify", parents=[common], help="re-derive every shuffle and roll of a finished game"
    )
    verify.add_argument("game_id")
    verify.add_argument(
        "--api", default=None, help=f"the gateway (default: $ZIGGURAT_API, the running stack, {DEFAULT_API})"
    )

    rebuild = sub.add_parser(
        "rebuild", parents=[common], help="rebuild projections from the log and compare them"
    )
    rebuild.add_argument("game_ids", nargs="*", metavar="game_id", help="games (default: every game)")
    _redis_arguments(rebuild)
    rebuild.add_argument(
        "--partitions",
        type=int,
        default=None,
        help=f"(default: $ZIGGURAT_PARTITIONS, the running stack's, {DEFAULT_PARTITIONS})",
    )
    rebuild.add_argument("--write", action="store_true", help="overwrite the live projections")
    rebuild.add_argument(
        "--read-models",
        default=None,
        metavar="URL",
        help="the read models' own server (default: $ZIGGURAT_READ_MODEL_URL, the running stack's, "
        "the store's); the logs are read from --redis",
    )
    rebuild.add_argument(
        "--workers",
        type=_workers,
        default=1,
        help="processes that build and write the models with --write (default: 1, this one; more pay "
        "only with cores to spare beyond this one's and Valkey's)",
    )

    dead = sub.add_parser("dead-letters", parents=[common], help="list, show, retry or drop dead letters")
    dead.add_argument("action", choices=("list", "show", "retry", "drop"))
    dead.add_argument(
        "entry_id", nargs="?", default=None, metavar="ID", help="the dead letter (show, retry, drop)"
    )
    _redis_arguments(dead)

    bot = sub.add_parser("bot", parents=[common], help="play a player account's tables through the bot API")
    bot.add_argument("--key", default=os.environ.get("ZIGGURAT_PLAYER_KEY"), help="the player key")
    bot.add_argument(
        "--strategy",
        choices=("easy", "medium", "hard", "random", "greedy"),
        default="random",
        help="a level, the game's own bot: easy (random moves), medium (one-move greedy), hard (a "
        "search over the states its seat could be in, ~200 ms of CPU a move); the levels read the "
        "table from the store (--redis), beside the deployment, and see only their seat's view of "
        "it. random or greedy: from the view's legal moves alone, through the API only (default: "
        "random)",
    )
    _redis_arguments(bot)
    bot.add_argument("--games", type=int, default=0, help="stop after this many finished tables (0: never)")
    bot.add_argument("--seed", type=int, default=None, help="seed the strategy's choices")
    bot.add_argument(
        "--api", default=None, help=f"the gateway (default: $ZIGGURAT_API, the running stack, {DEFAULT_API})"
    )

    args = parser.parse_args(argv)
    with _interrupt_deferred() as interrupted:
        command = _load(args.command)
    try:
        if interrupted:
            raise KeyboardInterrupt
        return command(args)
    except KeyboardInterrupt:
        # Ctrl-C is how `run` is meant to end; anything else was cut short.
        return 0 if args.command == "run" else 130


#: Most rebuild processes: each holds a connection and a share of the models in memory.
MAX_WORKERS = 32


def _workers(text: str) -> int:
    """``--workers``: a whole number from 1 to MAX_WORKERS, else argparse's clear error."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"{n} is not between 1 and {MAX_WORKERS}")
    return n


@contextmanager
def _interrupt_deferred() -> Iterator[list[int]]:
    """Ctrl-C recorded, not raised, while the command's modules are imported.

    Raised there, a KeyboardInterrupt can land in the import machinery's
    callbacks, where the interpreter prints it and carries on, or in a
    library's catch-all: the interrupt is lost and the command runs anyway.
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received  # (a test calling main() from a thread: signals are not ours)
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, previous)


def _load(command: str) -> Callable[[argparse.Namespace], int]:
    from shared.cli import discovery

    if command == "run":
        from shared.cli.run import run_command

        def run(args: argparse.Namespace) -> int:
            return run_command(args.game, args.seats, args.once, args.idle, _root(args))

        return run
    if command == "dead-letters":
        from shared.cli.deadletters import dead_letters_command

        def dead_letters(args: argparse.Namespace) -> int:
            url, cluster, _ = _redis_target(args, discovery.running_stack(_root(args)))
            return _reaching(url, lambda: dead_letters_command(args.action, args.entry_id, url, cluster))

        return dead_letters
    if command == "bot":
        from shared.cli.bot import bot_command

        def play(args: argparse.Namespace) -> int:
            if not args.key:
                print("ziggurat bot: give --key (or set ZIGGURAT_PLAYER_KEY)", file=sys.stderr)
                return 2
            running = discovery.running_stack(_root(args))
            api = args.api or os.environ.get("ZIGGURAT_API") or (running.api if running else DEFAULT_API)
            store = _redis_target(args, running) if args.strategy in ("easy", "medium", "hard") else None
            return _reaching(
                api, lambda: bot_command(api, args.key, args.strategy, args.games, args.seed, store)
            )

        return play
    from shared.cli.audit import rebuild_command, verify_command

    if command == "verify":

        def verify(args: argparse.Namespace) -> int:
            running = discovery.running_stack(_root(args))
            api = args.api or os.environ.get("ZIGGURAT_API") or (running.api if running else DEFAULT_API)
            return _reaching(api, lambda: verify_command(args.game_id, api.rstrip("/")))

        return verify

    def rebuild(args: argparse.Namespace) -> int:
        running = discovery.running_stack(_root(args))
        url, cluster, partitions = _redis_target(args, running)
        ours = running if running is not None and running.redis_url == url else None
        # "start" asks `ziggurat run` to start a server: it names none.
        env_read = os.environ.get("ZIGGURAT_READ_MODEL_URL", "")
        env_read = "" if env_read == "start" else env_read
        read_url = args.read_models or env_read or (ours.read_model_url if ours else "")
        return _reaching(
            url,
            lambda: rebuild_command(
                url, partitions, args.game_ids, args.write, cluster, args.workers, read_url
            ),
        )

    return rebuild


def _root(args: argparse.Namespace) -> Path:
    from shared.cli import discovery

    return Path(args.root) if args.root else discovery.default_root()


def _reaching(target: str, command: Callable[[], int]) -> int:
    """``command()``, or one line and 2 if it cannot connect to ``target``."""
    try:
        return command()
    except _unreachable() as exc:
        from rich.console import Console
        from rich.markup import escape

        Console(stderr=True, soft_wrap=True).print(
            f"[red]cannot connect to {escape(_redacted(target))}:[/] {escape(_one_line(exc))}",
            highlight=False,
        )
        return 2


def _unreachable() -> tuple[type[BaseException], ...]:
    """What "cannot connect" looks like from httpx, redis-py and the socket layer."""
    import httpx
    from redis import exceptions

    return (
        httpx.TransportError,
        exceptions.ConnectionError,
        exceptions.TimeoutError,
        exceptions.RedisClusterException,
        ConnectionError,
        TimeoutError,
    )


def _redis_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis", default=None, help=f"(default: $ZIGGURAT_REDIS_URL, the running stack's, {DEFAULT_REDIS})"
    )
    parser.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the URL names a node of a Redis Cluster (default: $ZIGGURAT_CLUSTER, the running stack's)",
    )


def _redis_target(args: argparse.Namespace, running: RunningStack | None) -> tuple[str, bool, int]:
    """The Redis URL, cluster flag and partitions: flag, environment, running stack, default."""
    url = (
        args.redis
        or os.environ.get("ZIGGURAT_REDIS_URL")
        or (running.redis_url if running else DEFAULT_REDIS)
    )
    # What the running stack says of its cluster flag and partitions is true of
    # its own Redis only, not of another one named on the command line.
    ours = running if running is not None and running.redis_url == url else None
    env_cluster = os.environ.get("ZIGGURAT_CLUSTER")
    if args.cluster is not None:
        cluster = bool(args.cluster)
    elif env_cluster:
        cluster = env_cluster.lower() in ("1", "true", "yes")
    else:
        cluster = ours.cluster if ours else False
    env_partitions = os.environ.get("ZIGGURAT_PARTITIONS")
    partitions = getattr(args, "partitions", None) or (
        int(env_partitions) if env_partitions else ours.partitions if ours else DEFAULT_PARTITIONS
    )
    return url, cluster, partitions


def _redacted(url: str) -> str:
    """The URL without its password, if it has one."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
