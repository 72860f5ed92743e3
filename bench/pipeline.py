"""Load benchmark of the whole pipeline (``make bench``).

Starts Valkey and every service as separate processes (``shared.infra.launcher.Stack``),
drives N concurrent games of random bots through the HTTP API, and prints:

* throughput: accepted commands/s (client side), tables opened, games finished;
* end-to-end latency p50/p95/p99 measured by the client: POST -> accepted
  reply, and POST -> the new version visible in the seat's view;
* per-stage latency from the services' own histograms
  (``ziggurat_stage_seconds``: validated, appended, replied), as quantiles of
  the bucket deltas between a scrape before and after the measured window;
* rejections by code, append conflicts, duplicates, mean batch sizes;
* Redis round trips per command, per service;
* CPU seconds per service (and for the drivers, Valkey, and everything else
  on the machine, since other work on a shared box skews every figure);
* the reference: the same Redis operations per command issued by a bare
  redis-py loop (``bench.reference``), serially and with the batch size the
  reducer actually saw, and our throughput as a ratio of it.

By default it runs twice, AOF ``everysec`` and ``always``. ``--partitions-sweep``
runs 1, 2 and 4 partitions with as many reducers. Figures go to the terminal
and to ``var/bench/<name>.json``. It never asserts a timing.

    python -m bench.pipeline                     # everysec + always, flat out
    python -m bench.pipeline --fsync always --duration 30 --games 64
    python -m bench.pipeline --rate 0,300        # flat out, then paced at 300 commands/s
    python -m bench.pipeline --partitions-sweep --fsync everysec
    python -m bench.pipeline --fsync everysec --layout separate,together   # the stages' layouts
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import queue
import shutil
import signal
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench import driver as drv
from bench.common import (
    OUT_DIR,
    REPO,
    CpuMeter,
    counter_by,
    counter_total,
    default_game,
    delta,
    ensure_extra_games,
    fmt,
    histogram_quantiles,
    machine,
    make_console,
    scrape_all,
    summary_ms,
    write_json,
)
from shared.infra.durability import Level
from shared.infra.settings import UNTHROTTLED

console = make_console()
STAGES = ("validated", "appended", "replied")


@dataclass
class RunConfig:
    label: str
    game: str
    seats: int
    games: int
    drivers: int
    rate: float
    duration: float
    warmup: float
    partitions: int
    validators: int
    reducers: int
    projectors: int
    fsync: str
    log_level: str
    reference_s: float
    profile: bool = False
    #: Table options sent with every opening (``--options``), e.g. a longer highcard.
    options: dict[str, Any] = field(default_factory=dict)
    #: How the bots play: "http" (a POST per command) or "ws" (a play connection per seat).
    transport: str = "http"
    #: "same": the read models on the store's Valkey; "separate": on a second one without AOF.
    read_models: str = "same"
    #: Replicas of the store's primary (0: one server; else a one-shard cluster) and
    #: the durability level (bench/durability.py).
    replicas: int = 0
    durability: str = "local"
    #: "separate": a process per stage; "together": the stages in one (services/stages).
    layout: str = "separate"


def _busy_cpu() -> float:
    import psutil

    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0))


def _processes(cfg: RunConfig) -> str:
    if cfg.layout == "together":
        return f"{cfg.reducers} process(es) hosting validator, reducer and projector"
    return f"{cfg.validators}v/{cfg.reducers}r/{cfg.projectors}p"


def run_once(cfg: RunConfig) -> dict[str, Any]:
    from shared.infra.launcher import Layout, Stack

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix=f"run-{cfg.label}-", dir=OUT_DIR))
    env = {
        "ZIGGURAT_EXTRA_GAMES": os.environ["ZIGGURAT_EXTRA_GAMES"],
        # The rate limits are a product guard, not what is measured here.
        **UNTHROTTLED,
        # Nor the cap on play connections yet to send their token: the driver opens
        # every seat's connection from one address, where real players come from many
        # (at 64 games, a burst of table openings met the cap of 8 and was refused).
        "ZIGGURAT_UNAUTHENTICATED_PER_ADDRESS": "512",
        "ZIGGURAT_LOG_LEVEL": cfg.log_level,
    }
    profiles = root / "profiles"
    if cfg.profile:
        # bench/_profile/sitecustomize.py profiles each service (cProfile slows them down a lot:
        # read the profiles for where the time goes, not the throughput of that run)
        profiles.mkdir(parents=True, exist_ok=True)
        env["PYTHONPATH"] = f"{Path(__file__).parent / '_profile'}{os.pathsep}{REPO}"
        env["BENCH_PROFILE_DIR"] = str(profiles)
    stack = Stack(
        root,
        partitions=cfg.partitions,
        validators=cfg.validators,
        reducers=cfg.reducers,
        projectors=cfg.projectors,
        fsync=cfg.fsync,
        env=env,
        read_models="start" if cfg.read_models == "separate" else None,
        replicas=cfg.replicas,
        durability=cast(Level, cfg.durability),
        layout=cast(Layout, cfg.layout),
    )
    console.rule(
        f"[bold]{cfg.label}[/]: {cfg.game}, {cfg.games} games, fsync {cfg.fsync}, "
        f"{cfg.partitions} partitions, {_processes(cfg)}, "
        f"read models on {'their own Valkey (no AOF)' if cfg.read_models == 'separate' else 'the store'}, "
        f"{'flat out' if cfg.rate <= 0 else f'{cfg.rate:g} commands/s'}"
        + (f", store with {cfg.replicas} replica(s), durability {cfg.durability}" if cfg.replicas else "")
    )
    result: dict[str, Any] = {"config": asdict(cfg)}
    try:
        with console.status("starting Valkey and the services"):
            stack.start(timeout=90)
        result.update(_drive(cfg, stack))
    finally:
        with console.status("stopping the services"):
            stack.stop()
        shutil.rmtree(root / "valkey", ignore_errors=True)
        shutil.rmtree(root / "valkey-read-models", ignore_errors=True)
    result["logs"] = str(root / "logs")
    if cfg.profile:
        result["profiles"] = _print_profiles(profiles)
    if cfg.reference_s > 0:
        result["reference"] = _reference(cfg, root, result)
        ours = result["throughput"]["commands_per_s"]
        result["ratio"] = {
            name: (ours / ref["commands_per_s"]) if ref["commands_per_s"] else math.nan
            for name, ref in result["reference"].items()
        }
    return result


def _drive(cfg: RunConfig, stack: Any) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    shared = ctx.Array("d", drv.SLOTS * cfg.drivers, lock=False)
    phase = ctx.Value("i", drv.WARMUP, lock=False)
    results: Any = ctx.Queue()
    per_driver_games = _split(cfg.games, cfg.drivers)
    procs = []
    for i in range(cfg.drivers):
        dcfg = drv.DriverConfig(
            index=i,
            api=stack.api,
            game=cfg.game,
            seats=cfg.seats,
            games=per_driver_games[i],
            rate=cfg.rate / cfg.drivers if cfg.rate > 0 else 0.0,
            seed=i + 1,
            options=cfg.options,
            transport=cfg.transport,
        )
        p = ctx.Process(target=drv.run, args=(dcfg, shared, phase, results), daemon=True)
        p.start()
        procs.append(p)

    def totals() -> list[float]:
        return [sum(shared[d * drv.SLOTS + s] for d in range(cfg.drivers)) for s in range(drv.SLOTS)]

    pids = {name: proc.process.pid for name, proc in stack.procs.items() if proc.process is not None}
    if stack.valkey is not None and stack.valkey.process is not None:
        pids["valkey"] = stack.valkey.process.pid
    for i, node in enumerate(stack.store.nodes if stack.store is not None else []):
        if node.process is not None:
            pids[f"valkey-{i}"] = node.process.pid
    if stack.read_valkey is not None and stack.read_valkey.process is not None:
        pids["valkey-read-models"] = stack.read_valkey.process.pid
    for i, p in enumerate(procs):
        pids[f"driver-{i}"] = p.pid
    pids["bench"] = os.getpid()
    meter = CpuMeter(pids)
    urls = stack.metrics_urls()

    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[info]}"),
        console=console,
        transient=False,
    )
    before: dict[str, Any] = {}
    start_counts: list[float] = []
    busy0 = 0.0
    with progress:
        warm = progress.add_task("warm-up", total=cfg.warmup, info="")
        t0 = time.perf_counter()
        while (elapsed := time.perf_counter() - t0) < cfg.warmup:
            c = totals()
            progress.update(warm, completed=elapsed, info=_info(c, elapsed))
            time.sleep(0.25)
        progress.update(warm, completed=cfg.warmup)
        before = scrape_all(urls)
        if cfg.profile:
            _signal_services(stack, signal.SIGUSR2)
        start_counts = totals()
        busy0 = _busy_cpu()
        store = _StoreProbe(stack.valkey.url if stack.valkey is not None else None)
        meter.start()
        phase.value = drv.MEASURE
        task = progress.add_task("measuring", total=cfg.duration, info="")
        t1 = time.perf_counter()
        while (elapsed := time.perf_counter() - t1) < cfg.duration:
            c = [a - b for a, b in zip(totals(), start_counts, strict=True)]
            progress.update(task, completed=elapsed, info=_info(c, elapsed))
            if not any(p.is_alive() for p in procs):
                break
            time.sleep(0.25)
        cpu = meter.stop()
        stalls = store.stop()
        busy = _busy_cpu() - busy0
        after = scrape_all(urls)
        end_counts = totals()
        if cfg.profile:
            _signal_services(stack, signal.SIGUSR1)
        phase.value = drv.STOP
        progress.update(task, completed=cfg.duration)

    collected: list[drv.DriverResult] = []
    deadline = time.monotonic() + 30
    while len(collected) < len(procs) and time.monotonic() < deadline:
        try:
            collected.append(results.get(timeout=1))
        except queue.Empty:
            if not any(p.is_alive() for p in procs):
                break
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.terminate()
            p.join(timeout=5)
    trips = {svc: _trips(after.get(svc, {})) - _trips(before.get(svc, {})) for svc in after}
    out = _summarise(cfg, collected, cpu, busy, delta(before, after), start_counts, end_counts, trips)
    out["runtime"] = _runtime(before, after, collected)
    out["store_stalls"] = stalls
    out["runtime"]["run_delay_ms_per_s"] = {name: 1e3 * w / out["wall_s"] for name, w in meter.waited.items()}
    return out


class _StoreProbe:
    """Valkey's own stalls over the window: its latency monitor (the longest
    event of each kind above 2 ms: a command, a fork, an AOF write or fsync)
    and the AOF's background work (rewrites, forks, fsyncs it had to wait for)."""

    _COUNTERS = ("aof_rewrites", "total_forks", "aof_delayed_fsync")

    def __init__(self, url: str | None) -> None:
        import redis

        self.client = redis.Redis.from_url(url) if url else None
        self.start: dict[str, int] = {}
        if self.client is not None:
            self.client.config_set("latency-monitor-threshold", 2)
            self.client.execute_command("LATENCY", "RESET")
            self.start = self._counters()

    def _counters(self) -> dict[str, int]:
        assert self.client is not None
        info = {**self.client.info("persistence"), **self.client.info("stats")}
        return {k: int(info.get(k, 0)) for k in self._COUNTERS}

    def stop(self) -> dict[str, Any]:
        if self.client is None:
            return {}
        counters = {k: v - self.start.get(k, 0) for k, v in self._counters().items()}
        events = {
            (e[0].decode() if isinstance(e[0], bytes) else e[0]): {"max_ms": int(e[3])}
            for e in self.client.execute_command("LATENCY", "LATEST")
        }
        self.client.close()
        return {**counters, "latency_events": events}


def _runtime(
    before: dict[str, Any], after: dict[str, Any], results: list[drv.DriverResult]
) -> dict[str, Any]:
    """Where a request waits on the runtime rather than on work: each process's
    event-loop lag and garbage-collection pauses, the driver's own lag, and how
    late a paced driver sent its commands."""
    out: dict[str, Any] = {}
    for svc in sorted(after):
        d = delta({svc: before.get(svc, {})}, {svc: after[svc]})
        lag = histogram_quantiles(d, "ziggurat_event_loop_lag_seconds", {}, (0.5, 0.99, 0.999))
        gcs = {
            g: histogram_quantiles(d, "ziggurat_gc_pause_seconds", {"generation": g}, (0.99,))
            for g in ("0", "1", "2")
        }
        if lag["n"] or any(x["n"] for x in gcs.values()):
            out[svc] = {"loop_lag": lag, "gc": gcs}
    out["driver"] = {
        "loop_lag": summary_ms([x for r in results for x in r.loop_lag_s]),
        "send_late": summary_ms([x for r in results for x in r.send_late_s]),
    }
    return out


def _trips(samples: dict[Any, float]) -> float:
    return samples.get(("ziggurat_redis_round_trips_total", ()), 0.0)


def _signal_services(stack: Any, sig: int) -> None:
    for proc in stack.procs.values():
        if proc.alive():
            proc.process.send_signal(sig)


def _split(n: int, k: int) -> list[int]:
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def _info(c: list[float], elapsed: float) -> str:
    rate = c[drv.ACCEPTED] / elapsed if elapsed > 0 else 0.0
    return (
        f"accepted {int(c[drv.ACCEPTED]):>7,}  {rate:>7,.0f}/s  rejected {int(c[drv.REJECTED]):,}  "
        f"games {int(c[drv.FINISHED]):,}/{int(c[drv.OPENED]):,}  errors {int(c[drv.ERRORS])}"
    )


def _summarise(
    cfg: RunConfig,
    results: list[drv.DriverResult],
    cpu: dict[str, float],
    busy: float,
    d: dict[Any, float],
    start_counts: list[float],
    end_counts: list[float],
    trips: dict[str, float],
) -> dict[str, Any]:
    wall = cpu.pop("wall")
    accept = [x for r in results for x in r.accept_s]
    visible = [x for r in results for x in r.visible_s]
    accepted = sum(r.accepted for r in results)
    rejected: dict[str, int] = {}
    for r in results:
        for code, n in r.rejected.items():
            rejected[code] = rejected.get(code, 0) + n
    counts = [a - b for a, b in zip(end_counts, start_counts, strict=True)]
    ours = sum(cpu.values())
    valkey = sum(s for name, s in cpu.items() if name.startswith("valkey"))
    servers = sum(s for name, s in cpu.items() if not name.startswith(("driver", "bench")))
    stages = {s: histogram_quantiles(d, "ziggurat_stage_seconds", {"stage": s}) for s in STAGES}
    http = {
        route: histogram_quantiles(d, "ziggurat_http_request_seconds", {"route": route})
        for route in ("/v1/tables/{table_id}/commands", "/v1/tables/{table_id}/view", "/v1/tables")
    }
    batch = {}
    for service in ("validator", "reducer"):
        n = d.get(("ziggurat_batch_size_count", (("service", service),)), 0.0)
        s = d.get(("ziggurat_batch_size_sum", (("service", service),)), 0.0)
        batch[service] = s / n if n else math.nan
    return {
        "wall_s": wall,
        "throughput": {
            "commands_per_s": accepted / wall,
            "accepted": accepted,
            "tables_opened_per_s": counts[drv.OPENED] / wall,
            "games_finished": counts[drv.FINISHED],
            "http_requests_per_s": counts[drv.REQUESTS] / wall,
            "view_polls_per_command": (sum(r.polls for r in results) / accepted) if accepted else math.nan,
            "driver_errors": int(counts[drv.ERRORS]),
            "error_samples": [e for r in results for e in r.errors][:5],
        },
        "latency": {"accepted": summary_ms(accept), "visible": summary_ms(visible)},
        "stages": stages,
        "http_server": http,
        "rejections_client": rejected,
        "rejections_services": counter_by(d, "ziggurat_rejections_total", "code"),
        "append_conflicts": counter_total(d, "ziggurat_append_conflicts_total"),
        "duplicates": counter_total(d, "ziggurat_duplicate_commands_total"),
        "mean_batch": batch,
        "round_trips_per_command": {
            name: (n / accepted) if accepted else math.nan for name, n in sorted(trips.items()) if n
        },
        "cpu_s": cpu,
        "cpu_pct": {name: 100 * s / wall for name, s in cpu.items()},
        "cpu_ms_per_command": {
            name: (1e3 * s / accepted) if accepted else math.nan for name, s in cpu.items()
        },
        # Valkey's CPU: every server's (the read models', replicas') (each is in cpu_s too).
        "valkey_ms_per_command": (1e3 * valkey / accepted) if accepted else math.nan,
        # Every server process's and Valkey's, not the load's: the figure the targets name.
        "server_ms_per_command": (1e3 * servers / accepted) if accepted else math.nan,
        "cpu_other_pct": 100 * max(0.0, busy - ours) / wall,
        "machine_busy_pct": 100 * busy / wall,
        "loadavg": os.getloadavg(),
    }


def _reference(cfg: RunConfig, root: Path, result: dict[str, Any]) -> dict[str, Any]:
    from bench import reference
    from shared.infra.valkey_server import ValkeyServer, free_port

    observed = result.get("mean_batch", {}).get("reducer", math.nan)
    batched = max(1, round(observed)) if not math.isnan(observed) else 8
    server = ValkeyServer(root / "reference-valkey", port=free_port(), fsync=cfg.fsync)
    out: dict[str, Any] = {}
    try:
        server.start()
        with console.status(f"reference: planning {cfg.game} games"):
            plans = reference.prepare(cfg.game, cfg.seats)
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[info]}"),
            console=console,
        ) as progress:
            for name, b in (("serial", 1), ("batched", batched)):
                task = progress.add_task(f"reference {name} (batch {b})", total=cfg.reference_s, info="")
                t0 = time.perf_counter()

                def tick(done: int, task: Any = task, t0: float = t0) -> None:
                    el = time.perf_counter() - t0
                    progress.update(
                        task, completed=min(el, cfg.reference_s), info=f"{done / el:,.0f} commands/s"
                    )

                out[name] = reference.run(server.url, cfg.game, cfg.seats, b, cfg.reference_s, plans, tick)
                progress.update(task, completed=cfg.reference_s)
    finally:
        server.stop()
        shutil.rmtree(root / "reference-valkey", ignore_errors=True)
    return out


def _print_profiles(folder: Path, top: int = 25) -> dict[str, str]:
    import io
    import pstats

    out = {}
    time.sleep(2)  # the services write their profiles on SIGUSR1
    for path in sorted(folder.glob("*.prof")):
        buf = io.StringIO()
        try:
            stats = pstats.Stats(str(path), stream=buf)
        except (EOFError, ValueError, OSError) as exc:
            console.print(f"profile {path.name} unreadable: {exc}")
            continue
        stats.strip_dirs().sort_stats("tottime").print_stats(top)
        console.rule(f"profile of {path.stem} (cProfile, by own time)")
        console.print(buf.getvalue(), markup=False, highlight=False)
        out[path.stem] = str(path)
    return out


# -- printing ------------------------------------------------------------------


def print_run(r: dict[str, Any]) -> None:
    cfg = r["config"]
    t = r["throughput"]
    table = Table(title=f"{cfg['label']}: {cfg['game']}, fsync {cfg['fsync']}", show_header=True)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("notes")
    table.add_row(
        "accepted commands/s", fmt(t["commands_per_s"]), f"{t['accepted']:,} in {r['wall_s']:.1f} s"
    )
    table.add_row(
        "tables opened/s", fmt(t["tables_opened_per_s"]), f"{int(t['games_finished'])} games finished"
    )
    table.add_row(
        "HTTP requests/s",
        fmt(t["http_requests_per_s"]),
        f"{fmt(t['http_requests_per_s'] / t['commands_per_s'], 2)} requests/command, "
        f"{fmt(t['view_polls_per_command'], 2)} view GETs/command after the reply",
    )
    for name, key in (("POST -> accepted", "accepted"), ("POST -> visible in view", "visible")):
        s = r["latency"][key]
        table.add_row(
            f"{name} p50/p95/p99 ms",
            f"{fmt(s['p50_ms'], 2)} / {fmt(s['p95_ms'], 2)} / {fmt(s['p99_ms'], 2)}",
            f"max {fmt(s['max_ms'], 1)}",
        )
    for stage, s in r["stages"].items():
        table.add_row(
            f"stage {stage} p50/p95/p99 ms",
            f"{fmt(s['p50_ms'], 2)} / {fmt(s['p95_ms'], 2)} / {fmt(s['p99_ms'], 2)}",
            f"n={int(s['n']):,}, from gateway receipt (histogram buckets)",
        )
    table.add_row("mean batch validator/reducer", f"{fmt(r['mean_batch']['validator'], 1)} / "
                  f"{fmt(r['mean_batch']['reducer'], 1)}", "")  # fmt: skip
    trips = r.get("round_trips_per_command", {})
    table.add_row(
        "Redis round trips per command",
        fmt(sum(trips.values()), 2),
        ", ".join(f"{name} {fmt(n, 2)}" for name, n in trips.items()) or "-",
    )
    rej = r["rejections_client"] or {}
    table.add_row(
        "rejections (client)", str(sum(rej.values())), ", ".join(f"{k}={v}" for k, v in rej.items()) or "-"
    )
    srv = r["rejections_services"] or {}
    table.add_row("rejections (services)", fmt(sum(srv.values()), 0),
                  ", ".join(f"{k}={int(v)}" for k, v in srv.items()) or "-")  # fmt: skip
    table.add_row(
        "append conflicts / duplicates", f"{int(r['append_conflicts'])} / {int(r['duplicates'])}", ""
    )
    for name in sorted(r["cpu_pct"]):
        table.add_row(
            f"CPU {name}",
            f"{fmt(r['cpu_pct'][name])} %",
            f"{fmt(r['cpu_ms_per_command'][name], 3)} ms/command",
        )
    if "valkey-read-models" in r["cpu_pct"]:
        both = r["cpu_pct"]["valkey"] + r["cpu_pct"]["valkey-read-models"]
        table.add_row(
            "CPU Valkey, both servers", f"{fmt(both)} %", f"{fmt(r['valkey_ms_per_command'], 3)} ms/command"
        )
    table.add_row("CPU everything else", f"{fmt(r['cpu_other_pct'])} %", "other work on this machine")
    if "reference" in r:
        for name, ref in r["reference"].items():
            table.add_row(
                f"reference {name} (batch {ref['batch']})",
                f"{fmt(ref['commands_per_s'])}/s",
                f"ours = {fmt(r['ratio'][name], 2)}x; "
                f"{fmt(ref['round_trips_per_command'], 1)} round trips/command",
            )
    stalls = r.get("store_stalls") or {}
    if stalls:
        events = stalls.get("latency_events", {})
        table.add_row(
            "Valkey stalls over 2 ms",
            ", ".join(f"{k} max {v['max_ms']} ms" for k, v in sorted(events.items())) or "none",
            f"AOF rewrites {stalls.get('aof_rewrites', 0)}, forks {stalls.get('total_forks', 0)}, "
            f"delayed fsyncs {stalls.get('aof_delayed_fsync', 0)}",
        )
    waits = r.get("runtime", {}).get("run_delay_ms_per_s", {})
    if waits:
        table.add_row(
            "waiting for a core, ms/s",
            fmt(sum(waits.values()), 0),
            ", ".join(f"{name} {fmt(w, 0)}" for name, w in sorted(waits.items()))
            + " (runnable, not running: the kernel's run delay)",
        )
    for name, probe in r.get("runtime", {}).items():
        if name == "run_delay_ms_per_s":
            continue
        if name == "driver":
            lag, late = probe["loop_lag"], probe["send_late"]
            table.add_row(
                "loop lag driver p50/p99/max ms",
                f"{fmt(lag['p50_ms'], 2)} / {fmt(lag['p99_ms'], 2)} / {fmt(lag['max_ms'], 1)}",
                f"paced sends late p50/p99/max {fmt(late['p50_ms'], 2)} / {fmt(late['p99_ms'], 2)} / "
                f"{fmt(late['max_ms'], 1)} ms"
                if late["n"]
                else "unpaced",
            )
            continue
        lag = probe["loop_lag"]
        table.add_row(
            f"loop lag {name} p50/p99/p99.9 ms",
            f"{fmt(lag['p50_ms'], 2)} / {fmt(lag['p99_ms'], 2)} / {fmt(lag['p99.9_ms'], 1)}",
            "GC "
            + ", ".join(
                f"gen{g} {int(x['n']):,}x mean {fmt(x['mean_ms'], 2)} p99 {fmt(x['p99_ms'], 2)} ms"
                for g, x in probe["gc"].items()
                if x["n"]
            ),
        )
    if t["driver_errors"]:
        table.add_row("driver errors", str(t["driver_errors"]), "; ".join(t["error_samples"])[:200])
    console.print(table)


def print_comparison(runs: list[dict[str, Any]]) -> None:
    table = Table(title="summary")
    for col in (
        "run",
        "fsync",
        "parts/reducers",
        "cmd/s",
        "accept p50/p95/p99 ms",
        "visible p50/p99 ms",
        "ref serial/batched cmd/s",
        "ratio",
        "server CPU ms/cmd",
        "busy %",
    ):
        table.add_column(col, justify="right" if col not in ("run", "fsync") else "left")
    for r in runs:
        c, a, v = r["config"], r["latency"]["accepted"], r["latency"]["visible"]
        ref = r.get("reference", {})
        table.add_row(
            c["label"],
            c["fsync"],
            f"{c['partitions']}/{c['reducers']}",
            fmt(r["throughput"]["commands_per_s"]),
            f"{fmt(a['p50_ms'], 1)}/{fmt(a['p95_ms'], 1)}/{fmt(a['p99_ms'], 1)}",
            f"{fmt(v['p50_ms'], 1)}/{fmt(v['p99_ms'], 1)}",
            f"{fmt(ref.get('serial', {}).get('commands_per_s'), 0)}/"
            f"{fmt(ref.get('batched', {}).get('commands_per_s'), 0)}",
            f"{fmt(r.get('ratio', {}).get('serial'), 2)}/{fmt(r.get('ratio', {}).get('batched'), 2)}",
            fmt(r["server_ms_per_command"], 3),
            fmt(r["machine_busy_pct"], 0),
        )
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    ap = argparse.ArgumentParser(prog="python -m bench.pipeline", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=None, help="game key (default: tigris if available, else highcard)")
    ap.add_argument(
        "--seats", type=int, default=None, help="seats per table (default: the game's minimum, >= 2)"
    )
    ap.add_argument("--games", type=int, default=64, help="concurrent games (default 64)")
    ap.add_argument("--drivers", type=int, default=1, help="load-driver processes (default 1)")
    ap.add_argument(
        "--rate",
        default="0",
        help="target commands/s in total, comma-separated for one run each; 0 = flat out (default)",
    )
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds per run (default 20)")
    ap.add_argument("--warmup", type=float, default=4.0, help="unmeasured seconds first (default 4)")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--validators", type=int, default=1)
    ap.add_argument("--reducers", type=int, default=1)
    ap.add_argument("--projectors", type=int, default=1)
    ap.add_argument("--fsync", default="everysec,always", help="AOF fsync modes to run, comma-separated")
    ap.add_argument("--log-level", default="info", help="services' log level (default info, as deployed)")
    ap.add_argument("--reference-seconds", type=float, default=4.0, help="per reference variant; 0 = skip")
    ap.add_argument("--partitions-sweep", action="store_true", help="run 1, 2 and 4 partitions (= reducers)")
    ap.add_argument("--options", default="{}", help="table options as JSON (default: the game's own)")
    ap.add_argument("--name", default=None, help="result file var/bench/<name>.json")
    ap.add_argument("--profile", action="store_true", help="cProfile every service; print the top functions")
    ap.add_argument(
        "--read-models",
        default="separate",
        help="where the game read models live, comma-separated to run each: separate (a second "
        "Valkey without AOF; default, the faster with the store as durable) or same (the store's)",
    )
    ap.add_argument(
        "--transport",
        default="http",
        help="how the bots play, comma-separated to alternate run by run: http (a POST per "
        "command; default, as every figure before 2026-11-24 part 12) or ws (a play connection per seat)",
    )
    ap.add_argument(
        "--layout",
        default="separate",
        help="how the stages run, comma-separated to alternate run by run: separate (a process "
        "each; default) or together (validator, reducer and projector in one process, services/stages)",
    )
    args = ap.parse_args(argv)
    stage_layouts = [x.strip() for x in args.layout.split(",") if x.strip()]
    if not stage_layouts or any(x not in ("separate", "together") for x in stage_layouts):
        ap.error("--layout takes separate, together, or both comma-separated")
    transports = [t.strip() for t in args.transport.split(",") if t.strip()]
    if not transports or any(t not in ("http", "ws") for t in transports):
        ap.error("--transport takes http, ws, or both comma-separated")

    from shared.games import registry

    game_key = args.game or default_game()
    game = registry.get(game_key)
    seats = args.seats or max(2, game.min_seats)
    base = {
        "game": game_key,
        "seats": seats,
        "games": args.games,
        "drivers": args.drivers,
        "duration": args.duration,
        "warmup": args.warmup,
        "validators": args.validators,
        "projectors": args.projectors,
        "log_level": args.log_level,
        "reference_s": args.reference_seconds,
        "profile": args.profile,
        "options": json.loads(args.options),
    }
    configs: list[RunConfig] = []
    rates = [float(r) for r in args.rate.split(",") if r.strip()]
    layouts = [r.strip() for r in args.read_models.split(",") if r.strip()]
    if not layouts or any(r not in ("same", "separate") for r in layouts):
        ap.error("--read-models takes same, separate, or both comma-separated")
    for fsync, rate, transport, layout, stage_layout in [
        (f.strip(), rate, t, r, x)
        for f in args.fsync.split(",")
        if f.strip()
        for rate in rates
        for t in transports
        for r in layouts
        for x in stage_layouts
    ]:
        base["transport"] = transport
        base["read_models"] = layout
        base["layout"] = stage_layout
        paced = f"-{rate:g}per-s" if rate else ""
        paced += f"-{transport}" if len(transports) > 1 or transport != "http" else ""
        paced += f"-{layout}" if len(layouts) > 1 else ""
        paced += f"-{stage_layout}" if len(stage_layouts) > 1 or stage_layout != "separate" else ""
        if args.partitions_sweep:
            for p in (1, 2, 4):
                configs.append(
                    RunConfig(
                        label=f"p{p}-{fsync}{paced}",
                        partitions=p,
                        reducers=p,
                        fsync=fsync,
                        rate=rate,
                        **base,
                    )
                )
        else:
            configs.append(
                RunConfig(
                    label=f"{fsync}{paced}",
                    partitions=args.partitions,
                    reducers=args.reducers,
                    fsync=fsync,
                    rate=rate,
                    **base,
                )
            )
    runs = []
    for cfg in configs:
        r = run_once(cfg)
        print_run(r)
        runs.append(r)
    print_comparison(runs)
    if args.partitions_sweep and runs:
        first = runs[0]["throughput"]["commands_per_s"]
        scaling = ", ".join(
            f"{r['config']['partitions']}p: {r['throughput']['commands_per_s'] / first:.2f}x" for r in runs
        )
        console.print(f"scaling against 1 partition: {scaling} (2 cores: bounded by CPU, not by partitions)")
    name = args.name or ("pipeline-sweep" if args.partitions_sweep else "pipeline")
    path = write_json(name, {"machine": machine(), "runs": runs})
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
