"""Helpers shared by the benchmarks: quantiles, Prometheus scraping, CPU
accounting, scripted games built with the reducer's own planning code, and
result files.

Benchmarks print figures; they never assert timings.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import statistics
import time
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "var" / "bench"
EXTRA_GAMES = "tests.support.highcard"


def make_console() -> Any:
    """A rich console wide enough for the result tables even when piped."""
    from rich.console import Console

    console = Console()
    if not console.is_terminal and console.width < 160:
        console = Console(width=160)
    return console


def ensure_extra_games() -> None:
    """Make the fixture game importable here and in every child process."""
    current = [p for p in os.environ.get("ZIGGURAT_EXTRA_GAMES", "").split(",") if p]
    if EXTRA_GAMES not in current:
        os.environ["ZIGGURAT_EXTRA_GAMES"] = ",".join([*current, EXTRA_GAMES])


def default_game() -> str:
    from shared.games import registry

    return "tigris" if "tigris" in registry.available() else "highcard"


# -- numbers -----------------------------------------------------------------


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank quantile of an already sorted sequence (nan when empty)."""
    if not sorted_values:
        return math.nan
    rank = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[rank]


def summary_ms(samples_s: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    return {
        "n": len(ordered),
        "p50_ms": quantile(ordered, 0.50) * 1e3,
        "p95_ms": quantile(ordered, 0.95) * 1e3,
        "p99_ms": quantile(ordered, 0.99) * 1e3,
        "max_ms": (ordered[-1] * 1e3) if ordered else math.nan,
        "mean_ms": (statistics.fmean(ordered) * 1e3) if ordered else math.nan,
    }


def fmt(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:,.{digits}f}"


# -- Prometheus --------------------------------------------------------------

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(url: str, timeout: float = 5.0) -> Samples:
    """Every sample of a /metrics page, keyed by (name, sorted labels)."""
    from prometheus_client.parser import text_string_to_metric_families

    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            text = response.read().decode()
    except OSError:
        return {}
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def scrape_all(urls: dict[str, str]) -> dict[str, Samples]:
    return {name: scrape(url) for name, url in urls.items()}


def delta(before: dict[str, Samples], after: dict[str, Samples]) -> Samples:
    """after - before, summed over every service."""
    out: Samples = {}
    for service, samples in after.items():
        old = before.get(service, {})
        for key, value in samples.items():
            out[key] = out.get(key, 0.0) + value - old.get(key, 0.0)
    return out


def histogram_quantiles(
    d: Samples, name: str, match: dict[str, str], qs: Sequence[float] = (0.5, 0.95, 0.99)
) -> dict[str, float]:
    """Quantiles from cumulative bucket deltas, interpolated linearly inside a bucket."""
    buckets: dict[float, float] = {}
    count = total = 0.0
    for (metric, labels), value in d.items():
        lab = dict(labels)
        if any(lab.get(k) != v for k, v in match.items()):
            continue
        if metric == f"{name}_bucket":
            le = float(lab["le"])
            buckets[le] = buckets.get(le, 0.0) + value
        elif metric == f"{name}_count":
            count += value
        elif metric == f"{name}_sum":
            total += value
    out: dict[str, float] = {"n": count, "mean_ms": (total / count * 1e3) if count else math.nan}
    edges = sorted(buckets)
    for q in qs:
        out[f"p{q * 100:.4g}_ms"] = _bucket_quantile(edges, buckets, count, q) * 1e3
    return out


def _bucket_quantile(edges: list[float], buckets: dict[float, float], count: float, q: float) -> float:
    if count <= 0 or not edges:
        return math.nan
    target = q * count
    lower, below = 0.0, 0.0
    for le in edges:
        cumulative = buckets[le]
        if cumulative >= target:
            if math.isinf(le):
                return lower  # beyond the last finite bucket: report its bound
            inside = cumulative - below
            frac = (target - below) / inside if inside > 0 else 1.0
            return lower + (le - lower) * frac
        lower, below = le, cumulative
    return lower


def counter_by(d: Samples, name: str, label: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for (metric, labels), value in d.items():
        if metric == name and value:
            key = dict(labels).get(label, "")
            out[key] = out.get(key, 0.0) + value
    return out


def counter_total(d: Samples, name: str) -> float:
    return sum(v for (metric, _), v in d.items() if metric == name)


# -- CPU ---------------------------------------------------------------------


@dataclass
class CpuMeter:
    """CPU seconds of named processes over a window (children not included:
    the services are children of the benchmark process)."""

    pids: dict[str, int]
    _start: dict[str, float] = field(default_factory=dict)
    _t0: float = 0.0
    _delay0: dict[str, float] = field(default_factory=dict)
    #: After :meth:`stop`: seconds each process was runnable but waited for a
    #: core (the kernel's run delay, all its threads): on a shared machine the
    #: part of a request's wait that no code of ours can remove.
    waited: dict[str, float] = field(default_factory=dict)

    @staticmethod
    def _run_delay(pid: int) -> float:
        total = 0
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[1])
        except OSError:
            return 0.0
        return total / 1e9

    #: Processes whose finished children count as theirs: Valkey's AOF
    #: rewrites run in forked children, on the same cores.
    with_children: frozenset[str] = frozenset({"valkey"})

    def _cpu(self, name: str, pid: int) -> float:
        import psutil

        try:
            p = psutil.Process(pid)
            t = p.cpu_times()
            own = float(t.user + t.system)
            if name in self.with_children:
                own += float(t.children_user + t.children_system)
            return own
        except psutil.Error:
            return 0.0

    def start(self) -> None:
        self._t0 = time.perf_counter()
        self._start = {name: self._cpu(name, pid) for name, pid in self.pids.items()}
        self._delay0 = {name: self._run_delay(pid) for name, pid in self.pids.items()}

    def stop(self) -> dict[str, float]:
        """CPU seconds used by each process since :meth:`start`, plus ``wall``."""
        wall = time.perf_counter() - self._t0
        out = {name: self._cpu(name, pid) - self._start.get(name, 0.0) for name, pid in self.pids.items()}
        self.waited = {
            name: self._run_delay(pid) - self._delay0.get(name, 0.0) for name, pid in self.pids.items()
        }
        out["wall"] = wall
        return out


# -- scripted games through the reducer's planning code ------------------------


@dataclass
class Step:
    """One accepted command as the services see it."""

    msg: Any  # CommandMsg
    plan: Any  # services.reducer.plan.Plan
    command_json: bytes


def scripted_game(
    game_key: str,
    seats: int,
    seed: int,
    partitions: int = 4,
    max_moves: int = 100_000,
    stop_after: int | None = None,
    game_id: str | None = None,
) -> Iterator[Step]:
    """Open a table and play random legal moves, each planned by
    ``services.reducer.plan.plan`` exactly as the reducer plans it, so the
    appends and events are the real ones (envelopes, command records)."""
    from services.reducer.plan import Plan, plan
    from shared.eventstore.keys import partition_of
    from shared.games import registry
    from shared.kernel.auth import new_token, token_hash
    from shared.kernel.codec import codec_for
    from shared.kernel.rng import Rng
    from shared.messaging.messages import MoveMsg, OpenMsg, OpenTable

    game = registry.get(game_key)
    codec = codec_for(game)
    gid = game_id or uuid.uuid4().hex[:20]
    part = partition_of(gid, partitions)
    hashes = tuple(token_hash(new_token()) for _ in range(seats))
    seed_bytes = seed.to_bytes(32, "big")
    now_ms = time.time_ns() // 1_000_000

    def message(kind: Any, **extra: Any) -> Any:
        return kind(
            game_id=gid,
            partition=part,
            command_id=uuid.uuid4().hex,
            correlation_id=uuid.uuid4().hex,
            reply_to="bench",
            received_ns=time.time_ns(),
            **extra,
        )

    opened = message(OpenMsg, open=OpenTable(game=game_key, seats=seats, options={}, token_hashes=hashes))
    result = plan(opened, None, now_ms, lambda: seed_bytes)
    assert isinstance(result, Plan), result
    yield Step(opened, result, b"")
    table = result.after
    bot = game.bots["random"]
    for moves in range(max_moves):
        if table.over or (stop_after is not None and moves >= stop_after):
            return
        seat = min(game.actors(table.state))
        command = bot(table.state, seat, Rng(seed_bytes[::-1], table.version))
        raw = codec.json(command)
        msg = message(
            MoveMsg,
            token_hash=hashes[seat],
            command=msgspec.Raw(raw),
            expected_version=table.version,
            seat=seat,
        )
        result = plan(msg, table, now_ms, lambda: seed_bytes)
        assert isinstance(result, Plan), result
        yield Step(msg, result, raw)
        table = result.after


# -- output --------------------------------------------------------------------


def write_json(name: str, data: Any) -> Path:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, default=_jsonable, allow_nan=True))
    return path


def _jsonable(x: Any) -> Any:
    if isinstance(x, msgspec.Struct):
        return msgspec.to_builtins(x)
    if isinstance(x, Path):
        return str(x)
    return str(x)


def machine() -> dict[str, Any]:
    import platform

    import psutil

    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "cpu": platform.processor() or platform.machine(),
        "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
