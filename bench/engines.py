"""Rules-engine benchmark: random self-play of every registered game on one core.

For each game in ``shared.games.registry.available()`` (the fixture game
``highcard`` included), plays whole games with the game's random bot (or the
one ``--bot`` names) through ``shared.kernel.playout.play``, the same
create/decide/evolve sequence the reducer runs, with legal-move generation by
the bot. Prints games/s,
actions/s and events/s (median of several timed runs), and the cost of each
contract function on states met in those games: ``legal``, ``view`` (+ JSON
encoding, as the projector does), ``decide``, ``evolve`` and the random bot,
and the acting seat's legal list as the projector writes it into the view
document: its groups (``compact_legal``) with their JSON, beside the flat list
with its JSON, and the bytes of each.
Those per-call costs are what the validator, reducer and projector pay per
command. Single process, no assertion on timings.

    python -m bench.engines                    # every game, 5 runs of ~2 s each
    python -m bench.engines --games tigris,catan --runs 3 --seconds 3
    python -m bench.engines --games conan --seats 4 --bot heuristic

When Catan is among the games, the run ends with ``bench.catan_peer``:
catanatron's random self-play against ours in the same run (``--peer-games``,
``--peer-reps``; ``--peer-reps 0`` skips it).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import msgspec
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench.common import ensure_extra_games, fmt, machine, make_console, write_json

console = make_console()
_json = msgspec.json.Encoder().encode


def timed_run(game: Any, seats: int, seconds: float, seed0: int, bot: str = "random") -> dict[str, float]:
    """Play whole games until ``seconds`` have passed (at least one game)."""
    from shared.kernel.playout import play

    games = actions = events = unfinished = 0
    bots = {s: game.bots[bot] for s in range(seats)}
    started = time.perf_counter()
    while True:
        seed = (seed0 + games).to_bytes(32, "big")
        p = play(game, seats, seed, bots=bots)
        games += 1
        actions += len(p.steps)
        events += len(p.opening) + sum(len(s.events) for s in p.steps)
        unfinished += not game.is_over(p.state)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    return {
        "games": games,
        "actions": actions,
        "events": events,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "events_per_s": events / elapsed,
        "unfinished": unfinished,
    }


def call_costs(game: Any, seats: int, seed: int, samples: int = 300) -> dict[str, float]:
    """Mean microseconds per call of each contract function, over states of one game."""
    from shared.kernel.playout import play
    from shared.kernel.rng import Rng

    seed_bytes = seed.to_bytes(32, "big")
    p = play(game, seats, seed_bytes)
    state = game.fold(p.opening)
    points: list[tuple[Any, Any]] = []  # (state before, step)
    for step in p.steps:
        points.append((state, step))
        state = game.fold(step.events, state)
    stride = max(1, len(points) // samples)
    points = points[::stride]
    audiences = [None, *range(seats)]
    out: dict[str, float] = {}

    def clock(name: str, fn: Any, n: int) -> None:
        t = time.perf_counter()
        fn()
        out[name] = (time.perf_counter() - t) / max(1, n) * 1e6

    clock("legal_us", lambda: [game.legal(s, st.seat) for s, st in points], len(points))
    clock("legal_json_us", lambda: [_json(game.legal(s, st.seat)) for s, st in points], len(points))
    clock("compact_json_us", lambda: [_json(game.compact_legal(s, st.seat)) for s, st in points], len(points))
    clock(
        "view_json_us",
        lambda: [_json(game.view(s, a)) for s, _ in points for a in audiences],
        len(points) * len(audiences),
    )
    clock(
        "decide_us",
        lambda: [game.decide(s, st.seat, st.command, Rng(seed_bytes, st.version)) for s, st in points],
        len(points),
    )
    n_events = sum(len(st.events) for _, st in points)
    clock("evolve_us", lambda: [game.fold(st.events, s) for s, st in points if st.events], n_events)
    bot = game.bots["random"]
    clock("bot_us", lambda: [bot(s, st.seat, Rng(bytes(32), st.version)) for s, st in points], len(points))
    out["legal_moves_mean"] = statistics.fmean(len(game.legal(s, st.seat)) for s, st in points)
    out["legal_bytes_mean"] = statistics.fmean(len(_json(game.legal(s, st.seat))) for s, st in points)
    out["compact_bytes_mean"] = statistics.fmean(
        len(_json(game.compact_legal(s, st.seat))) for s, st in points
    )
    out["view_bytes_mean"] = statistics.fmean(len(_json(game.view(s, 0))) for s, _ in points)
    out["events_per_action"] = n_events / max(1, len(points))
    return out


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    from shared.games import registry

    ap = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game keys (default: every available game)")
    ap.add_argument("--seats", type=int, default=None, help="seats per table (default: min seats, >= 2)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per game; the median is reported")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run (default 2)")
    ap.add_argument("--name", default="engines", help="result file var/bench/<name>.json")
    ap.add_argument("--bot", default="random", help="bot playing every seat (default random)")
    ap.add_argument("--peer-games", type=int, default=20, help="games per engine per peer round")
    ap.add_argument("--peer-reps", type=int, default=5, help="peer rounds (bench.catan_peer); 0 skips")
    args = ap.parse_args(argv)
    keys = [k for k in args.games.split(",") if k] or registry.available()
    if lacking := [k for k in keys if args.bot not in registry.get(k).bots]:
        ap.error(f"no {args.bot!r} bot in {', '.join(lacking)}")
    results: dict[str, Any] = {}
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[info]}"),
        console=console,
    ) as progress:
        overall = progress.add_task("games", total=len(keys), info="")
        for key in keys:
            game = registry.get(key)
            seats = args.seats or max(2, game.min_seats)
            task = progress.add_task(f"{key} ({seats} seats)", total=args.runs + 1, info="")
            runs = []
            for i in range(args.runs):
                runs.append(timed_run(game, seats, args.seconds, seed0=1_000 * i + 1, bot=args.bot))
                progress.update(
                    task, advance=1, info=f"{runs[-1]['games_per_s']:,.1f} games/s, "
                    f"{runs[-1]['actions_per_s']:,.0f} actions/s"
                )  # fmt: skip
            costs = call_costs(game, seats, seed=7)
            progress.update(task, advance=1)
            results[key] = {
                "seats": seats,
                "runs": runs,
                "games_per_s": statistics.median(r["games_per_s"] for r in runs),
                "actions_per_s": statistics.median(r["actions_per_s"] for r in runs),
                "events_per_s": statistics.median(r["events_per_s"] for r in runs),
                "actions_per_game": sum(r["actions"] for r in runs) / sum(r["games"] for r in runs),
                "unfinished": sum(r["unfinished"] for r in runs),
                "costs": costs,
            }
            progress.update(overall, advance=1)
    table = Table(title=f"{args.bot} self-play, one core (median of {args.runs} runs of ~{args.seconds:g} s)")
    for col in ("game", "seats", "games/s", "actions/s", "events/s", "actions/game", "legal moves"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for col in ("legal µs", "flat+json µs / B", "groups+json µs / B", "view+json µs", "decide µs"):
        table.add_column(col, justify="right")
    for col in ("evolve µs/event", "bot µs"):
        table.add_column(col, justify="right")
    for key, r in results.items():
        c = r["costs"]
        table.add_row(
            key,
            str(r["seats"]),
            fmt(r["games_per_s"], 1),
            fmt(r["actions_per_s"], 0),
            fmt(r["events_per_s"], 0),
            fmt(r["actions_per_game"], 0),
            fmt(c["legal_moves_mean"], 0),
            fmt(c["legal_us"], 0),
            f"{fmt(c['legal_json_us'], 0)} / {fmt(c['legal_bytes_mean'], 0)}",
            f"{fmt(c['compact_json_us'], 0)} / {fmt(c['compact_bytes_mean'], 0)}",
            fmt(c["view_json_us"], 0),
            fmt(c["decide_us"], 0),
            fmt(c["evolve_us"], 1),
            fmt(c["bot_us"], 0),
        )
    console.print(table)
    path = write_json(args.name, {"machine": machine(), "games": results})
    console.print(f"figures written to {path}")
    if args.peer_reps > 0 and "catan" in keys:
        from bench import catan_peer

        catan_peer.run(args.peer_games, args.peer_reps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
