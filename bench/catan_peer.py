"""Catan engines side by side: catanatron's random self-play against ours, in one run.

Plays N four-player games with catanatron 3.2.1's ``RandomPlayer`` on every
seat, then N of our ``catan`` (base game) with our ``random`` bot, N with our
``uniform`` bot (catanatron's policy) and N of ``catan-ck`` with ``random``, on
every seat, in this one process (one core), and repeats that ``--reps``
times. The engines take turns game by game (catanatron's game 1, each of ours
with seed 1, catanatron's game 2, ...), so a change in background load lasting
seconds hits every engine alike rather than whichever ran its 20 games then.
Prints games/s and actions/s (medians over the repetitions) and each of ours
as a ratio of catanatron, per repetition and as the median of those ratios.
Seconds are this process's CPU seconds, not wall time: on a shared machine,
time spent preempted by other processes would otherwise count against
whichever engine happened to be running. The last line gives the Cities &
Knights figure on its own (random self-play with legal-move generation;
catanatron has no counterpart).

Like with like, and where it is not:

- catanatron's ``RandomPlayer`` picks uniformly among ``playable_actions``:
  every road spot, settlement spot and maritime trade is one action, and
  ``END_TURN`` is one of them, so it builds and trades whenever it can, most
  of the time. Our ``random`` bot picks uniformly among the *kinds* of legal
  command, then within the kind; with ``EndTurn`` legal it ends the turn a
  third of the time outright and skips each "chatter" kind (offers, bank
  trades) three times in four, and it offers, answers and confirms domestic
  trades, which catanatron's random play never does. Its games are about 1.9
  times as long (turns and actions), with the same number of buildings: the
  raw games/s ratio mostly measures the two policies.
- Our ``uniform`` bot is catanatron's policy on our commands: uniform over
  every listed decision of the seat, domestic offers aside. Its games have
  catanatron's length and mix (about 1,050 actions and 356 turns against
  1,030 and 355; the same shares of rolls, bank trades, robber moves, roads).
  ``catan uniform`` against catanatron is the like-for-like games/s.
- The rules' granularity is the same in both: a discard is one action naming
  the cards (catanatron drops a random half, our bots draw one of the ways to
  discard), the robber's move and steal one action naming hex and victim,
  Road Building a card then two roads, Year of Plenty and Monopoly one action
  naming the kinds, rolling and ending the turn one action each.
- catanatron ends a game unfinished after 1,000 turns (counted); ours plays on
  until someone wins.

``--kinds`` also prints the actions per game by kind for catanatron and both
of our bots over the first round's games.

    python -m bench.catan_peer                 # 5 repetitions of 20 games each
    python -m bench.catan_peer --games 10 --reps 3 --kinds
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from typing import Any

from rich.table import Table

from bench.common import fmt, machine, make_console, write_json

console = make_console()

PEER = "catanatron==3.2.1"
INSTALL_HINT = f".venv/bin/pip install -e '.[bench]'   (or: .venv/bin/pip install '{PEER}')"
#: Our runs: (label, game key, bot on every seat). ``catan uniform`` is catanatron's policy.
OURS = (
    ("catan", "catan", "random"),
    ("catan uniform", "catan", "uniform"),
    ("catan-ck", "catan-ck", "random"),
)
LABELS = tuple(label for label, _, _ in OURS)
SEATS = 4
# Our commands of the base game that belong to domestic trade (offer, answers, confirmation).
DOMESTIC = ("OfferTrade", "CounterTrade", "Choose")


def catanatron_available() -> bool:
    try:
        import catanatron  # noqa: F401
    except ImportError:
        return False
    return True


class Tally:
    """One engine's games of a round: counts and CPU seconds, added to game by game."""

    def __init__(self, kinds: Counter[str] | None) -> None:
        self.games = self.actions = self.turns = self.unfinished = 0
        self.seconds = 0.0
        self.kinds = kinds

    def figures(self) -> dict[str, float]:
        return _figures(self.games, self.actions, self.turns, self.unfinished, self.seconds)


def play_catanatron(seed: int, tally: Tally) -> None:
    from catanatron import Color, Game, RandomPlayer

    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    started = time.process_time()
    game = Game([RandomPlayer(c) for c in colors], seed=seed)
    finished = game.play() is not None
    tally.seconds += time.process_time() - started
    tally.games += 1
    tally.unfinished += not finished
    tally.actions += len(game.state.actions)
    tally.turns += game.state.num_turns
    if tally.kinds is not None:
        tally.kinds.update(a.action_type.name for a in game.state.actions)


def play_ours(key: str, bot: str, seed: int, tally: Tally) -> None:
    from shared.games import registry
    from shared.kernel.playout import play

    game = registry.get(key)
    bots = dict.fromkeys(range(SEATS), game.bots[bot])
    started = time.process_time()
    p = play(game, SEATS, seed.to_bytes(32, "big"), bots=bots)
    tally.seconds += time.process_time() - started
    tally.games += 1
    tally.unfinished += not game.is_over(p.state)
    tally.actions += len(p.steps)
    tally.turns += p.state.turn
    if tally.kinds is not None:
        tally.kinds.update(_kind(s.command) for s in p.steps)


def _kind(command: Any) -> str:
    name = type(command).__name__
    return f"{name}:{command.card}" if name == "PlayDevCard" else name


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


def compare(games: int, reps: int, seed0: int = 1) -> dict[str, Any]:
    """``reps`` rounds of ``games`` games of catanatron and of each of ``OURS``, taking turns game by
    game, same seeds every round.

    The first round also counts actions by kind: a counter update per action in every engine alike,
    about 0.1 µs against some 30 µs an action, so that round is kept in the medians.
    """
    rounds: list[dict[str, dict[str, float]]] = []
    kinds: dict[str, Counter[str]] = {name: Counter() for name in ("catanatron", *LABELS)}
    load_before = os.getloadavg()
    for r in range(reps):
        counting = r == 0
        tallies = {name: Tally(kinds[name] if counting else None) for name in ("catanatron", *LABELS)}
        for i in range(games):
            play_catanatron(seed0 + i, tallies["catanatron"])
            for label, key, bot in OURS:
                play_ours(key, bot, seed0 + i, tallies[label])
        row = {name: tally.figures() for name, tally in tallies.items()}
        rounds.append(row)
        console.print(
            f"  round {r + 1}/{reps}: catanatron {row['catanatron']['games_per_s']:.2f} games/s, "
            + ", ".join(f"{k} {row[k]['games_per_s']:.2f}" for k in LABELS)
        )
    out: dict[str, Any] = {"games": games, "reps": reps, "rounds": rounds}
    out["load_average"] = {"before": load_before, "after": os.getloadavg()}
    for name in ("catanatron", *LABELS):
        out[name] = {
            f: statistics.median(row[name][f] for row in rounds)
            for f in ("games_per_s", "actions_per_s", "actions_per_game", "turns_per_game")
        }
        out[name]["unfinished"] = sum(row[name]["unfinished"] for row in rounds)
        out[name]["kinds_per_game"] = {k: v / games for k, v in kinds[name].most_common()}
    for label in LABELS:
        out[f"{label}_ratio"] = {
            f: statistics.median(row[label][f] / row["catanatron"][f] for row in rounds)
            for f in ("games_per_s", "actions_per_s")
        }
        out[f"{label}_ratio"]["per_round"] = [
            row[label]["games_per_s"] / row["catanatron"]["games_per_s"] for row in rounds
        ]
    ours = kinds["catan"]
    out["catan_domestic_share"] = sum(ours[k] for k in DOMESTIC) / max(1, sum(ours.values()))
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
    for label in LABELS:
        r, q = out[label], out[f"{label}_ratio"]
        table.add_row(
            label, fmt(r["games_per_s"], 2), fmt(r["actions_per_s"], 0), fmt(r["actions_per_game"], 0),
            fmt(r["turns_per_game"], 0), str(r["unfinished"]),
            fmt(q["games_per_s"], 2), fmt(q["actions_per_s"], 2),
        )  # fmt: skip
    console.print(table)
    for label in ("catan", "catan uniform"):
        per_round = ", ".join(f"{x:.2f}" for x in out[f"{label}_ratio"]["per_round"])
        console.print(f"{label} / catanatron games/s per round: {per_round}")
    raw, like = out["catan_ratio"], out["catan uniform_ratio"]
    console.print(
        f"catan vs catanatron, games/s: raw (random bot, games ~1.9x as long) {raw['games_per_s']:.2f} x; "
        f"like for like (our uniform bot = catanatron's policy) {like['games_per_s']:.2f} x; "
        f"length-normalised (actions/s, uniform bot) {like['actions_per_s']:.2f} x"
    )
    ck = out["catan-ck"]
    console.print(
        f"Cities & Knights (catan-ck, random bot, 4 seats, legal moves generated at every decision): "
        f"{ck['games_per_s']:.2f} games/s, {ck['actions_per_s']:,.0f} actions/s "
        f"({ck['actions_per_game']:,.0f} actions a game)"
    )
    console.print(
        f"domestic trade (which catanatron's random play lacks): "
        f"{out['catan_domestic_share']:.0%} of our catan commands with the random bot"
    )
    before, after = out["load_average"]["before"], out["load_average"]["after"]
    console.print(f"load average (1 min) before / after: {before[0]:.2f} / {after[0]:.2f}")


def report_kinds(out: dict[str, Any]) -> None:
    table = Table(title=f"Actions per game by kind, first round ({out['games']} games each)")
    names = ("catanatron", "catan", "catan uniform")
    for col in ("catanatron", "per game", "catan (random)", "per game", "catan uniform", "per game"):
        table.add_column(col, justify="right" if col == "per game" else "left")
    columns = [list(out[n]["kinds_per_game"].items()) for n in names]
    for i in range(max(map(len, columns))):
        cells: list[str] = []
        for rows in columns:
            cells += [rows[i][0], fmt(rows[i][1], 1)] if i < len(rows) else ["", ""]
        table.add_row(*cells)
    console.print(table)


def run(games: int, reps: int, name: str = "catan_peer", kinds: bool = False) -> dict[str, Any] | None:
    """The comparison, printed and written to var/bench/<name>.json; None when catanatron is missing."""
    if not catanatron_available():
        console.print(f"[yellow]catanatron is not installed; to compare with it: {INSTALL_HINT}[/]")
        return None
    out = compare(games, reps)
    report(out)
    if kinds:
        report_kinds(out)
    path = write_json(name, {"machine": machine(), **out})
    console.print(f"figures written to {path}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.catan_peer", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per engine per round (default 20)")
    ap.add_argument("--reps", type=int, default=5, help="rounds; medians are reported (default 5)")
    ap.add_argument("--kinds", action="store_true", help="also print the actions per game by kind")
    args = ap.parse_args(argv)
    return 0 if run(args.games, args.reps, kinds=args.kinds) is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
