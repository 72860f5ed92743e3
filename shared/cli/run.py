"""``ziggurat run`` (``make run``): the whole system on the embedded default,
with small Swiss tournaments of bots (one per hosted demo game) run to the end
by the platform process, live standings and the spectator feed in the terminal.

Ctrl-C, SIGTERM and SIGHUP all stop it the same way: the services first
(SIGTERM, then SIGKILL if they linger), then Valkey. The services and Valkey
run in sessions of their own, so a signal meant for the terminal's foreground
pipeline reaches only this process, which stops them in that order; and they
are told to stop by the kernel should this process die without doing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar, cast, get_args

import httpx
from rich.console import Console
from rich.markup import escape

from shared.cli import discovery
from shared.cli.tournament_demo import run_tournaments
from shared.infra.launcher import Layout, Stack
from shared.infra.valkey_server import free_port

#: The tournament demo's games: random bots finish these in a few hundred
#: moves; Catan takes thousands (``--game catan-ck`` still runs it).
TOURNAMENT_GAMES = ("tigris", "conan", "tigris-cards")
DEMO_BOTS = 8
DEMO_ROUNDS = 2
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
log = logging.getLogger("ziggurat.run")
T = TypeVar("T")


class PipeSafeConsole(Console):
    """A console that keeps going when its reader is gone.

    ``ziggurat run | tee log`` and Ctrl-C: the terminal interrupts ``tee`` as
    well, and rich's answer to the broken pipe is ``SystemExit``, raised by
    the very next line printed, "stopping ...", before anything was stopped.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        # Whatever is still buffered goes nowhere, rather than into an
        # "Exception ignored" at exit when the interpreter flushes it.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.file.fileno())
            os.close(devnull)

    def _check_buffer(self) -> None:
        # A terminal that hung up answers EIO, which rich does not expect.
        try:
            super()._check_buffer()
        except OSError:
            self.on_broken_pipe()


class _Signals:
    """SIGINT, SIGTERM and SIGHUP as KeyboardInterrupt, or, while a coroutine
    runs, as its cancellation (what asyncio.run does for SIGINT alone, and
    only when the default handler is in place)."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._task: asyncio.Task[Any] | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.received = signum
        task = self._task
        if task is not None:
            task.get_loop().call_soon_threadsafe(task.cancel)
            return
        raise KeyboardInterrupt

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        ended = False

        def quiet_once_ended(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            # Cut short, the demo's feed readers fail as their connections
            # close under them; nobody awaits them any more, and asyncio would
            # log each one's traceback as "exception was never retrieved".
            if not ended and self.received is None:
                loop.default_exception_handler(context)

        async def main() -> T:
            nonlocal ended
            self._task = asyncio.current_task()
            asyncio.get_running_loop().set_exception_handler(quiet_once_ended)
            try:
                return await coro
            finally:
                self._task = None
                ended = True

        try:
            result = asyncio.run(main())
        except asyncio.CancelledError:
            raise KeyboardInterrupt from None
        if self.received is not None:  # it came as the coroutine ended: too late to cancel it
            raise KeyboardInterrupt
        return result

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    @contextlib.contextmanager
    def ignored(self) -> Iterator[None]:
        """While stopping: a second Ctrl-C must not cut the stop short (it is
        bounded: whatever lingers is killed)."""
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def preferred_port(console: Console, preferred: int, who: str) -> int:
    """``preferred`` if it is free, else another, saying so."""
    with socket.socket() as s:
        # As the servers bind: a port whose last connections linger in
        # TIME_WAIT (a stack just stopped) is free for them.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            pass
    port = free_port()
    console.print(f"port {preferred} is busy; {who} uses {port} instead")
    return port


def run_command(game: str | None, seats: int, once: bool, idle: bool, root: Path) -> int:
    # Into a file or a pipe, lines are not wrapped, so that a log of them greps well.
    console = PipeSafeConsole(soft_wrap=not sys.stdout.isatty())
    errors = PipeSafeConsole(stderr=True, soft_wrap=not sys.stderr.isatty())
    other = discovery.running_stack(root)
    if other is not None:
        errors.print(
            f"[red]another `ziggurat run` (pid {other.pid}) is using {root}[/]; "
            f"its API is {other.api}. Stop it first, or give --root another folder."
        )
        return 1
    # Warnings and errors from the libraries and the demo go to a file; the
    # terminal shows the demo and one line per problem.
    log_file = root / "logs" / "run.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        filename=log_file, level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    signals = _Signals()
    stack: Stack | None = None
    code = 0
    with signals.installed():
        try:
            stack = _stack(console, root)
            console.print(
                "[bold]Ziggurat[/]: starting "
                + ("Valkey and the services ..." if stack.valkey_port else "the services ...")
            )
            stack.start()
            discovery.write(root, discovery.describe(stack))
            _print_urls(console, stack)
            if not idle:
                try:
                    code = signals.run(_demo(console, stack.api, game, seats))
                except Exception as exc:
                    # The stack may well be fine: leave it up to be looked at.
                    log.exception("the demo failed")
                    what = f"{type(exc).__name__}: {_one_line(exc)}"
                    errors.print(f"[red]the demo failed: {what}[/] (details in {log_file})")
                    code = 1
            if idle or not once:
                console.print("\nEverything keeps running; press [bold]Ctrl-C[/] to stop.")
                _watch(console, stack)
        except KeyboardInterrupt:
            pass
        except (RuntimeError, OSError, httpx.HTTPError) as exc:
            log.exception("ziggurat run failed")
            errors.print(f"[red]ziggurat run: {_one_line(exc)}[/]")
            code = 1
        finally:
            with signals.ignored():
                discovery.remove(root)
                if stack is not None:
                    console.print("stopping ...")
                    stack.stop()
                    console.print("stopped.")
    return code


def _stack(console: Console, root: Path) -> Stack:
    redis_url = os.environ.get("ZIGGURAT_REDIS_URL")
    return Stack(
        root=root,
        redis_url=redis_url,
        cluster=os.environ.get("ZIGGURAT_CLUSTER", "").lower() in ("1", "true", "yes"),
        valkey_port=0
        if redis_url
        else preferred_port(console, int(os.environ.get("ZIGGURAT_VALKEY_PORT", "6399")), "Valkey"),
        http_port=preferred_port(console, int(os.environ.get("ZIGGURAT_HTTP_PORT", "8000")), "the API"),
        partitions=int(os.environ.get("ZIGGURAT_PARTITIONS", "4")),
        # "start": a second Valkey without AOF for the read models (optional).
        read_models=os.environ.get("ZIGGURAT_READ_MODEL_URL") or None,
        # The stages hosted in one process: measured the cheaper on two cores
        # (docs/performance.md, "Round 3: status"); ZIGGURAT_LAYOUT=separate for one each.
        layout=_layout(os.environ.get("ZIGGURAT_LAYOUT", "together")),
    )


def _layout(name: str) -> Layout:
    """How ``ziggurat run`` spreads the stages over processes (``ZIGGURAT_LAYOUT``)."""
    if name not in get_args(Layout):
        raise RuntimeError(f"ZIGGURAT_LAYOUT={name!r}: use one of {', '.join(get_args(Layout))}")
    return cast(Layout, name)


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return escape(lines[0] if lines else type(exc).__name__)


def _print_urls(console: Console, stack: Stack) -> None:
    console.print(
        f"  Redis:    {stack.redis_url}"
        + (f"  (embedded, data in {stack.root / 'valkey'})" if stack.valkey else "")
    )
    console.print(f"  [bold]Lobby:    {stack.api}/[/]  (watch the tournaments live, play against bots)")
    console.print(f"  API:      {stack.api}")
    console.print(f"  OpenAPI:  {stack.api}/openapi.json")
    for name, url in stack.metrics_urls().items():
        console.print(f"  metrics:  {url:<40} ({name})")
    console.print(f"  logs:     {stack.root / 'logs'}")
    console.print(f"  running:  {discovery.stack_file(stack.root)} (read by ziggurat verify, rebuild, ...)")
    targets = escape(str(discovery.targets_file(stack.root)))
    console.print(f"  targets:  {targets} (Prometheus file discovery: every service above)")
    console.print(
        "  Prometheus: prometheus --config.file=deploy/prometheus/local.yml "
        "--storage.tsdb.path=var/prometheus/data --web.listen-address=127.0.0.1:9090"
    )


def _watch(console: Console, stack: Stack) -> None:
    """Until interrupted, saying so if a service ends on its own."""
    reported: set[str] = set()
    while True:
        time.sleep(1.0)
        for name, proc in stack.procs.items():
            if name not in reported and not proc.alive():
                reported.add(name)
                console.print(f"[red]{name} has exited[/]; see {proc.log_path}")


async def _demo(console: Console, api: str, game: str | None, seats: int) -> int:
    games = await _demo_games(api, game, seats)
    if not games:
        console.print(f"[red]no such game: {game}[/]")
        return 1
    console.print(f"\n[bold]Swiss tournaments of bots[/] over {', '.join(games)}; the platform process")
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
        console.print(f"Every table reveals its seed; check one: [bold]ziggurat verify {table_id}[/]")
    return 0


async def _demo_games(api: str, chosen: str | None, seats: int) -> dict[str, int]:
    """game -> seats per table: the chosen game, or every hosted demo game."""
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        hosted = {g["key"]: g for g in (await client.get("/v1/games")).raise_for_status().json()}
    if chosen is not None and chosen not in hosted:
        return {}
    keys = [chosen] if chosen else [k for k in TOURNAMENT_GAMES if k in hosted] or sorted(hosted)[:1]
    return {key: max(2, hosted[key]["min_seats"], min(seats, 4, hosted[key]["max_seats"])) for key in keys}
