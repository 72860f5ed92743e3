"""The bot levels against each other (issue 25), on one core, no servers.

For every game at its fewest seats (or ``--seats``): ``hard`` against ``medium`` and ``medium``
against ``easy``. One seat plays the level under test and every other seat
the level it is measured against; the tested seat moves round the table from
game to game. Printed per pairing: the tested level's win rate (a sole first
place; a shared one is counted apart) with its 95 % Wilson interval, its fair
share and the issue's target (0.7 at two seats, twice the fair share at more),
the mean final score of each side, and the CPU time per move of each level
(``process_time``, p50/p95). Games are capped at ``--max-steps`` commands; one
cut short counts as no win and is reported.

    python -m bench.bots --games 20                  # every game
    python -m bench.bots --games 4 --keys tigris,conan
    python -m bench.bots --games 8 --skip 8 --keys tigris-cards --pairings hard-medium
    python -m bench.bots --games 8 --seats 4 --keys catan,conan,tigris --pairings hard-medium
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.table import Table

from bench.common import fmt, machine, make_console, quantile, write_json
from shared.games import registry
from shared.kernel.contract import Bot
from shared.kernel.playout import play
from shared.kernel.rng import Rng

console = make_console()
PAIRINGS = (("hard", "medium"), ("medium", "easy"))
KEYS = ("tigris", "tigris-cards", "catan", "catan-ck", "conan")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (sound at 0 and n wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _timed(bot: Bot, into: list[float]) -> Bot:
    def timed(state: Any, seat: int, rng: Rng) -> Any:
        start = time.process_time()
        command = bot(state, seat, rng)
        into.append(time.process_time() - start)
        return command

    return timed


def _ms(samples: list[float], q: float) -> float:
    return quantile(sorted(samples), q) * 1e3


def pairing(
    key: str,
    tested: str,
    against: str,
    games: int,
    max_steps: int,
    progress: Callable[[str], None],
    skip: int = 0,
    seats: int | None = None,
) -> dict[str, Any]:
    game = registry.get(key)
    # Asked for more seats than the game takes (or fewer): its own bounds.
    seats = min(max(seats or game.min_seats, game.min_seats), game.max_seats)
    times: dict[str, list[float]] = {tested: [], against: []}
    wins = shared = cut = 0
    scores: dict[str, list[int]] = {tested: [], against: []}
    for n in range(games):
        seat = (skip + n) % seats
        bots = {s: _timed(game.bots[against], times[against]) for s in range(seats)}
        bots[seat] = _timed(game.bots[tested], times[tested])
        seed = (skip + n + 1).to_bytes(8, "big") * 4
        result = game.result(play(game, seats, seed, bots=bots, max_steps=max_steps).state)
        if result is None:
            cut += 1
        else:
            first = [s.seat for s in result.standings if s.place == 1]
            wins += first == [seat]
            shared += seat in first and len(first) > 1
            for s in result.standings:
                scores[tested if s.seat == seat else against].append(s.score)
        progress(f"{key}: {tested} vs {against}, {n + 1}/{games} games, {wins} won")
    low, high = wilson(wins, games)
    return {
        "game": key,
        "seats": seats,
        "tested": tested,
        "against": against,
        "games": games,
        "wins": wins,
        "shared_first": shared,
        "cut_short": cut,
        "win_rate": wins / games if games else math.nan,
        "wilson95": (low, high),
        "fair_share": 1 / seats,
        "target": 0.7 if seats == 2 else 2 / seats,
        "mean_score": {k: statistics.fmean(v) if v else math.nan for k, v in scores.items()},
        "cpu_ms_per_move": {
            k: {"moves": len(v), "p50": _ms(v, 0.5), "p95": _ms(v, 0.95)} for k, v in times.items()
        },
    }


def run(
    games: int,
    keys: tuple[str, ...] = KEYS,
    max_steps: int = 5_000,
    pairings: tuple[tuple[str, str], ...] = PAIRINGS,
    skip: int = 0,
    seats: int | None = None,
) -> dict[str, Any]:
    rows = []
    with console.status("") as status:
        for key in keys:
            for tested, against in pairings:
                rows.append(pairing(key, tested, against, games, max_steps, status.update, skip, seats))
    return {"games_per_pairing": games, "pairings": rows}


def report(out: dict[str, Any], load: tuple[float, float, float]) -> None:
    table = Table(
        title=f"bot levels, {out['games_per_pairing']} games per pairing (load average before {load[0]:.2f})"
    )
    for col in (
        "game", "seats", "pairing", "win rate", "95 % interval", "target", "shared / cut",
        "mean score (tested / other)", "CPU ms/move tested p50/p95", "other p50/p95",
    ):  # fmt: skip
        table.add_column(col, justify="left" if col in ("game", "pairing") else "right")
    for r in out["pairings"]:
        low, high = r["wilson95"]
        mine, theirs = r["cpu_ms_per_move"][r["tested"]], r["cpu_ms_per_move"][r["against"]]
        table.add_row(
            r["game"], str(r["seats"]), f"{r['tested']} vs {r['against']}",
            f"{r['win_rate']:.0%} ({r['wins']}/{r['games']})", f"{low:.0%}-{high:.0%}",
            f">= {r['target']:.0%}",
            f"{r['shared_first']} / {r['cut_short']}",
            f"{fmt(r['mean_score'][r['tested']])} / {fmt(r['mean_score'][r['against']])}",
            f"{fmt(mine['p50'])} / {fmt(mine['p95'])}", f"{fmt(theirs['p50'])} / {fmt(theirs['p95'])}",
        )  # fmt: skip
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per pairing and game")
    ap.add_argument("--keys", default=",".join(KEYS), help="the games, comma-separated")
    ap.add_argument("--max-steps", type=int, default=5_000, help="commands before a game is cut short")
    ap.add_argument(
        "--pairings",
        default=",".join(f"{t}-{a}" for t, a in PAIRINGS),
        help="tested-against level pairs, comma-separated (e.g. hard-medium)",
    )
    ap.add_argument(
        "--skip", type=int, default=0, help="games to skip: a later run adds new deals to an earlier one's"
    )
    ap.add_argument(
        "--seats",
        type=int,
        default=None,
        help="seats per game (default: each game's fewest; at most its most)",
    )
    args = ap.parse_args(argv)
    load = os.getloadavg()
    pairs = tuple((t, a) for t, _, a in (p.partition("-") for p in args.pairings.split(",") if p))
    keys = tuple(k for k in args.keys.split(",") if k)
    out = run(args.games, keys, args.max_steps, pairs, args.skip, args.seats)
    report(out, load)
    path = write_json(
        "bots", {"machine": machine(), "load_average": {"before": load, "after": os.getloadavg()}, **out}
    )
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
