"""``ziggurat``: run the system, verify a finished game, rebuild projections."""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ziggurat", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start everything and watch bots play")
    run.add_argument("--game", default=None, help="game key (default: the first hosted of tigris, ...)")
    run.add_argument("--seats", type=int, default=4)
    run.add_argument("--once", action="store_true", help="stop after the demo game")

    verify = sub.add_parser("verify", help="re-derive every shuffle and roll of a finished game")
    verify.add_argument("game_id")
    verify.add_argument("--api", default=os.environ.get("ZIGGURAT_API", "http://127.0.0.1:8000"))

    rebuild = sub.add_parser("rebuild", help="rebuild projections from the log and compare them")
    rebuild.add_argument("game_ids", nargs="*", metavar="game_id", help="games (default: every game)")
    rebuild.add_argument("--redis", default=os.environ.get("ZIGGURAT_REDIS_URL", "redis://127.0.0.1:6399/0"))
    rebuild.add_argument("--partitions", type=int, default=int(os.environ.get("ZIGGURAT_PARTITIONS", "4")))
    rebuild.add_argument("--write", action="store_true", help="overwrite the live projections")
    rebuild.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        default=os.environ.get("ZIGGURAT_CLUSTER", "").lower() in ("1", "true", "yes"),
        help="the URL names a node of a Redis Cluster (default: $ZIGGURAT_CLUSTER)",
    )

    args = parser.parse_args(argv)
    if args.command == "run":
        from shared.cli.run import run_command

        return run_command(args.game, args.seats, args.once)
    if args.command == "verify":
        from shared.cli.audit import verify_command

        return verify_command(args.game_id, args.api.rstrip("/"))
    from shared.cli.audit import rebuild_command

    return rebuild_command(args.redis, args.partitions, args.game_ids, args.write, args.cluster)


if __name__ == "__main__":
    sys.exit(main())
