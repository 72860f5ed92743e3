"""A real Prometheus against a live stack: the rules are valid, the alerts fire
and clear when they should, and every dashboard panel has something to show.

* ``promtool`` checks the rules and both configs (compose's and
  ``make run``'s) and runs the rules' unit tests (alerts_test.yml).
* A stack (Valkey and every service, as separate processes) is started with
  the stall bound at 3 s, and its targets are written as ``ziggurat run``
  writes them (shared/cli/discovery.py). A Prometheus reads them with
  local.yml's own scrape job and relabelling, scrapes and evaluates every
  second, and loads alerts.yml with every ``for:`` divided by
  :data:`FOR_SCALE` (derived from the file here, thresholds untouched), so
  that a minute of the real rules is two seconds of this test.
* While bots play games and a small tournament, every query of every
  dashboard must return data and every rule must evaluate without error.
* Then the projector is stopped and one more table opened (appended, never
  projected): the projection-lag, stalled-stage and service-down alerts must
  fire within their windows (threshold + scaled ``for`` + :data:`SLACK_S`
  for the watch, the scrape and the evaluation), and all must clear once the
  projector is back.

Prometheus comes from Debian's ``prometheus`` package, installed here when it
is missing (as root); elsewhere the test fails saying how to install it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import random
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from shared.cli import botclient, discovery
from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED
from shared.infra.valkey_server import free_port, spawn

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("prometheus"), pytest.mark.timeout(300)]

REPO = Path(__file__).resolve().parents[2]
PROMETHEUS_DIR = REPO / "deploy" / "prometheus"
RULES = PROMETHEUS_DIR / "alerts.yml"
LOCAL = PROMETHEUS_DIR / "local.yml"
DASHBOARDS = REPO / "deploy" / "grafana" / "dashboards"
STALL_AFTER_S = 3.0
#: Real ``for:`` durations divided by this (1m -> 2 s), at least 1 s.
FOR_SCALE = 30
#: The watch measures every second, Prometheus scrapes and evaluates every
#: second; on a busy 2-core machine allow this much on top of each window.
SLACK_S = 12.0
#: Grafana's variables, as it would fill them for a 1 s scrape interval.
GRAFANA_VARS = {"$__rate_interval": "10s", "$__interval": "2s", "$__range": "5m"}
INSTALL_HINT = "install Debian's package: `apt-get update && apt-get install -y prometheus` (as root)"


# ------------------------------------------------------------------ install


def _install_prometheus() -> None:
    if shutil.which("prometheus") and shutil.which("promtool"):
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.fail(f"prometheus and promtool are not on PATH; {INSTALL_HINT}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Both test workers may get here: one installs, the other waits for it.
    with open("/tmp/ziggurat-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shutil.which("prometheus") and shutil.which("promtool"):
            return
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "prometheus"]
        done = subprocess.run(install, env=env, capture_output=True, text=True)
        if done.returncode != 0:  # an old or missing package list: refresh it once
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, text=True)
            done = subprocess.run(install, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not shutil.which("prometheus"):
        pytest.fail(f"could not install prometheus ({done.stderr.strip()[-500:]}); {INSTALL_HINT}")


@pytest.fixture(scope="module")
def promtool() -> str:
    _install_prometheus()
    return str(shutil.which("promtool"))


def run(args: list[str]) -> str:
    done = subprocess.run(args, capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


# ------------------------------------------------------------------ promtool


def test_promtool_accepts_the_rules_and_both_configs(promtool: str) -> None:
    assert "SUCCESS" in run([promtool, "check", "rules", str(RULES)])
    run([promtool, "check", "config", str(REPO / "deploy" / "prometheus.yml")])
    run([promtool, "check", "config", str(LOCAL)])


def test_every_alert_passes_its_unit_tests(promtool: str) -> None:
    assert "SUCCESS" in run([promtool, "test", "rules", str(PROMETHEUS_DIR / "alerts_test.yml")])


# --------------------------------------------------------- rules for the test


def seconds(duration: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    parts = re.findall(r"(\d+)(ms|s|m|h|d)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    return sum(int(n) * units[u] for n, u in parts)


def scaled_rules() -> tuple[dict[str, Any], dict[str, float]]:
    """alerts.yml with every ``for`` divided by FOR_SCALE; and alert -> its scaled ``for`` (s)."""
    doc = yaml.safe_load(RULES.read_text())
    waits: dict[str, float] = {}
    for group in doc["groups"]:
        for rule in group["rules"]:
            if "alert" not in rule:
                continue
            wait = max(1.0, seconds(rule["for"]) / FOR_SCALE) if "for" in rule else 0.0
            waits[rule["alert"]] = wait
            if wait:
                rule["for"] = f"{wait:g}s"
    return doc, waits


def threshold(alert: str) -> float:
    """The number an alert's expression compares with (``> 5``)."""
    for group in yaml.safe_load(RULES.read_text())["groups"]:
        for rule in group["rules"]:
            if rule.get("alert") == alert:
                return float(re.findall(r">\s*([0-9.]+)\s*$", rule["expr"].strip())[0])
    raise KeyError(alert)


def test_the_scaled_rules_keep_everything_but_the_waits() -> None:
    scaled, waits = scaled_rules()
    real = yaml.safe_load(RULES.read_text())
    for group, real_group in zip(scaled["groups"], real["groups"], strict=True):
        for rule, real_rule in zip(group["rules"], real_group["rules"], strict=True):
            assert {k: v for k, v in rule.items() if k != "for"} == {
                k: v for k, v in real_rule.items() if k != "for"
            }
    assert waits["ZigguratStageStalled"] == 2 and waits["ZigguratProjectionLagging"] == 4
    assert threshold("ZigguratProjectionLagging") == 5


# ------------------------------------------------------------- the live stack


def prometheus_config(targets: Path, rules: Path) -> dict[str, Any]:
    """local.yml's scrape job (its relabelling included), reading ``targets``."""
    local = yaml.safe_load(LOCAL.read_text())
    (job,) = [j for j in local["scrape_configs"] if "file_sd_configs" in j]
    job["file_sd_configs"] = [{"files": [str(targets)], "refresh_interval": "1s"}]
    job["scrape_interval"] = "1s"
    job["scrape_timeout"] = "1s"
    return {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s", "scrape_timeout": "1s"},
        "rule_files": [str(rules)],
        "scrape_configs": [job],
    }


class Prometheus:
    def __init__(self, root: Path, targets: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        scaled, self.waits = scaled_rules()
        rules = root / "alerts.yml"
        rules.write_text(yaml.safe_dump(scaled, sort_keys=False))
        config = root / "prometheus.yml"
        config.write_text(yaml.safe_dump(prometheus_config(targets, rules), sort_keys=False))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (root / "prometheus.log").open("wb")
        self.process = spawn(
            [
                str(shutil.which("prometheus")),
                f"--config.file={config}",
                f"--storage.tsdb.path={root / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def get(self, path: str, **params: str) -> Any:
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        with urllib.request.urlopen(f"{self.url}{path}{query}", timeout=5) as response:
            body = json.load(response)
        assert body["status"] == "success", body
        return body["data"]

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"prometheus exited; see {self.log.name}"
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/-/ready", timeout=1) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.2)
        raise AssertionError(f"prometheus not ready in {timeout}s; see {self.log.name}")

    def query(self, expr: str) -> list[dict[str, Any]]:
        return list(self.get("/api/v1/query", query=expr)["result"])

    def alerts(self) -> dict[str, str]:
        """alertname -> state (pending or firing), the worst over its instances."""
        out: dict[str, str] = {}
        for alert in self.get("/api/v1/alerts")["alerts"]:
            name = alert["labels"]["alertname"]
            if out.get(name) != "firing":
                out[name] = alert["state"]
        return out

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, promtool: str) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("ops-stack")
    running = Stack(root, partitions=2, env={**UNTHROTTLED, "ZIGGURAT_STALL_AFTER_S": str(STALL_AFTER_S)})
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def prometheus(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    discovery.write(stack.root, discovery.describe(stack))
    server = Prometheus(tmp_path_factory.mktemp("prometheus"), discovery.targets_file(stack.root))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def dashboard_queries() -> list[tuple[str, str, str]]:
    """(dashboard, panel, PromQL with Grafana's variables filled in) of every panel."""
    out = []
    for path in sorted(DASHBOARDS.glob("*.json")):
        for panel in json.loads(path.read_text())["panels"]:
            for target in panel.get("targets", []):
                expr = target["expr"]
                for name, value in GRAFANA_VARS.items():
                    expr = expr.replace(name, value)
                out.append((path.name, panel["title"], expr))
    return out


async def play_forever(api: str, seed: int) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        while True:
            table = await botclient.open_table(client, "highcard", 3)
            await botclient.play(client, table, rng, pace_s=0.02)


async def tournament(api: str) -> None:
    """A round of bots at the platform process (pairing, tables live, moves)."""
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        r = await client.post(
            "/v1/tournaments",
            json={"name": "ops", "game": "highcard", "format": "swiss", "seats_per_table": 4, "rounds": 1},
        )
        assert r.status_code == 201, r.text
        tid, token = r.json()["tournament_id"], r.json()["organiser_token"]
        organiser = {"authorization": f"Bearer {token}"}
        for i in range(4):
            r = await client.post(
                f"/v1/tournaments/{tid}/players", json={"name": f"bot {i}", "kind": "bot"}, headers=organiser
            )
            assert r.status_code == 201, r.text
        r = await client.post(f"/v1/tournaments/{tid}/start", headers=organiser)
        assert r.status_code == 200, r.text


async def wait_until(check: Any, within: float, what: str) -> float:
    """Poll ``check()`` (in a thread) until true; the seconds it took."""
    started = time.monotonic()
    last: Any = None
    while time.monotonic() - started < within:
        last = await asyncio.to_thread(check)
        if last is True:
            return time.monotonic() - started
        await asyncio.sleep(0.5)
    raise AssertionError(f"{what}: not within {within:.0f} s (last: {last})")


@contextlib.asynccontextmanager
async def bots_playing(api: str) -> AsyncIterator[None]:
    players = [asyncio.create_task(play_forever(api, seed)) for seed in range(3)]
    try:
        yield
    finally:
        for task in players:
            task.cancel()
        results = await asyncio.gather(*players, return_exceptions=True)
        failures = [r for r in results if not isinstance(r, asyncio.CancelledError)]
        assert not failures, failures


async def test_dashboards_fill_alerts_fire_on_a_stalled_projector_and_clear(
    stack: Stack, prometheus: Prometheus
) -> None:
    queries = dashboard_queries()
    assert len(queries) > 40

    def all_up() -> bool | list[tuple[str, str]]:
        targets = prometheus.get("/api/v1/targets")["activeTargets"]
        seen = [(t["labels"]["instance"], t["health"]) for t in targets]
        return (len(seen) == len(stack.procs) and all(h == "up" for _, h in seen)) or seen

    # Every process scraped before anything happens, so counters start at their zeros.
    await wait_until(all_up, 30, "Prometheus scrapes every process the targets file names")

    async with bots_playing(stack.api):
        await tournament(stack.api)

        def empty() -> bool | list[str]:
            missing = [
                f"{board} / {title}: {expr}" for board, title, expr in queries if not prometheus.query(expr)
            ]
            return missing or True

        await wait_until(empty, 60, "every dashboard query returns data")

        def rules_ok() -> bool | list[str]:
            rules = [r for g in prometheus.get("/api/v1/rules")["groups"] for r in g["rules"]]
            bad = [(r["name"], r["health"], r.get("lastError", "")) for r in rules if r["health"] != "ok"]
            return (len(rules) > 20 and not bad) or bad

        await wait_until(rules_ok, 15, "every rule evaluates without error")

        # Live games are counted from the store: the bots keep tables open now.
        def live() -> bool | list[dict[str, Any]]:
            found = prometheus.query("sum(max by (game) (ziggurat_live_games))")
            return bool(found and float(found[0]["value"][1]) >= 1) or found

        await wait_until(live, 15, "live games counted while bots play")

    waits = prometheus.waits
    projector = stack.procs["projector-0"]
    await asyncio.to_thread(projector.stop)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as client:
        # Appended by the reducer, never projected while the projector is down.
        await botclient.open_table(client, "highcard", 2)
    windows = {
        "ZigguratStageStalled": STALL_AFTER_S + waits["ZigguratStageStalled"],
        "ZigguratProjectionLagging": threshold("ZigguratProjectionLagging")
        + waits["ZigguratProjectionLagging"],
        "ZigguratServiceDown": waits["ZigguratServiceDown"],
    }
    started = time.monotonic()
    for alert, window in sorted(windows.items(), key=lambda kv: kv[1]):
        left = window + SLACK_S - (time.monotonic() - started)
        await wait_until(
            lambda alert=alert: prometheus.alerts().get(alert) == "firing" or prometheus.alerts(),
            max(left, 1.0),
            f"{alert} fires within {window:g} s (+{SLACK_S:g} s) of the projector's stop",
        )
        print(f"{alert}: firing after {time.monotonic() - started:.1f} s (window {window:g} s)")
    firing = prometheus.query('ALERTS{alertname="ZigguratStageStalled",alertstate="firing"}')
    assert {(a["metric"]["stage"], a["metric"]["partition"]) for a in firing} <= {
        ("projector", str(p)) for p in range(stack.partitions)
    }

    await asyncio.to_thread(projector.start)
    await asyncio.to_thread(stack.wait_healthy, 60.0, ["projector-0"])

    def cleared() -> bool | dict[str, str]:
        active = {k: v for k, v in prometheus.alerts().items() if k in windows}
        return active or True

    await wait_until(cleared, 30, "the alerts clear once the projector is back")
    assert float(prometheus.query("max(ziggurat_projection_lag_seconds)")[0]["value"][1]) < STALL_AFTER_S
