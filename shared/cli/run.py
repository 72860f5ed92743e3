"""``ziggurat run`` (``make run``): the whole system on the embedded default,
with small Swiss tournaments of bots (one per hosted demo game) run to the end
by the tournament service, live standings and the spectator feed in the terminal."""

from __future__ import annotations

import asyncio
import os
import signal
import socket

import httpx
from rich.console import Console

from shared.cli.tournament_demo import run_tournaments
from shared.infra.launcher import REPO, Stack
from shared.infra.valkey_server import free_port

#: The tournament demo's games: random bots finish these in a few hundred
#: moves; Catan takes thousands (``--game catan-ck`` still runs it).
TOURNAMENT_GAMES = ("tigris", "conan", "tigris-cards")
DEMO_BOTS = 8
DEMO_ROUNDS = 2


def port_or_free(preferred: int) -> int:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            return free_port()


def run_command(game: str | None, seats: int, once: bool) -> int:
    console = Console()
    stack = Stack(
        root=REPO / "var",
        redis_url=os.environ.get("ZIGGURAT_REDIS_URL"),
        valkey_port=port_or_free(int(os.environ.get("ZIGGURAT_VALKEY_PORT", "6399"))),
        http_port=port_or_free(int(os.environ.get("ZIGGURAT_HTTP_PORT", "8000"))),
        partitions=int(os.environ.get("ZIGGURAT_PARTITIONS", "4")),
    )
    console.print("[bold]Ziggurat[/]: starting Valkey and the services ...")
    try:
        stack.start()
        _print_urls(console, stack)
        games = _demo_games(stack.api, game, seats)
        asyncio.run(_demo(console, stack.api, games))
        if not once:
            console.print("\nEverything keeps running; press [bold]Ctrl-C[/] to stop.")
            _wait_for_interrupt()
    except KeyboardInterrupt:
        pass
    finally:
        console.print("stopping ...")
        stack.stop()
        console.print("stopped.")
    return 0


def _print_urls(console: Console, stack: Stack) -> None:
    console.print(
        f"  Redis:    {stack.redis_url}" + ("  (embedded, data in var/valkey)" if stack.valkey else "")
    )
    console.print(f"  API:      {stack.api}")
    console.print(f"  OpenAPI:  {stack.api}/openapi.json")
    for name, url in stack.metrics_urls().items():
        console.print(f"  metrics:  {url:<40} ({name})")
    console.print(f"  logs:     {stack.root / 'logs'}")


def _demo_games(api: str, chosen: str | None, seats: int) -> dict[str, int]:
    """game -> seats per table: the chosen game, or every hosted demo game."""
    hosted = {g["key"]: g for g in httpx.get(f"{api}/v1/games", timeout=30).json()}
    keys = [chosen] if chosen else [k for k in TOURNAMENT_GAMES if k in hosted] or sorted(hosted)[:1]
    out = {}
    for key in keys:
        info = hosted.get(key, {"min_seats": 2, "max_seats": 4})
        out[key] = max(2, info["min_seats"], min(seats, 4, info["max_seats"]))
    return out


async def _demo(console: Console, api: str, games: dict[str, int]) -> None:
    console.print(f"\n[bold]Swiss tournaments of bots[/] over {', '.join(games)}; the tournament service")
    console.print("pairs each round, opens its tables as games and records the results as games end.\n")
    done = await run_tournaments(console, api, list(games), games, DEMO_BOTS, DEMO_ROUNDS)
    console.print("\n[bold]Final standings[/]")
    for w in done:
        top = ", ".join(
            f"{line['line']['rank']}. {line['line']['name']}" for line in w.standings["lines"][:3]
        )
        console.print(f"  {w.game:<14} {top}   ({api}/v1/tournaments/{w.tournament_id}/standings)")
    if done and done[0].tables:
        table_id = done[0].tables[0]
        console.print(
            f"Every table reveals its seed; check one: [bold]ziggurat verify {table_id} --api {api}[/]"
        )


def _wait_for_interrupt() -> None:
    stop = asyncio.Event()

    async def wait() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()

    asyncio.run(wait())
