"""The ``make run`` demo: small Swiss tournaments of bots, watched live in the terminal.

Everything goes through the public API, as an organiser and a spectator
would use it: create a tournament per game, register bots (``hard`` and
``medium`` in turn, each named with its level), start; the
platform process pairs the rounds, opens the tables and its bot runner
plays them. The terminal shows each tournament's standings, the round in
progress, and the spectator feed of the tables being played.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import httpx
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shared.cli.feed import describe, follow_path

BOT_NAMES = (
    "Ada",
    "Babbage",
    "Curie",
    "Dijkstra",
    "Euler",
    "Fermat",
    "Gauss",
    "Hopper",
    "Ishango",
    "Jacquard",
)
FEED_LINES = 14
#: The entrants' levels, in turn: ``hard`` bots (a search, shared/kernel/search.py)
#: against ``medium`` ones, so the games are played, and the standings show who
#: searches. Each ``hard`` move is ~200 ms of CPU in the platform process.
DEMO_LEVELS = ("hard", "medium")


@dataclass
class Watched:
    """One tournament as the terminal shows it."""

    tournament_id: str
    game: str
    token: str
    standings: dict[str, Any] = field(default_factory=dict)
    pairings: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.standings.get("status") == "finished"


async def setup(client: httpx.AsyncClient, game: str, seats: int, bots: int, rounds: int) -> Watched:
    r = await client.post(
        "/v1/tournaments",
        json={
            "name": f"{game} demo open",
            "game": game,
            "format": "swiss",
            "seats_per_table": seats,
            "rounds": rounds,
        },
    )
    r.raise_for_status()
    created = r.json()
    watched = Watched(created["tournament_id"], game, created["organiser_token"])
    headers = {"authorization": f"Bearer {watched.token}"}
    for i in range(bots):
        level = DEMO_LEVELS[i % len(DEMO_LEVELS)]
        name = f"{BOT_NAMES[i % len(BOT_NAMES)]}-bot" + (
            f" {i // len(BOT_NAMES) + 1}" if i >= len(BOT_NAMES) else ""
        )
        name = f"{name} ({level})"
        r = await client.post(
            f"/v1/tournaments/{watched.tournament_id}/players",
            json={"name": name, "kind": "bot", "bot": level},
            headers=headers,
        )
        r.raise_for_status()
        watched.names[r.json()["player_id"]] = name
    return watched


async def start(client: httpx.AsyncClient, watched: Watched) -> None:
    headers = {"authorization": f"Bearer {watched.token}"}
    r = await client.post(f"/v1/tournaments/{watched.tournament_id}/start", headers=headers)
    r.raise_for_status()


class Demo:
    def __init__(self, console: Console, client: httpx.AsyncClient, tournaments: list[Watched]) -> None:
        self.console = console
        self.client = client
        self.tournaments = tournaments
        self.feed: deque[Text] = deque(maxlen=FEED_LINES)
        self._followers: list[asyncio.Task[None]] = []

    async def run(self) -> None:
        watchers = [asyncio.create_task(self._tournament_feed(w)) for w in self.tournaments]
        try:
            with Live(self.render(), console=self.console, refresh_per_second=4, transient=False) as live:
                self.live = live
                while not all(w.finished for w in self.tournaments):
                    await self._refresh()
                    live.update(self.render())
                    await asyncio.sleep(0.25)
                await self._refresh()
                live.update(self.render())
            await asyncio.gather(*watchers, return_exceptions=True)
        finally:
            # Stopped early (Ctrl-C) or done: no task is left behind unawaited.
            for task in [*watchers, *self._followers]:
                task.cancel()
            await asyncio.gather(*watchers, *self._followers, return_exceptions=True)

    async def _refresh(self) -> None:
        for w in self.tournaments:
            base = f"/v1/tournaments/{w.tournament_id}"
            standings = await self.client.get(f"{base}/standings")
            pairings = await self.client.get(f"{base}/pairings")
            # A refused read (429) keeps what is shown; the next refresh catches up.
            if standings.status_code == 200 and pairings.status_code == 200:
                w.standings, w.pairings = standings.json(), pairings.json()

    def _say(self, message: str) -> None:
        live = getattr(self, "live", None)
        (live.console if live else self.console).print(message, highlight=False)

    async def _tournament_feed(self, w: Watched) -> None:
        async for entry in follow_path(self.client, f"/v1/tournaments/{w.tournament_id}/feed"):
            event = entry["event"]
            kind = event["type"]
            if kind == "tournament.round_paired":
                tables = "; ".join(
                    " vs ".join(w.names.get(p, p) for p in t["players"]) for t in event["tables"]
                )
                self._say(f"[bold]{w.game}[/]: round {event['round']} paired: {tables}")
            elif kind == "tournament.table_opened":
                w.tables.append(event["game_id"])
                self._followers.append(asyncio.create_task(self._table_feed(w, event["game_id"])))
            elif kind == "tournament.result_recorded":
                order = sorted(event["placings"], key=lambda p: p["place"])
                line = ", ".join(
                    f"{p['place']}. {w.names.get(p['player_id'], p['player_id'])}" for p in order
                )
                self._say(f"[bold]{w.game}[/]: {event['game_id']} over: {line}")
            elif kind == "tournament.round_completed":
                self._say(f"[bold green]{w.game}: round {event['round']} complete[/]")
            elif kind == "tournament.finished":
                winner = w.names.get(event["ranking"][0], event["ranking"][0]) if event["ranking"] else "-"
                self._say(f"[bold green]{w.game}: tournament finished; winner {winner}[/]")

    async def _table_feed(self, w: Watched, game_id: str) -> None:
        try:
            async for entry in follow_path(self.client, f"/v1/tables/{game_id}/feed"):
                where = f"{w.game} {'-'.join(game_id.split('-')[-2:])}"
                line = Text(f"{where:<18} ", style="dim")
                line.append(describe(entry, max(40, self.console.width - 24)))
                self.feed.append(line)
        except httpx.HTTPError:
            return

    def render(self) -> RenderableType:
        panels = [self._standings(w) for w in self.tournaments]
        feed = Panel(
            Group(*self.feed) if self.feed else Text("waiting for the first moves ..."),
            title="spectator feed",
        )
        return Group(Columns(panels), feed)

    def _standings(self, w: Watched) -> Panel:
        table = Table(expand=False, show_edge=False, pad_edge=False)
        for name, justify in (("#", "right"), ("player", "left"), ("pts", "right"), ("opp", "right"),
                              ("score", "right"), ("games", "right"), ("rating", "right")):  # fmt: skip
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for rated in w.standings.get("lines", []):
            line = rated["line"]
            table.add_row(
                str(line["rank"]),
                line["name"],
                str(line["points"]),
                str(line["opponents_points"]),
                str(line["score"]),
                str(line["games"]),
                f"{rated['rating']:.1f}",
            )
        return Panel(Group(Text(self._progress(w)), table), title=f"{w.game}  ({w.tournament_id})")

    @staticmethod
    def _progress(w: Watched) -> str:
        s, rounds = w.standings, w.pairings.get("rounds", [])
        if not s:
            return "starting"
        if s["status"] == "finished":
            return f"finished after {len(rounds)} rounds"
        if not rounds:
            return "pairing round 1"
        last = rounds[-1]
        done = sum(1 for t in last["tables"] if t["places"] is not None)
        return f"round {last['number']}/{s['planned_rounds']}: {done}/{len(last['tables'])} tables finished"


async def run_tournaments(
    console: Console, api: str, games: list[str], seats: dict[str, int], bots: int = 8, rounds: int = 2
) -> list[Watched]:
    """Create, start and watch one tournament per game until all are finished."""
    async with httpx.AsyncClient(base_url=api, timeout=60) as client:
        tournaments = [await setup(client, game, seats[game], bots, rounds) for game in games]
        for w in tournaments:
            console.print(
                f"[bold]{w.game}[/]: Swiss, {bots} bots, {seats[w.game]} per table, {rounds} rounds: "
                f"{api}/v1/tournaments/{w.tournament_id}/standings  (feed: .../feed)"
            )
        for w in tournaments:
            await start(client, w)
        await Demo(console, client, tournaments).run()
        return tournaments
