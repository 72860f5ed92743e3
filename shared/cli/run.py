"""``ziggurat run`` (``make run``): the whole system on the embedded default,
with bots playing a complete game and the spectator feed live in the terminal."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket

import httpx
from rich.console import Console

from shared.cli.botclient import open_table, play
from shared.cli.feed import describe, follow
from shared.infra.launcher import REPO, Stack
from shared.infra.valkey_server import free_port

DEMO_GAMES = ("tigris", "tigris-cards", "catan-ck", "conan")


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
        chosen = game or _first_available(stack.api)
        asyncio.run(_demo(console, stack.api, chosen, seats))
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


def _first_available(api: str) -> str:
    hosted = {g["key"] for g in httpx.get(f"{api}/v1/games", timeout=30).json()}
    for key in DEMO_GAMES:
        if key in hosted:
            return key
    return sorted(hosted)[0]


async def _demo(console: Console, api: str, game: str, seats: int) -> None:
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        table = await open_table(client, game, seats)
        console.print(f"\n[bold]Bots are playing {game}[/] at table {table.table_id} ({seats} seats).")
        console.print(f"Spectator feed: {api}/v1/tables/{table.table_id}/feed\n")
        bots = asyncio.create_task(play(client, table, random.Random(), pace_s=0.01))
        async for entry in follow(client, table.table_id):
            console.print(describe(entry, console.width), highlight=False, markup=False)
        final = await bots
        console.print("\n[bold]Game over.[/]")
        for s in final["result"]["standings"]:
            console.print(
                f"  place {s['place']}: seat {s['seat']}  score {s['score']}  tie-break {s['tiebreak']}"
            )
        console.print(f"Seed revealed: {final['seed']}")
        console.print(f"Check it yourself: [bold]ziggurat verify {table.table_id} --api {api}[/]")


def _wait_for_interrupt() -> None:
    stop = asyncio.Event()

    async def wait() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()

    asyncio.run(wait())
