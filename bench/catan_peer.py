"""Catan engines side by side: catanatron's random self-play against ours, in one run.

Plays N four-player games with catanatron 3.2.1's ``RandomPlayer`` on every
seat, then N of our ``catan`` (base game) and N of ``catan-ck`` with our
``random`` bot on every seat, back to back in this one process (one core), and
repeats that ``--reps`` times. Prints games/s and actions/s (medians over the
repetitions) and our ``catan`` as a ratio of catanatron, per repetition and as
the median of those ratios, so background load hits both sides alike. Seconds
are this process's CPU seconds, not wall time: on a shared machine, time spent
preempted by other processes would otherwise count against whichever engine
happened to be running.

Like with like, and where it is not:

- catanatron's ``RandomPlayer`` picks uniformly among ``playable_actions``:
  every road spot, settlement spot and maritime trade is one action, and
  ``END_TURN`` is one of them. Ours picks uniformly among the *kinds* of legal
  command, then uniformly within the kind; with ``EndTurn`` legal it ends the
  turn a third of the time outright and skips each "chatter" kind (offers,
  bank trades) three times in four, so that games end.
- A catanatron discard is one action (the engine drops a random half of the
  hand); ours is one command per discarding seat naming the cards, chosen
  among every way to discard. catanatron's random play never trades with
  other players; ours offers, answers and confirms domestic trades, one
  command each. Both move the robber with one action naming the hex and victim.
- catanatron ends a game unfinished after 1,000 turns (counted); ours plays on
  until someone wins.

Actions and turns per game are printed for both, with the share of ours spent
on domestic trade, the part catanatron has no counterpart for. The two random
policies take about three actions a turn alike, but ours builds less often, so
its games last about twice as many turns: compare actions/s for the engines'
speed, games/s for the two engines with their own random players.

    python -m bench.catan_peer                 # 5 repetitions of 20 games each
    python -m bench.catan_peer --games 10 --reps 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from rich.table import Table

from bench.common import fmt, machine, make_console, write_json

console = make_console()

PEER = "catanatron==3.2.1"
INSTALL_HINT = f".venv/bin/pip install -e '.[bench]'   (or: .venv/bin/pip install '{PEER}')"
OURS = ("catan", "catan-ck")
SEATS = 4
# Our commands of the base game that belong to domestic trade (offer, answers, confirmation).
DOMESTIC = ("OfferTrade", "CounterTrade", "Choose")


def catanatron_available() -> bool:
    try:
        import catanatron  # noqa: F401
    except ImportError:
        return False
    return True


def run_catanatron(games: int, seed0: int) -> dict[str, float]:
    from catanatron import Color, Game, RandomPlayer

    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    actions = unfinished = turns = 0
    started = time.process_time()
    for i in range(games):
        game = Game([RandomPlayer(c) for c in colors], seed=seed0 + i)
        unfinished += game.play() is None
        actions += len(game.state.actions)
        turns += game.state.num_turns
    return _figures(games, actions, turns, unfinished, time.process_time() - started)


def run_ours(key: str, games: int, seed0: int) -> dict[str, float]:
    from shared.games import registry
    from shared.kernel.playout import play

    game = registry.get(key)
    actions = unfinished = turns = 0
    started = time.process_time()
    for i in range(games):
        p = play(game, SEATS, (seed0 + i).to_bytes(32, "big"))
        actions += len(p.steps)
        turns += p.state.turn
        unfinished += not game.is_over(p.state)
    return _figures(games, actions, turns, unfinished, time.process_time() - started)


def _figures(games: int, actions: int, turns: int, unfinished: int, seconds: float) -> dict[str, float]:
    return {
        "games": games,
        "actions": actions,
        "turns_per_game": turns / games,
        "unfinished": unfinished,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "actions_per_s": actions / seconds,
        "actions_per_game": actions / games,
    }


def domestic_share(games: int, seed0: int) -> float:
    """Share of our base game's commands that are domestic-trade offers, answers and confirmations."""
    from shared.games import registry
    from shared.kernel.playout import play

    game = registry.get("catan")
    total = trade = 0
    for i in range(games):
        p = play(game, SEATS, (seed0 + i).to_bytes(32, "big"))
        total += len(p.steps)
        trade += sum(type(s.command).__name__ in DOMESTIC for s in p.steps)
    return trade / max(1, total)


def compare(games: int, reps: int, seed0: int = 1) -> dict[str, Any]:
    """``reps`` rounds of: catanatron, catan, catan-ck, ``games`` games each, same seeds every round."""
    rounds: list[dict[str, dict[str, float]]] = []
    load_before = os.getloadavg()
    for r in range(reps):
        row = {"catanatron": run_catanatron(games, seed0)}
        for key in OURS:
            row[key] = run_ours(key, games, seed0)
        rounds.append(row)
        console.print(
            f"  round {r + 1}/{reps}: catanatron {row['catanatron']['games_per_s']:.2f} games/s, "
            + ", ".join(f"{k} {row[k]['games_per_s']:.2f}" for k in OURS)
        )
    out: dict[str, Any] = {"games": games, "reps": reps, "rounds": rounds}
    out["load_average"] = {"before": load_before, "after": os.getloadavg()}
    for name in ("catanatron", *OURS):
        out[name] = {
            f: statistics.median(row[name][f] for row in rounds)
            for f in ("games_per_s", "actions_per_s", "actions_per_game", "turns_per_game")
        }
        out[name]["unfinished"] = sum(row[name]["unfinished"] for row in rounds)
    for key in OURS:
        out[f"{key}_ratio"] = {
            f: statistics.median(row[key][f] / row["catanatron"][f] for row in rounds)
            for f in ("games_per_s", "actions_per_s")
        }
        out[f"{key}_ratio"]["per_round"] = [
            row[key]["games_per_s"] / row["catanatron"]["games_per_s"] for row in rounds
        ]
    out["catan_domestic_share"] = domestic_share(min(games, 5), seed0)
    return out


def report(out: dict[str, Any]) -> None:
    table = Table(
        title=f"Catan, {SEATS} random players, one core: {out['games']} games x {out['reps']} rounds "
        f"(medians; ratio = ours / catanatron in the same round)"
    )
    for col in (
        "engine",
        "games/s",
        "actions/s",
        "actions/game",
        "turns/game",
        "unfinished",
        "games/s ratio",
        "actions/s ratio",
    ):
        table.add_column(col, justify="left" if col == "engine" else "right")
    c = out["catanatron"]
    table.add_row(
        "catanatron 3.2.1", fmt(c["games_per_s"], 2), fmt(c["actions_per_s"], 0),
        fmt(c["actions_per_game"], 0), fmt(c["turns_per_game"], 0), str(c["unfinished"]), "1.00", "1.00",
    )  # fmt: skip
    for key in OURS:
        r, q = out[key], out[f"{key}_ratio"]
        table.add_row(
            key, fmt(r["games_per_s"], 2), fmt(r["actions_per_s"], 0), fmt(r["actions_per_game"], 0),
            fmt(r["turns_per_game"], 0), str(r["unfinished"]),
            fmt(q["games_per_s"], 2), fmt(q["actions_per_s"], 2),
        )  # fmt: skip
    console.print(table)
    per_round = ", ".join(f"{x:.2f}" for x in out["catan_ratio"]["per_round"])
    console.print(f"catan / catanatron games/s per round: {per_round}")
    console.print(
        f"domestic trade (which catanatron's random play lacks): "
        f"{out['catan_domestic_share']:.0%} of our catan commands"
    )
    before, after = out["load_average"]["before"], out["load_average"]["after"]
    console.print(f"load average (1 min) before / after: {before[0]:.2f} / {after[0]:.2f}")


def run(games: int, reps: int, name: str = "catan_peer") -> dict[str, Any] | None:
    """The comparison, printed and written to var/bench/<name>.json; None when catanatron is missing."""
    if not catanatron_available():
        console.print(f"[yellow]catanatron is not installed; to compare with it: {INSTALL_HINT}[/]")
        return None
    out = compare(games, reps)
    report(out)
    path = write_json(name, {"machine": machine(), **out})
    console.print(f"figures written to {path}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.catan_peer", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per engine per round (default 20)")
    ap.add_argument("--reps", type=int, default=5, help="rounds; medians are reported (default 5)")
    args = ap.parse_args(argv)
    return 0 if run(args.games, args.reps) is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
