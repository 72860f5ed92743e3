"""A Ziggurat bot in plain Python (standard library only): copy it and make it smarter.

    python examples/bot.py --api http://127.0.0.1:8000 --key zpk_...

Get a key once with  POST /v1/players {"name": "My bot", "bot": true}.
The bot holds one stream for every table its player sits at; each ``turn``
event carries the seat's view with its legal moves, and the bot answers with
one of them through the command route, using the same key.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


def stream(api: str, key: str, last_id: str | None) -> Iterator[tuple[str, str | None, str]]:
    """Yield (event, id, data) from the bot stream; resumes after ``last_id``."""
    headers = {"Authorization": f"Bearer {key}"}
    if last_id:
        headers["Last-Event-ID"] = last_id
    request = urllib.request.Request(f"{api}/v1/bot/stream", headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        event, event_id, data = "message", None, ""
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data = line[6:]
            elif not line:
                if event_id or data:
                    yield event, event_id, data
                event, event_id, data = "message", None, ""


def legal_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's legal moves one by one. The view lists them in groups (see the
    README's bot API): ``{"command": C}`` is the move ``C``, and
    ``{"command": P, "each": F, "values": [...]}`` is ``P`` with field ``F`` set
    to each value in turn (a Tigris tile colour on each square it may go)."""
    moves = []
    for group in view["legal"]:
        if "each" in group:
            moves += [{**group["command"], group["each"]: value} for value in group["values"]]
        else:
            moves.append(group["command"])
    return moves


def choose(view: dict[str, Any]) -> Any:
    """The strategy: here, any legal move. This is the function to improve."""
    return random.choice(legal_moves(view))


def play(api: str, key: str, table: str, seat: int, version: int, move: Any) -> None:
    body = json.dumps({"command": move, "expected_version": version}).encode()
    headers = {
        "Authorization": f"Bearer {key}",
        "Content-Type": "application/json",
        # The same key for the same turn: a repeated turn never plays twice.
        "Idempotency-Key": f"{table}:{seat}:{version}",
    }
    request = urllib.request.Request(f"{api}/v1/tables/{table}/commands", body, headers, method="POST")
    try:
        urllib.request.urlopen(request, timeout=30).close()
    except urllib.error.HTTPError as refused:  # e.g. stale_version: the next turn will come
        print(table, json.load(refused).get("code"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", default="http://127.0.0.1:8000")
    parser.add_argument("--key", required=True)
    args = parser.parse_args()
    last_id = None
    while True:
        try:
            for event, event_id, data in stream(args.api, args.key, last_id):
                last_id = event_id or last_id
                if event == "turn":
                    turn = json.loads(data)
                    if turn["view"]["legal"]:
                        move = choose(turn["view"])
                        play(args.api, args.key, turn["table_id"], turn["seat"], turn["version"], move)
                elif event == "over":
                    print(json.loads(data)["table_id"], "is over")
        except (OSError, urllib.error.URLError) as lost:  # dropped: resume where we were
            print("reconnecting:", lost)
            time.sleep(1)


if __name__ == "__main__":
    main()
